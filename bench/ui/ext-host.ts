/**
 * The extension host of a code-server, found in /proc: a descendant of the server process whose command
 * line says `--type=extensionHost`. Its resident set size is what the extension costs in memory.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Resident set now and at its peak, in bytes. */
export interface ProcessMemory {
  pid: number;
  rss: number;
  peakRss: number;
}

function parentOf(pid: number): number | undefined {
  try {
    // The command name (field 2) is in parentheses and may hold spaces: the fields after it are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

/** Process ids under `root` (not `root` itself). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const parent = parentOf(pid);
    if (parent === undefined) continue;
    const list = children.get(parent) ?? [];
    list.push(pid);
    children.set(parent, list);
  }
  const out: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** The extension host processes under the code-server process `serverPid` (one per open window). */
export function extensionHostPids(serverPid: number): number[] {
  return descendants(serverPid).filter((pid) => commandLine(pid).includes("--type=extensionHost"));
}

/** VmRSS and VmHWM of a process; undefined when it is gone. */
export function processMemory(pid: number): ProcessMemory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string): number =>
      Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(status)?.[1] ?? NaN);
    return { pid, rss: kb("VmRSS") * 1024, peakRss: kb("VmHWM") * 1024 };
  } catch {
    return undefined;
  }
}

/** The memory of the single extension host under `serverPid`; throws when there is none or several. */
export function extensionHostMemory(serverPid: number): ProcessMemory {
  const pids = extensionHostPids(serverPid);
  if (pids.length !== 1) throw new Error(`expected one extension host under pid ${serverPid}, found ${pids.length}`);
  const memory = processMemory(pids[0]);
  if (memory === undefined) throw new Error(`extension host ${pids[0]} exited`);
  return memory;
}
