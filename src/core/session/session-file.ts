/**
 * The bytes of one session: its file on disk, or an image in memory (a session that never touches the disk, a
 * migrated file viewed read-only, and the first lines of a new file until it is written). Lines are read by
 * offset and length — the one place an entry's body comes from — and appended whole. This is also where the
 * file is kept safe: one `write` per append, the background fdatasync, the torn-tail repair, the writer lock
 * and the check that the file is still the one that was opened. The tree (SessionManager) knows nothing of
 * any of it. See docs/session-format.md.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  SessionChangedError,
  SessionLockLostError,
  SessionReadOnlyError,
  type LockHolderInfo,
  type LockLossReason,
} from "./errors.js";
import { identityOf, openRegular, realSessionPath } from "./file-identity.js";
import { SessionLock } from "./lock.js";
import { rewriteTempPath, syncFolder } from "./migrate.js";
import type { LockOptions, SessionFileIo } from "./types.js";
import { writeAll } from "./write-all.js";

const { O_RDONLY, O_WRONLY, O_APPEND, O_CREAT, O_EXCL } = fs.constants;

/** Reads of lines one after another (a path being loaded) share one window of the file, at most this big. */
const WINDOW_BYTES = 1024 * 1024;
/**
 * The window read by the first sequential read; each further one in a row doubles it. Reads that jump between
 * two places of the file (the compare tab reads a turn of each branch in turn) thus read a little ahead, not a
 * whole window per line pair.
 */
const FIRST_WINDOW_BYTES = 16 * 1024;
/** A read this close after the previous one counts as sequential and fills the window. */
const SEQUENTIAL_GAP = 64 * 1024;

/** The backup of a file rewritten by a branch deletion, kept until the next writable open (see rewrite()). */
export function rewriteBackupPath(realFile: string): string {
  return `${realFile}.before-delete.bak`;
}

/**
 * Writes the new bytes of a rewrite: `end` is where the session's whole lines end (a torn tail is left out),
 * `write` takes the bytes in order.
 */
export type RewriteProducer = (end: number, write: (bytes: Buffer) => void) => void;

/** How an existing file was found by the scan (what its first append must know). */
export interface ExistingFile {
  readOnly: boolean;
  /** The writer lock, already taken (none for a read-only view). */
  lock?: SessionLock;
  lockOptions?: LockOptions;
  /** The file operations of its writes (see SessionFileIo). */
  io?: SessionFileIo;
  /** The file's size when it was scanned. */
  size: number;
  /** The file ends in a torn line starting here: cut off (and kept beside the file) before the next append. */
  tornOffset?: number;
  /** The last line has no newline: the next append starts with one. */
  needsNewline: boolean;
}

/**
 * What another program appended since this session last read or wrote the file (readAppended): nothing yet,
 * whole lines in [start, end) — `torn`: the first of them starts where the open saw a torn last line, which was
 * counted as a line then —, or a file that is not the one read any more (replaced, cut short, its first line
 * changed), whose lines are not read.
 */
export type AppendedBytes =
  | { kind: "none" }
  | { kind: "lines"; start: number; end: number; torn: boolean }
  | { kind: "replaced"; reason: string };

/**
 * Another program's whole lines around one of our appends (see SessionFile.append): the lines of [start, end),
 * read by the same scan as readAppended's, hold ours at [ownStart, ownEnd) — the first of ours is line
 * `linesBefore + 1` of them (a line of theirs cut short before ours shares it: ours is glued onto it) — and
 * theirs before and after.
 */
export interface OthersAround {
  start: number;
  end: number;
  ownStart: number;
  ownEnd: number;
  linesBefore: number;
}

/** What SessionFile.append did: where the line is, how far the lines kept in memory moved, and others' lines. */
export interface Appended {
  offset: number;
  shift: number;
  others?: OthersAround;
}

/** At most this much of the header line is kept to tell a file rewritten in place from one appended to. */
const HEAD_BYTES = 512;

