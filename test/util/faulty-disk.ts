/**
 * A session's file operations that fail on request, given to SessionManager.create/open as `{ io: disk.io }`:
 * a write that stops part-way and throws as a full disk does, or a failure just before a rewrite's rename.
 */
import * as fs from "node:fs";
import type { SessionFileIo } from "../../src/core/session/types.js";

/** The io to give a session, and the faults to arm on it. */
export interface FaultyDisk {
  readonly io: SessionFileIo;
  /** The next write(2) writes `part` (0..1) of its bytes, then throws ENOSPC; later writes are real again. */
  failNextWritePartway(part: number): void;
  /** Every rewrite from now on calls `fn` between its temp file's flush and its rename (undefined: none). */
  beforeRename(fn: ((tempFile: string) => void) | undefined): void;
}

/** File operations that are the real ones until a fault is armed. */
export function faultyDisk(): FaultyDisk {
  let failPart: number | undefined;
  let renameHook: ((tempFile: string) => void) | undefined;
  const io: SessionFileIo = {
    write: (fd, buf, offset, length) => {
      if (failPart === undefined) return fs.writeSync(fd, buf, offset, length);
      const part = failPart;
      failPart = undefined;
      fs.writeSync(fd, buf, offset, Math.floor(length * part));
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    },
    beforeRename: (tempFile) => renameHook?.(tempFile),
  };
  return {
    io,
    failNextWritePartway: (part) => {
      failPart = part;
    },
    beforeRename: (fn) => {
      renameHook = fn;
    },
  };
}
