/** Writing a whole buffer with write(2), which may write less than asked. */
import * as fs from "node:fs";

/**
 * Test seam (tests only; product code never sets it): the write(2) every session write goes through, so a test
 * can make it write part of a buffer and then fail, as a full disk or an I/O error does.
 */
export const writeTestHooks: {
  write?: (fd: number, buf: Buffer, offset: number, length: number) => number;
} = {};

/** Write all of `buf` to `fd` (one write in practice; loops only on a short write). */
export function writeAll(fd: number, buf: Buffer): void {
  const write = writeTestHooks.write ?? ((f: number, b: Buffer, o: number, n: number) => fs.writeSync(f, b, o, n));
  let done = 0;
  for (let i = 0; done < buf.length && i < 1000; i++) done += write(fd, buf, done, buf.length - done);
  if (done < buf.length) throw new Error(`short write: ${done} of ${buf.length} bytes`);
}