/** Bytes of a session, on disk and/or in memory. */
export class SessionFile {
  /** Lines not on disk: the whole session in memory, or what a new file holds until it is written. */
  private image: Buffer;
  private imageLength: number;
  /** Offset of image[0] in the session's bytes. */
  private imageStart: number;
  /** A new file: the image is written, whole, with the first append that is not deferred. */
  private pendingFile: boolean;
  private readOnlyNow: boolean;
  private lock: SessionLock | undefined;
  private lost: { newHolder: LockHolderInfo | undefined; reason: LockLossReason } | undefined;
  /** The file's identity and first bytes as read (readAppended compares them); undefined until first asked. */
  private seen: { dev: number; ino: number; head: Buffer } | undefined;
  /** A view of bytes held in memory (a migrated file): it follows nothing on disk. */
  private memoryView = false;
  private readonly lostListeners = new Set<(newHolder: LockHolderInfo | undefined, reason: LockLossReason) => void>();
  private tornOffset: number | undefined;
  /** File size when the torn tail was seen: the repair cuts only if the file still ends there. */
  private tornEnd: number | undefined;
  private needsNewline: boolean;
  private writeFd: number | undefined;
  private readFd: number | undefined;
  private closed = false;
  /** The background fdatasync of the write handle, while one runs (see scheduleSync). */
  private syncing: Promise<void> | undefined;
  /** Lines were appended while a flush ran: flush again when it ends. */
  private syncAgain = false;
  private window: Buffer | undefined;
  private windowStart = 0;
  private windowLength = 0;
  private lastReadEnd = -1;
  /** Sequential reads in a row that filled the window (sets its next size). */
  private streak = 0;

  private constructor(
    /** The file; undefined for a session that never touches the disk. */
    readonly path: string | undefined,
    image: Buffer,
    imageStart: number,
    pendingFile: boolean,
    readOnly: boolean,
    /** The writer lock's options (a new session in the same folder takes its lock with them). */
    readonly lockOptions: LockOptions | undefined,
    /** The file operations of its writes (a new session in the same folder writes with them too). */
    readonly io: SessionFileIo = {},
  ) {
    this.image = image;
    this.imageLength = image.length;
    this.imageStart = imageStart;
    this.pendingFile = pendingFile;
    this.readOnlyNow = readOnly;
    this.needsNewline = false;
  }

  /** A session that never touches the disk, starting with its header line. */
  static memory(headerLine: string): SessionFile {
    return new SessionFile(undefined, Buffer.from(headerLine + "\n"), 0, false, false, undefined);
  }

  /**
   * A new file at `file` (absent or empty), written with its header line with the first append that is not
   * deferred; its writer lock is taken then, unless `lock` holds it already.
   */
  static created(
    file: string,
    headerLine: string,
    lockOptions?: LockOptions,
    lock?: SessionLock,
    io?: SessionFileIo,
  ): SessionFile {
    const f = new SessionFile(file, Buffer.from(headerLine + "\n"), 0, true, false, lockOptions, io);
    if (lock) f.holdLock(lock);
    return f;
  }

  /** A file on disk as the scan found it. */
  static existing(file: string, found: ExistingFile): SessionFile {
    const f = new SessionFile(file, Buffer.alloc(0), found.size, false, found.readOnly, found.lockOptions, found.io);
    if (found.lock) {
      f.holdLock(found.lock);
      // Held from now on: should the file (or its folder) be deleted under this writer, its bytes stay readable,
      // so nothing of the session is lost and it can be saved again (saveAgain()).
      f.readHandle();
    }
    f.tornOffset = found.tornOffset;
    f.tornEnd = found.tornOffset === undefined ? undefined : found.size;
    f.needsNewline = found.needsNewline;
    f.remember();
    return f;
  }

  /** A read-only view of `file` whose bytes are given (a migration done in memory only). */
  static view(file: string, bytes: Buffer): SessionFile {
    const f = new SessionFile(file, bytes, 0, false, true, undefined);
    f.memoryView = true;
    return f;
  }

  /** True for a view opened read-only, and once the writer lock was lost. */
  get readOnly(): boolean {
    return this.readOnlyNow;
  }

  /** True once the writer lock was lost (taken over, or deleted with the file). */
  get lockLost(): boolean {
    return this.lost !== undefined;
  }

  /** Why the writer lock was lost (undefined while it is held). */
  get lockLossReason(): LockLossReason | undefined {
    return this.lost?.reason;
  }

  /** True while a new file has not been written yet (appends may be deferred). */
  get pending(): boolean {
    return this.pendingFile;
  }

