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

/** Start time of a process in clock ticks after boot (Linux), or undefined: tells a reused pid apart. */
export function processStart(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22; the command name (field 2) is in parentheses and may hold spaces.
    const value = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    return Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
