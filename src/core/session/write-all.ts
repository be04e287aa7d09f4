/** Writing a whole buffer with write(2), which may write less than asked. */
import * as fs from "node:fs";

/** write(2) as fs.writeSync makes it: returns how many bytes were written (maybe fewer than asked). */
export type WriteFn = (fd: number, buf: Buffer, offset: number, length: number) => number;

const writeSync: WriteFn = (fd, buf, offset, length) => fs.writeSync(fd, buf, offset, length);

/**
 * Write all of `buf` to `fd` (one write in practice; loops only on a short write). `write` is the session's
 * SessionFileIo.write when one was given (a test reproducing a full disk), else fs.writeSync.
 */
export function writeAll(fd: number, buf: Buffer, write: WriteFn = writeSync): void {
  let done = 0;
  for (let i = 0; done < buf.length && i < 1000; i++) done += write(fd, buf, done, buf.length - done);
  if (done < buf.length) throw new Error(`short write: ${done} of ${buf.length} bytes`);
}