  /** Called once when the writer lock is lost (see SessionManager.onLockLost). */
  onLockLost(listener: (newHolder: LockHolderInfo | undefined, reason: LockLossReason) => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /**
   * What another program (pi takes no lock) appended since this session last read or wrote the file: only whole
   * lines past that point — a last line without its newline is a write still going on, left for the next call —,
   * read from nothing but the file's size, identity and first bytes (a 300 MB file is not read again). A file
   * that was replaced (another inode: an atomic rewrite), cut short or whose first bytes changed is `replaced`:
   * its lines are not read. Sessions not on disk, and files not written yet, have nothing appended. The caller
   * ingests the lines, then calls markRead(end).
   */
  readAppended(): AppendedBytes {
    if (this.path === undefined || this.pendingFile || this.memoryView || this.closed || !this.seen)
      return { kind: "none" };
    let st: fs.Stats;
    try {
      st = fs.statSync(this.path);
    } catch {
      // Deleted: the writer lock says so (file-gone); a view keeps what it read.
      return { kind: "none" };
    }
    if (st.ino !== this.seen.ino || st.dev !== this.seen.dev)
      return { kind: "replaced", reason: "it was replaced by another file (rewritten by another program)" };
    const known = this.imageStart;
    if (st.size < known)
      return { kind: "replaced", reason: `it is shorter than when it was read (${known} bytes then, ${st.size} now)` };
    if (st.size === known) return { kind: "none" };
    const head = this.seen.head;
    if (!this.readBytes(0, head.length).equals(head))
      return { kind: "replaced", reason: "its first line changed (rewritten in place by another program)" };
    let start = this.tornOffset ?? known;
    if (this.tornOffset === undefined && this.needsNewline) {
      // Our last line had no newline: pi 1.6 ends it with one when it opens the file, then appends.
      const next = Buffer.alloc(1);
      if (this.readInto(next, known, 1) !== 1 || next[0] !== 10)
        return { kind: "replaced", reason: "another program wrote onto its last line, which had no newline" };
      start = known + 1;
    }
    const end = this.lastLineEnd(start, st.size);
    return end <= start ? { kind: "none" } : { kind: "lines", start, end, torn: this.tornOffset !== undefined };
  }

  /** The lines up to `end` (from readAppended) are in the session now: appends and reads go on from there. */
  markRead(end: number): void {
    this.imageStart = end;
    this.tornOffset = undefined;
    this.tornEnd = undefined;
    this.needsNewline = false;
  }

  /** Throws unless this session may write now; a lock taken over since the last write turns it read-only. */
  assertWritable(): void {
    if (this.lost) throw this.lockLostError();
    if (this.readOnlyNow) throw new SessionReadOnlyError(this.path);
    if (this.closed) throw new Error(`Session ${this.path ?? "(in memory)"} is closed`);
    // A lock taken over since the last write: verify() calls loseLock(), and nothing is written.
    if (this.lock && !this.lock.verify()) throw this.lockLostError();
  }

  /**
   * Append one line (without its newline). `defer`: a new file keeps it in memory, to be written with the next
   * line that is not deferred (pi 1.5 writes a new session's file with its first user or assistant message).
   * Returns the line's offset, `shift`: how far the lines kept in memory so far moved when this append wrote
   * them (0 when it wrote none), and `others`: whole lines another program appended around this one (pi takes
   * no lock), to be ingested by the caller.
   *
   * The file's size is looked at before the write and again after it: when it grew by exactly these bytes from
   * what this session had read, nothing else wrote (the usual case costs that one extra fstat). Otherwise
   * another program appended in between — after the caller's last readAppended, or between our look at the
   * size and our write (the file is opened for append, so our bytes land after theirs) — and our bytes are
   * found where they are (they are unique: each line holds a fresh entry id), so the offset returned is theirs
   * on disk.
   */
  append(line: Buffer, defer: boolean): Appended {
    this.assertWritable();
    if (this.path === undefined || (this.pendingFile && defer)) {
      const offset = this.imageStart + this.imageLength;
      this.addToImage(line);
      return { offset, shift: 0 };
    }
    const fd = this.openForWrite();
    const st = fs.fstatSync(fd);
    this.assertSameFile(st);
    const wasPending = this.pendingFile;
    // What this session has read or written of the file (a new one is not followed before its first write).
    const known = wasPending ? st.size : this.imageStart;
    if (st.size < known) throw new SessionChangedError(this.path as string, "was cut short while open");
    const unterminated = this.needsNewline;
    // A newline first when the file's last line has none: ours (needsNewline), or another program's that
    // appended since the last read and stopped mid-line (a writer that died): ours stays a line of its own,
    // which pi reads (it drops a line that does not parse, with an entry glued onto it).
    const prefix = (st.size === known ? unterminated : this.byteAt(st.size - 1) !== 10) ? 1 : 0;
    const kept = this.imageLength;
    // One buffer, one write: the header and deferred lines of a new file, then the line.
    const data = Buffer.allocUnsafe(prefix + kept + line.length + 1);
    if (prefix) data[0] = 10;
    this.image.copy(data, prefix, 0, kept);
    line.copy(data, prefix + kept);
    data[data.length - 1] = 10;
    try {
      writeAll(fd, data, this.io.write);
    } catch (e) {
      this.dropPartialWrite(fd, st.size);
      throw e;
    }
    this.scheduleSync();
    // The window may hold bytes this append replaced (a torn tail that was cut off).
    this.windowLength = 0;
    const size = fs.fstatSync(fd).size;
    const placed =
      size === st.size + data.length && st.size === known
        ? { at: st.size, readTo: size }
        : this.placeAppend(data, prefix, st.size, size, wasPending ? undefined : known, unterminated);
    const shift = placed === undefined ? 0 : placed.at + prefix - this.imageStart;
    this.needsNewline = false;
    this.pendingFile = false;
    this.image = Buffer.alloc(0);
    this.imageLength = 0;
    if (placed === undefined) {
      // Another program's write came between the parts of ours (a short write, then the rest): our line is
      // not in one piece. It is not added; the lines from what was read are read again, as the file has them
      // (the pieces of ours are damaged lines there).
      this.imageStart = wasPending ? size : known;
      // readAppended then starts after the newline that ends our last line, if it had none.
      this.needsNewline = unterminated && !wasPending;
      if (wasPending) this.remember();
      throw new Error(
        `Session ${this.path as string}: another program wrote into the middle of a line being appended (a short write, then the rest); its entry was not added, and the file's lines from there are read as they are`,
      );
    }
    this.imageStart = placed.readTo;
    // A new file is on disk from now on: what another program appends to it is followed from here.
    if (wasPending) this.remember();
    const base = placed.at + prefix;
    return { offset: base + kept, shift: kept > 0 ? shift : 0, ...(placed.others ? { others: placed.others } : {}) };
  }

  /**
   * Replace the session's bytes with what `produce` writes (a branch deletion). On disk this is atomic: the new
   * bytes go to `<real file>.rewriting-<pid>`, are fsynced, the file as it was is kept as
   * `<real file>.before-delete.bak` (a hard link, a copy where links are refused; an older backup is kept
   * instead), and the temp file is renamed over it. A failure or a crash before the rename leaves the file as it
   * was (the next writable open removes the temp file). A torn tail is saved beside the file as the next append
   * would, and left out. The writer lock follows the file to its new identity. Returns the backup's path.
   * Throws SessionChangedError when the file is not the one opened or has grown since (another program wrote to
   * it): nothing is changed then.
   */
  async rewrite(produce: RewriteProducer): Promise<{ backup?: string }> {
    this.assertWritable();
    if (this.path === undefined || this.pendingFile) {
      // In memory, or a new file not written yet: the image is the whole session.
      const chunks: Buffer[] = [];
      produce(this.imageStart + this.imageLength, (b) => chunks.push(Buffer.from(b)));
      const bytes = withFinalNewline(Buffer.concat(chunks));
      this.image = bytes;
      this.imageLength = bytes.length;
      this.imageStart = 0;
      return {};
    }
    // The background flush must end before its descriptor is closed below.
    await this.syncing;
    this.assertWritable();
    const file = this.path;
    const real = realSessionPath(file);
    const st = fs.fstatSync(this.readHandle());
    this.assertSameFile(st);
    if (st.size !== this.imageStart)
      throw new SessionChangedError(
        file,
        `changed on disk since it was opened (${this.imageStart} bytes then, ${st.size} now: another program wrote to it), so it was not rewritten`,
      );
    const end = this.tornOffset ?? this.imageStart;
    if (end < this.imageStart) {
      const torn = this.readBytes(end, this.imageStart - end);
      fs.writeFileSync(`${file}.torn-${new Date().toISOString().replace(/[:.]/g, "-")}`, torn);
    }
    const tmp = rewriteTempPath(real);
    const fd = fs.openSync(tmp, "w", st.mode & 0o777);
    let size = 0;
    let last = 10;
    let renamed = false;
    try {
      try {
        produce(end, (b) => {
          if (b.length === 0) return;
          writeAll(fd, b, this.io.write);
          size += b.length;
          last = b[b.length - 1];
        });
        if (last !== 10) {
          writeAll(fd, Buffer.from("\n"), this.io.write);
          size++;
        }
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      const backup = rewriteBackupPath(real);
      if (!fs.existsSync(backup)) keepBackup(real, backup);
      this.io.beforeRename?.(tmp);
      fs.renameSync(tmp, real);
      renamed = true;
      syncFolder(path.dirname(real));
      // The handles still name the old file (now the backup).
      this.closeHandles();
      this.lock?.rebindIdentity(identityOf(real));
      this.tornOffset = undefined;
      this.tornEnd = undefined;
      this.needsNewline = false;
      this.imageStart = size;
      this.lastReadEnd = -1;
      this.remember();
      return { backup };
    } finally {
      if (!renamed) fs.rmSync(tmp, { force: true });
    }
  }

  /**
   * Write the session back where it was after its file, or the folder holding it, was deleted while it was open
   * (the writer lock was lost with reason `file-gone`): the same bytes (a torn tail left out), read through the
   * handle held since the open, into a new file at the same path (its folders created again), under a new writer
   * lock. The session is writable again and every entry stays where it was. Nothing is overwritten: a file at the
   * path by now is SessionChangedError (and this view stays read-only); a lock there is SessionLockedError.
   */
  async saveAgain(): Promise<void> {
    if (this.lost?.reason !== "file-gone" || this.closed || this.path === undefined)
      throw new Error(`Session ${this.path ?? "(in memory)"} did not lose its file; there is nothing to save again`);
    // The background flush must end before its descriptor is closed below.
    await this.syncing;
    const file = this.path;
    const end = this.tornOffset ?? this.imageStart;
    const bytes = this.readBytes(0, end);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const lock = SessionLock.acquire(file, realSessionPath(file), undefined, this.lockOptions);
    let fd: number;
    try {
      fd = openRegular(file, O_WRONLY | O_APPEND | O_CREAT | O_EXCL, 0o644);
    } catch (e) {
      lock.release();
      if ((e as NodeJS.ErrnoException).code === "EEXIST")
        throw new SessionChangedError(file, "was written again by someone else meanwhile, so it was not saved again");
      throw e;
    }
    try {
      lock.bindIdentity(identityOf(fd));
      writeAll(fd, bytes, this.io.write);
      fs.fsyncSync(fd);
      syncFolder(path.dirname(file));
    } catch (e) {
      fs.closeSync(fd);
      fs.rmSync(file, { force: true });
      lock.release();
      throw e;
    }
    this.closeHandles();
    this.writeFd = fd;
    this.readHandle();
    this.lost = undefined;
    this.readOnlyNow = false;
    this.holdLock(lock);
    this.tornOffset = undefined;
    this.tornEnd = undefined;
    this.imageStart = end;
    this.lastReadEnd = -1;
    this.remember();
  }

  /** A line's text (offset and length as appended or scanned). */
  readText(offset: number, length: number): string {
    if (offset >= this.imageStart)
      return this.image.toString("utf8", offset - this.imageStart, offset - this.imageStart + length);
    const sequential = offset >= this.lastReadEnd && offset - this.lastReadEnd < SEQUENTIAL_GAP;
    this.lastReadEnd = offset + length;
    if (offset >= this.windowStart && offset + length <= this.windowStart + this.windowLength && this.window)
      return this.window.toString("utf8", offset - this.windowStart, offset - this.windowStart + length);
    if (!sequential || length > WINDOW_BYTES / 2) {
      this.streak = 0;
      return this.readBytes(offset, length).toString("utf8");
    }
    // Lines read one after another (a path): one read fills a window for the next ones.
    this.window ??= Buffer.allocUnsafe(WINDOW_BYTES);
    const want = Math.max(length, Math.min(WINDOW_BYTES, FIRST_WINDOW_BYTES * 2 ** this.streak++));
    this.windowStart = offset;
    this.windowLength = this.readInto(this.window, offset, Math.min(want, this.imageStart - offset));
    if (this.windowLength < length) throw new SessionChangedError(this.path as string, "was cut short while open");
    return this.window.toString("utf8", 0, length);
  }

  /** All of the session's bytes (a copy; for sessions held in memory). */
  readAll(): Buffer {
    return this.readBytes(0, this.imageStart + this.imageLength);
  }

  /** A line's bytes (a copy). */
  readBytes(offset: number, length: number): Buffer {
    if (offset >= this.imageStart)
      return Buffer.from(this.image.subarray(offset - this.imageStart, offset - this.imageStart + length));
    const buf = Buffer.allocUnsafe(length);
    if (this.readInto(buf, offset, length) < length)
      throw new SessionChangedError(this.path as string, "was cut short while open");
    return buf;
  }

  /** Wait for the background fdatasync of every append so far (and any it coalesced). */
  async flush(): Promise<void> {
    for (let i = 0; this.syncing && i < 1000; i++) await this.syncing;
  }

  /** Flush, release the writer lock and close the file. Reads still work afterwards. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // The background flush must finish before its descriptor is closed (a reused number would be flushed).
    await this.syncing;
    this.closeHandles();
    this.lock?.release();
    this.lock = undefined;
    this.lostListeners.clear();
  }

  // ---------------------------------------------------------------- internals

  /**
   * Where `data`, appended at `sizeBefore`, is in the file of `sizeAfter` bytes when another program wrote too
   * (see append): searched from `sizeBefore`, where it would be had no one else written. `known`: the end of
   * what this session had read (undefined: a new file, or another program's bytes glued onto our last line that
   * had no newline — those are left to a reopen, as a replaced file is). With `unterminated` (our last line had
   * no newline) another program's lines start after the newline that ends it. Undefined when `data` is not
   * there in one piece.
   */
  private placeAppend(
    data: Buffer,
    prefix: number,
    sizeBefore: number,
    sizeAfter: number,
    known: number | undefined,
    unterminated: boolean,
  ): { at: number; readTo: number; others?: OthersAround } | undefined {
    const region = Buffer.allocUnsafe(Math.max(0, sizeAfter - sizeBefore));
    const read = this.readInto(region, sizeBefore, region.length);
    const i = region.subarray(0, read).indexOf(data);
    if (i < 0) return undefined;
    const at = sizeBefore + i;
    const ownStart = at + prefix;
    const ownEnd = at + data.length;
    let start = known;
    if (start !== undefined && unterminated) start = this.byteAt(start) === 10 ? start + 1 : undefined;
    if (start === undefined) return { at, readTo: ownEnd };
    // Whole lines only after ours: a line still being written waits for the next read.
    const end = this.lastLineEnd(ownEnd, sizeAfter);
    if (ownStart <= start && end === ownEnd) return { at, readTo: ownEnd };
    const linesBefore = this.newlinesIn(start, ownStart);
    return { at, readTo: end, others: { start, end, ownStart, ownEnd, linesBefore } };
  }

  /** How many newlines the file holds in [from, to). */
  private newlinesIn(from: number, to: number): number {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, Math.max(1, to - from)));
    let count = 0;
    for (let at = from; at < to;) {
      const n = this.readInto(chunk, at, Math.min(chunk.length, to - at));
      if (n === 0) break;
      for (let k = chunk.indexOf(10); k >= 0 && k < n; k = chunk.indexOf(10, k + 1)) count++;
      at += n;
    }
    return count;
  }

