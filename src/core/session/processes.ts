/** Is a process of this machine still running, and which one is it (pids are reused). */
import * as fs from "node:fs";

/** True when a process with this pid exists on this machine (also when it belongs to another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * True while a process group with this id has a process (also of another user). The id is its leader's pid, which
 * is not given to a new process while the group has any, so a reused id cannot be mistaken for it.
 */
export function groupAlive(pgid: number): boolean {
  return pgid > 0 && pidAlive(-pgid);
}

/** Parent pid and start time (clock ticks after boot) of a process, from `/proc` (Linux); undefined elsewhere. */
export function processStat(pid: number): { ppid: number; start: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields 4 and 22; the command name (field 2) is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ppid = Number(fields[1]);
    const start = Number(fields[19]);
    return Number.isFinite(ppid) && Number.isFinite(start) ? { ppid, start } : undefined;
  } catch {
    return undefined;
  }
}

/** Start time of a process in clock ticks after boot (Linux), or undefined: tells a reused pid apart. */
export function processStart(pid: number): number | undefined {
  return processStat(pid)?.start;
}

/** Bound on the processes `descendants` returns (a fork bomb below a server is not walked for ever). */
const MAX_DESCENDANTS = 256;

/** The processes below `pid` now (children, their children, …), from `/proc` (Linux); none elsewhere. */
export function descendants(pid: number): number[] {
  let names: string[];
  try {
    names = fs.readdirSync("/proc");
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = processStat(Number(name));
    if (stat) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(name)]);
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0 && out.length < MAX_DESCENDANTS) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      if (out.includes(child) || child === pid) continue;
      out.push(child);
      queue.push(child);
    }
  }
  return out.slice(0, MAX_DESCENDANTS);
}
