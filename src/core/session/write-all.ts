/** Writing a whole buffer with write(2), which may write less than asked. */
import * as fs from "node:fs";

/** Write all of `buf` to `fd` (one write in practice; loops only on a short write). */
export function writeAll(fd: number, buf: Buffer): void {
  let done = 0;
  for (let i = 0; done < buf.length && i < 1000; i++) done += fs.writeSync(fd, buf, done, buf.length - done);
  if (done < buf.length) throw new Error(`short write: ${done} of ${buf.length} bytes`);
}