  /** The file's byte at `offset`, or -1 past its end. */
  private byteAt(offset: number): number {
    const b = Buffer.alloc(1);
    return this.readInto(b, offset, 1) === 1 ? b[0] : -1;
  }

  /** Keep the file's identity and first bytes as they are now (see readAppended). */
  private remember(): void {
    try {
      const st = fs.fstatSync(this.readHandle());
      const first = this.readBytes(0, Math.min(HEAD_BYTES, this.imageStart, st.size));
      // The header line (or its first bytes): what a rewrite in place changes first (a new session id, a migration).
      const nl = first.indexOf(10);
      this.seen = { dev: st.dev, ino: st.ino, head: nl < 0 ? first : first.subarray(0, nl + 1) };
    } catch {
      // Unreadable now: this session does not follow the file (readAppended finds nothing).
      this.seen = undefined;
    }
  }

  /** The end (after its newline) of the last whole line in [start, size), or `start` when there is none. */
  private lastLineEnd(start: number, size: number): number {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, size - start));
    // Backwards from the end, a chunk at a time: the whole new part only when it holds a single line.
    for (let to = size; to > start;) {
      const from = Math.max(start, to - chunk.length);
      const n = this.readInto(chunk, from, to - from);
      if (n === 0) break;
      const nl = chunk.lastIndexOf(10, n - 1);
      if (nl >= 0) return from + nl + 1;
      to = from;
    }
    return start;
  }

  /** Flush and close the write handle, close the read handle, forget the read window. */
  private closeHandles(): void {
    if (this.writeFd !== undefined) {
      try {
        fs.fsyncSync(this.writeFd);
      } finally {
        fs.closeSync(this.writeFd);
        this.writeFd = undefined;
      }
    }
    if (this.readFd !== undefined) {
      fs.closeSync(this.readFd);
      this.readFd = undefined;
    }
    this.window = undefined;
    this.windowLength = 0;
  }

  private addToImage(line: Buffer): void {
    const need = this.imageLength + line.length + 1;
    if (need > this.image.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, this.image.length * 2, 4096));
      this.image.copy(grown, 0, 0, this.imageLength);
      this.image = grown;
    }
    line.copy(this.image, this.imageLength);
    this.image[need - 1] = 10;
    this.imageLength = need;
  }

  /** Reads up to `length` bytes at `offset` from the file into buf[0..]; returns how many. */
  private readInto(buf: Buffer, offset: number, length: number): number {
    const fd = this.closed ? openRegular(this.path as string, O_RDONLY) : this.readHandle();
    try {
      let done = 0;
      while (done < length) {
        const n = fs.readSync(fd, buf, done, length - done, offset + done);
        if (n === 0) break;
        done += n;
      }
      return done;
    } finally {
      // After close() a short-lived descriptor, so nothing leaks.
      if (this.closed) fs.closeSync(fd);
    }
  }

  private readHandle(): number {
    if (this.readFd === undefined) this.readFd = openRegular(this.path as string, O_RDONLY);
    return this.readFd;
  }

  /**
   * Push appended lines to the disk in the background: one fdatasync at a time on the thread pool, appends
   * made meanwhile coalesced into the next one. A write is kill-safe once it returns; this makes it survive
   * a power loss too, a few milliseconds later, without adding a disk flush to every append's latency.
   */
  private scheduleSync(): void {
    if (this.syncing) {
      this.syncAgain = true;
      return;
    }
    const fd = this.writeFd;
    if (fd === undefined) return;
    this.syncing = new Promise<void>((resolve) => {
      fs.fdatasync(fd, () => {
        // A failed flush is not an error of the append (the line is written); close() flushes again.
        this.syncing = undefined;
        resolve();
        if (this.syncAgain && !this.closed) {
          this.syncAgain = false;
          this.scheduleSync();
        }
      });
    });
  }

  private lockLostError(): SessionLockLostError {
    return new SessionLockLostError(this.path as string, this.lost?.newHolder, this.lost?.reason);
  }

  private holdLock(lock: SessionLock): void {
    this.lock = lock;
    lock.onLost((newHolder, reason) => this.loseLock(newHolder, reason));
  }

  /** The writer lock was lost: read-only from now on, and say so. */
  private loseLock(newHolder: LockHolderInfo | undefined, reason: LockLossReason): void {
    if (this.lost || this.closed) return;
    this.lost = { newHolder, reason };
    this.readOnlyNow = true;
    for (const l of [...this.lostListeners]) {
      try {
        l(newHolder, reason);
      } catch {
        // a failing listener must not break the session
      }
    }
  }

  /** Appending to a file that was deleted or replaced since it was opened would lose the entry silently. */
  private assertSameFile(st: fs.Stats): void {
    let now: fs.Stats | undefined;
    try {
      now = fs.statSync(this.path as string);
    } catch {
      now = undefined;
    }
    if (!now || now.ino !== st.ino || now.dev !== st.dev)
      throw new SessionChangedError(this.path as string, "was deleted or replaced while open");
  }

  /** The append handle; the first call takes the writer lock of a new session and repairs a torn tail. */
  private openForWrite(): number {
    if (this.writeFd !== undefined) return this.writeFd;
    const file = this.path as string;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (!this.lock) this.holdLock(SessionLock.acquire(file, realSessionPath(file), undefined, this.lockOptions));
    const fd = openRegular(file, O_WRONLY | O_APPEND | O_CREAT, 0o644);
    try {
      // A new file gets its identity only now: lock it too (another path of it cannot exist yet).
      (this.lock as SessionLock).bindIdentity(identityOf(fd));
      if (this.tornOffset !== undefined) this.repairTornTail(fd, this.tornOffset);
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
    this.writeFd = fd;
    // As for an opened file (existing()): its bytes stay readable should it be deleted while open.
    this.readHandle();
    return fd;
  }

  /**
   * A write that failed partway (a full disk, an I/O error) may have left part of a line at the end of the file:
   * cut the file back to where the write began, so the next line does not start glued to those bytes (pi drops a
   * line it cannot parse whole, with everything hanging off it). When the cut fails too, the next append starts
   * with a newline, which leaves the bytes a damaged line of their own. Nothing of the failed line is in the
   * session's memory (the caller adds an entry only after its write).
   */
  private dropPartialWrite(fd: number, size: number): void {
    this.windowLength = 0;
    try {
      if (fs.fstatSync(fd).size === size) return;
      fs.ftruncateSync(fd, size);
    } catch {
      this.needsNewline = true;
      try {
        // The bytes left are this session's own: not another program's lines to follow (readAppended).
        this.imageStart = fs.fstatSync(fd).size;
      } catch {
        // the file cannot be read either: the next append's fstat finds its end
      }
    }
  }

  /**
   * Keep the torn bytes beside the file, then cut them off so the next line starts clean. Runs under the
   * writer lock, and cuts only what the scan saw: if the file grew since (another program wrote to it), the
   * bytes after the torn line were never seen here, so nothing is cut and SessionChangedError is thrown.
   */
  private repairTornTail(fd: number, tornOffset: number): void {
    const file = this.path as string;
    const size = fs.fstatSync(fd).size;
    if (size !== this.tornEnd)
      throw new SessionChangedError(
        file,
        `changed on disk since it was opened (${this.tornEnd ?? "?"} bytes then, ${size} now: another program wrote to it), so its torn last line was not repaired`,
      );
    const torn = this.readBytes(tornOffset, size - tornOffset);
    fs.writeFileSync(`${file}.torn-${new Date().toISOString().replace(/[:.]/g, "-")}`, torn);
    fs.ftruncateSync(fd, tornOffset);
    // What this session has read of the file ends there now (append compares the file's size with it).
    this.imageStart = tornOffset;
    this.tornOffset = undefined;
    this.tornEnd = undefined;
  }
}

/**
 * Writes `headerLine` into `file` when it is still empty (pi 1.6 writes the header of an empty session file it
 * opens, so the session keeps one id across openings), and flushes it. Returns false, writing nothing, when the
 * file is no longer empty (another program wrote to it since it was scanned).
 */
export function writeHeaderIfEmpty(file: string, headerLine: string, io: SessionFileIo = {}): boolean {
  const fd = openRegular(file, O_WRONLY | O_APPEND);
  try {
    if (fs.fstatSync(fd).size !== 0) return false;
    writeAll(fd, Buffer.from(headerLine + "\n"), io.write);
    fs.fsyncSync(fd);
    return true;
  } finally {
    fs.closeSync(fd);
  }
}

/** `bytes`, ending with a newline. */
function withFinalNewline(bytes: Buffer): Buffer {
  return bytes.length === 0 || bytes[bytes.length - 1] === 10 ? bytes : Buffer.concat([bytes, Buffer.from("\n")]);
}

/** Keep `real` as `backup`: a hard link costs nothing; a copy where the file system refuses links. */
function keepBackup(real: string, backup: string): void {
  try {
    fs.linkSync(real, backup);
  } catch {
    fs.copyFileSync(real, backup);
  }
}
