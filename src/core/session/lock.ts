/**
 * Single-writer lock for a session file: `<file>.lock`, created with O_EXCL, holding {pid, hostname, time}.
 * A lock is stale when its process is gone (same host, `kill(pid, 0)` → ESRCH), when it names this process
 * but this process does not hold it (a reused pid), when it is unreadable and older than a minute, or when it
 * comes from another host and is older than STALE_FOREIGN_MS. Stale locks are taken over.
 * Locks are released by close() and, best effort, when the process exits.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import { SessionLockedError } from "./errors.js";

/** A lock from another host is considered abandoned after this long. */
export const STALE_FOREIGN_MS = 24 * 60 * 60 * 1000;

interface LockInfo {
  pid?: number;
  hostname?: string;
  time?: string;
}

const held = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const lockPath of held) {
      try {
        fs.unlinkSync(lockPath);
      } catch {
        // best effort: the next opener detects the stale lock anyway
      }
    }
  });
}

function readLock(lockPath: string): LockInfo | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(lockPath, "utf8")) as unknown;
    return typeof v === "object" && v !== null ? (v as LockInfo) : undefined;
  } catch {
    return undefined;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function isStale(lockPath: string, info: LockInfo | undefined): boolean {
  if (!info || typeof info.pid !== "number") {
    // Being written right now, or garbage: only old garbage is stale.
    try {
      return Date.now() - fs.statSync(lockPath).mtimeMs > 60_000;
    } catch {
      return true;
    }
  }
  if (info.hostname === os.hostname()) {
    if (info.pid === process.pid) return !held.has(lockPath);
    return !pidAlive(info.pid);
  }
  const t = Date.parse(info.time ?? "");
  return Number.isNaN(t) || Date.now() - t > STALE_FOREIGN_MS;
}

/** Take the writer lock of `sessionFile`, or throw SessionLockedError. Returns the release function. */
export function acquireLock(sessionFile: string): () => void {
  const lockPath = sessionFile + ".lock";
  if (held.has(lockPath)) throw new SessionLockedError(sessionFile, readLock(lockPath));
  const mine: LockInfo = { pid: process.pid, hostname: os.hostname(), time: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o644);
      try {
        fs.writeSync(fd, JSON.stringify(mine));
      } finally {
        fs.closeSync(fd);
      }
      held.add(lockPath);
      installExitHook();
      return () => releaseLock(lockPath);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    const info = readLock(lockPath);
    if (!isStale(lockPath, info)) throw new SessionLockedError(sessionFile, info);
    // Take over: move the stale lock aside (atomic) and retry the exclusive create.
    try {
      const aside = `${lockPath}.stale-${process.pid}-${Date.now()}-${attempt}`;
      fs.renameSync(lockPath, aside);
      fs.rmSync(aside, { force: true });
    } catch {
      // someone else moved it first; retry
    }
  }
  throw new SessionLockedError(sessionFile, readLock(lockPath));
}

function releaseLock(lockPath: string): void {
  if (!held.delete(lockPath)) return;
  const info = readLock(lockPath);
  // Never remove a lock someone else took over.
  if (info && info.pid === process.pid && info.hostname === os.hostname()) {
    try {
      fs.unlinkSync(lockPath);
    } catch {
      // already gone
    }
  }
}
