/**
 * The process of a stdio server ends when we say so. The SDK closes the server's stdin, then sends SIGTERM, then
 * SIGKILL, but it forgets the process as soon as a close begins and does not wait for the SIGKILL to land: after a
 * failed start the close runs unobserved, on timers that do not keep a closing window alive, so a server that
 * ignores SIGTERM could outlive the window. A connection therefore remembers each process it started (pid and start
 * time, since pids are reused) and waits, bounded, until it is gone, sending SIGTERM and then SIGKILL itself. The
 * processes below it are ended the same way (Linux): a server started through `npx` or a shell script is really its
 * grandchild, and killing the launcher alone would leave it running. A server started away from the extension host
 * (command-process.ts's startServer, Linux) leads a process group of its own: it is signalled as a group, so what it
 * started is signalled with it even when a launcher has exited and left it re-parented, and it counts as running
 * while any process of the group does.
 */
import { descendants, groupAlive, pidAlive, processStart } from "../session/processes.js";

/** A process a connection started. */
export interface StartedProcess {
  pid: number;
  /** Its start time (Linux), to tell it from a later process that got the same pid; undefined elsewhere. */
  start: number | undefined;
  /** `pid` is also the id of a process group of its own: signals go to the whole group (see the file comment). */
  group?: true;
}

/** How long each step waits: for the process to exit on its own (stdin closed), after SIGTERM, after SIGKILL. */
export interface EndTimings {
  exitMs: number;
  termMs: number;
  killMs: number;
}

/** Short enough for a closing window; the SDK's own close waits 2 s before each signal. */
export const DEFAULT_END_TIMINGS: EndTimings = { exitMs: 1000, termMs: 1000, killMs: 2000 };

const POLL_MS = 20;

/** The record of a process just started. */
export function startedProcess(pid: number): StartedProcess {
  return { pid, start: processStart(pid) };
}

/** The record of a server just started as the leader of a process group of its own. */
export function startedGroup(pid: number): StartedProcess {
  return { ...startedProcess(pid), group: true };
}

/** The processes below `p` now, to be ended with it (empty unless Linux). */
export function processesBelow(p: StartedProcess): StartedProcess[] {
  if (!stillRunning(p)) return [];
  return descendants(p.pid).map(startedProcess);
}

/** True while the process runs and is still the one that was started (a group: while any process of it runs). */
export function stillRunning(p: StartedProcess): boolean {
  if (p.group) return groupAlive(p.pid);
  if (!pidAlive(p.pid)) return false;
  return p.start === undefined || processStart(p.pid) === p.start;
}

async function goneWithin(p: StartedProcess, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (stillRunning(p)) {
    if (Date.now() >= end) return false;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return true;
}

function signal(p: StartedProcess, sig: NodeJS.Signals): void {
  if (!stillRunning(p)) return;
  try {
    process.kill(p.group ? -p.pid : p.pid, sig);
  } catch {
    // It ended in between.
  }
}

/**
 * Waits for `p` to exit, then sends SIGTERM, then SIGKILL, each after its wait. Resolves true once it is gone,
 * false if it still runs after the SIGKILL's wait (a process stuck in the kernel).
 */
export async function endProcess(p: StartedProcess, timings: EndTimings = DEFAULT_END_TIMINGS): Promise<boolean> {
  if (await goneWithin(p, timings.exitMs)) return true;
  signal(p, "SIGTERM");
  if (await goneWithin(p, timings.termMs)) return true;
  signal(p, "SIGKILL");
  return goneWithin(p, timings.killMs);
}
