/**
 * SessionManager: a pi-compatible tree session (JSONL, version 3) on disk or in memory — the tree API over
 * the session's bytes (SessionFile) and its index (EntryIndex over the EntryTable the scan fills).
 * See docs/core-api.md for the contract and docs/session-format.md for the file format.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  currentSystemMessage,
  type AgentMessage,
  type ImageContent,
  type TextContent,
  type Usage,
} from "../messages.js";
import { branchEntries, branchPath, writeBranchFile, writeSessionCopy, type PathEntry } from "./branch-file.js";
import { planBranchRemoval, type RemovalSource } from "./branch-removal.js";
import { buildContext, setsModel, setsThinkingLevel, settingsFrom, type PathItem } from "./context.js";
import { entryShapeError, isLineFailure, readEntryLine } from "./entry-line.js";
import { EntryIndex } from "./entry-index.js";
import type { EntryMeta } from "./entry-meta.js";
import { ARCHIVE_MARKER_TYPE, type ArchiveMarkerData } from "./entry-kinds.js";
import { EntryTable } from "./entry-table.js";
import {
  ActiveBranchError,
  EntryNotFoundError,
  SessionChangedError,
  SessionFileTypeError,
  SessionFormatError,
  type LockHolderInfo,
  type LockLossReason,
} from "./errors.js";
import { identityOf, nonRegularKind, openRegular, realSessionPath } from "./file-identity.js";
import { assertSessionId, newEntryId, newSessionId } from "./ids.js";
import { SessionLock } from "./lock.js";
import { migrateText, removeStaleMigrationTemps, writeMigrated } from "./migrate.js";
import { cwdFilterOf, defaultSessionDir, getAgentDir, sessionFileName } from "./paths.js";
import { memorySession } from "./memory-session.js";
import { rewriteBackupPath, SessionFile, writeHeaderIfEmpty, type OthersAround } from "./session-file.js";
import { watchFile } from "./file-watch.js";
import { listSessions, mostRecentSessionFile } from "./session-list.js";
import { scanSessionBytes, scanSessionFile, type ScanResult } from "./session-scan.js";
import type { PathTest } from "./path-search.js";
import { LazyTreeNode } from "./tree-node.js";
import { subtreeMask } from "./tree-shape.js";
import {
  CURRENT_SESSION_VERSION,
  LEAF_MARKER_TYPE,
  type EntryEnvelope,
  type PathChange,
  type LoadIssue,
  type NewSessionOptions,
  type OpenSessionOptions,
  type BranchDeletion,
  type DiskRefresh,
  type DiskWatchOptions,
  type SessionChange,
  type SessionContext,
  type SessionEntry,
  type SessionHeader,
  type ListSessionsOptions,
  type SessionInfo,
  type SessionTreeNode,
  type FileEntry,
} from "./types.js";
import { errorText } from "../error-text.js";

type NewEntry = Omit<SessionEntry, "id" | "parentId" | "timestamp"> & Record<string, unknown>;

/** One entry of a write: its fields, its parent, an id and time chosen by the caller, and whether the leaf stays. */
interface PendingEntry {
  fields: NewEntry;
  parentId: string | null;
  preset?: { id: string; timestamp: string };
  keepLeaf?: boolean;
}

interface Init {
  header: SessionHeader;
  file: SessionFile;
  sessionDir?: string;
  entries: EntryTable;
  issues: LoadIssue[];
  /** Lines on disk (the header included). */
  lineCount: number;
  /** Bodies the scan parsed for the first context (ScanResult.bodies). */
  bodies?: Map<number, SessionEntry>;
}

/** Bodies kept from the open for the first context are let go after this long without one. */
const OPEN_BODIES_MS = 60_000;

const { O_RDONLY } = fs.constants;

/** pi 1.5 creates a session's file with its first user or assistant message. */
function startsConversation(entry: SessionEntry): boolean {
  return entry.type === "message" && (entry.message?.role === "user" || entry.message?.role === "assistant");
}

/** A session tree: append-only entries, a leaf pointer, bodies read from the session's bytes when asked for. */
export class SessionManager {
  /** Replaced only by newSession(), and by createBranchedSession on an in-memory session. */
  private header: SessionHeader;
  /** Replaced only by newSession(), and by createBranchedSession on an in-memory session. */
  private file: SessionFile;
  private readonly sessionDir: string | undefined;
  /** Replaced only by newSession(), and by createBranchedSession on an in-memory session. */
  private index: EntryIndex;
  private issues: LoadIssue[];
  private lineCount: number;
  private leafId: string | null;
  /**
   * Positions of entries of a new file appended before its first user or assistant message: kept in memory
   * until then (SessionFile), and moved (offset, line number) when written.
   */
  private unwritten: number[] = [];
  private closed = false;
  /** Files left by newSession() whose close (flush, lock release) is still running: close() waits for them. */
  private readonly leaving = new Set<Promise<void>>();
  private readonly listeners = new Set<(change: SessionChange) => void>();
  private readonly diskListeners = new Set<(refresh: DiskRefresh) => void>();
  /** Why the file counts as replaced since it was read (refreshFromDisk reads nothing more of it then). */
  private replacedReason: string | undefined;
  /** The watch of the file (watchDisk), while one runs. */
  private watching: { options: DiskWatchOptions; stop: () => void } | undefined;
  /**
   * Bodies the open parsed anyway (a small file's short lines), by position: the first context takes them
   * instead of reading and parsing their lines again (see ScanResult.bodies), and they are let go then, or
   * after OPEN_BODIES_MS without a context. Nothing else reads them: every other body comes from the file.
   */
  private openBodies: Map<number, SessionEntry> | undefined;
  private openBodiesTimer: NodeJS.Timeout | undefined;
  /** getLeafSettings' tests, by position (the index keeps their answers per test: one function each). */
  private readonly levelTest = (i: number): boolean => setsThinkingLevel(this.index.env(i).type, this.index.meta(i));
  private readonly modelTest = (i: number): boolean => setsModel(this.index.meta(i));
  /** newestOnPath's tests as the index asks them (by position), one per test. */
  private readonly pathTests = new WeakMap<PathTest<EntryEnvelope>, (position: number) => boolean>();

  private constructor(init: Init) {
    this.header = init.header;
    this.file = init.file;
    this.sessionDir = init.sessionDir;
    this.issues = init.issues;
    this.lineCount = init.lineCount;
    const before = init.entries.length;
    this.index = this.buildIndex(init.entries);
    this.leafId = this.persistedLeaf();
    // Positions hold only while no line was dropped (a duplicate id).
    if (init.bodies && init.bodies.size > 0 && this.index.count === before) {
      this.openBodies = init.bodies;
      this.openBodiesTimer = setTimeout(() => this.dropOpenBodies(), OPEN_BODIES_MS);
      this.openBodiesTimer.unref();
    }
  }

  /** Let go of the bodies kept from the open. */
  private dropOpenBodies(): void {
    this.openBodies = undefined;
    if (this.openBodiesTimer) clearTimeout(this.openBodiesTimer);
    this.openBodiesTimer = undefined;
  }

  /** The index of `entries`; dropped duplicates and broken cycles become load issues. */
  private buildIndex(entries: EntryTable): EntryIndex {
    const { index, duplicates, cycles } = EntryIndex.build(entries);
    for (const d of duplicates)
      this.issues.push({
        line: d.line,
        reason: `duplicate entry id ${d.id}; the first entry with this id is used`,
      });
    for (const c of cycles)
      this.issues.push({
        line: c.line,
        reason: `parentId cycle ${[...c.ids, c.ids[0]].slice(0, 6).join(" → ")}${c.ids.length > 5 ? " → …" : ""}; entry ${c.ids[0]} is shown as a root`,
      });
    this.issues.sort((a, b) => a.line - b.line);
    return index;
  }

  // ---------------------------------------------------------------- factories

  /**
   * A new session for `cwd`; its file (in `sessionDir`, default pi's folder) is written, and its writer lock
   * taken, with the first user or assistant message. `options.id`: the session id (pi's rules: letters,
   * digits, `.`, `_`, `-`, starting and ending with a letter or digit; SessionIdError otherwise), default a
   * new UUID. `options.lock`: the writer lock's options.
   */
  static async create(cwd: string, sessionDir?: string, options?: NewSessionOptions): Promise<SessionManager> {
    const header = SessionManager.newHeader(cwd, options?.id, options?.parentSession);
    const dir = sessionDir ?? defaultSessionDir(cwd);
    await fs.promises.mkdir(dir, { recursive: true });
    const file = path.join(dir, sessionFileName(header.timestamp, header.id));
    return new SessionManager({
      header,
      file: SessionFile.created(file, JSON.stringify(header), options?.lock, undefined, options?.io),
      sessionDir: dir,
      entries: new EntryTable(),
      issues: [],
      lineCount: 0,
    });
  }

  /**
   * Open a session file: migrate v1/v2 (atomic rewrite, original kept as `<file>.v<N>.bak`), take the
   * writer lock (SessionLockedError when held; `readOnly: true` for a view without it), read every entry's
   * envelope. Throws SessionFormatError when line 1 is not a session header (the file is left untouched),
   * and SessionFileTypeError for a folder, FIFO or device (without blocking on it). A path where nothing is yet
   * (pi 1.6, `--session <new path>`) starts a new session of `cwd` (default the process's) there; its file is
   * written with the first user or assistant message, as create()'s. Read-only, such a path is an error. An empty
   * file gets the header of a new session of `cwd` at once, as pi 1.6 writes it, so the session keeps its id
   * across openings (read-only, it shows a new session and writes nothing).
   */
  static async open(file: string, opts?: OpenSessionOptions | string, cwd?: string): Promise<SessionManager> {
    const o: OpenSessionOptions = typeof opts === "string" ? { sessionDir: opts } : (opts ?? {});
    const abs = path.resolve(file);
    if (o.readOnly !== true && isMissing(abs)) {
      const header = SessionManager.newHeader(cwd ?? process.cwd(), idFromFileName(abs));
      return new SessionManager({
        header,
        file: SessionFile.created(abs, JSON.stringify(header), o.lock, undefined, o.io),
        sessionDir: o.sessionDir ?? path.dirname(abs),
        entries: new EntryTable(),
        issues: [],
        lineCount: 0,
      });
    }
    try {
      // Synchronous: the scan below is too, and this spares loading fs/promises in a fresh process.
      const kind = nonRegularKind(fs.statSync(abs));
      if (kind) throw new SessionFileTypeError(abs, kind);
      fs.accessSync(abs, fs.constants.R_OK);
    } catch (err) {
      if (err instanceof SessionFileTypeError) throw err;
      const e = err as NodeJS.ErrnoException;
      throw new Error(`Cannot open session ${abs}: ${e.code === "ENOENT" ? "file not found" : e.message}`);
    }
    const readOnly = o.readOnly === true;
    const real = realSessionPath(abs);
    const lock = readOnly ? undefined : SessionLock.acquire(abs, real, identityOf(real), o.lock);
    try {
      const sm = SessionManager.load(abs, real, o, lock, cwd);
      if (lock) {
        // The file opened fine after a branch deletion: the copy kept from before it is no longer needed.
        removeIfPresent(rewriteBackupPath(real));
        // Under the lock no migration or rewrite of this file runs (both run start to end without yielding), so a
        // temp file of one is what a killed one left. Removing them reads the whole folder — pi keeps every session
        // of a project in one — which is housekeeping the open need not wait for: it runs once the open returned.
        setImmediate(() => {
          if (lock.verify()) removeStaleMigrationTemps(real);
        }).unref();
      }
      return sm;
    } catch (e) {
      lock?.release();
      throw e;
    }
  }

  private static load(
    file: string,
    real: string,
    o: OpenSessionOptions,
    lock: SessionLock | undefined,
    cwd: string | undefined,
    headerWritten = false,
  ): SessionManager {
    const readOnly = o.readOnly === true;
    // One scan reads a current file; an older one stops after its header and is migrated first.
    const head = scanSessionFile(file, { minVersion: CURRENT_SESSION_VERSION });
    if (head.headerError)
      throw new SessionFormatError(
        file,
        1,
        `${head.headerError}. The file was not changed; it is not a pi session file or its first line is damaged.`,
      );
    if (!head.header) {
      // An empty file: pi 1.6 writes a new session's header into it at once (else every opening would name
      // another session); then it opens as any file. Under the writer lock; once only, whatever is there next.
      const header = SessionManager.newHeader(cwd ?? process.cwd(), idFromFileName(file));
      if (!readOnly && !headerWritten) {
        writeHeaderIfEmpty(file, JSON.stringify(header), o.io);
        return SessionManager.load(file, real, o, lock, cwd, true);
      }
      const bytes = readOnly
        ? SessionFile.view(file, Buffer.alloc(0))
        : SessionFile.created(file, JSON.stringify(header), o.lock, lock, o.io);
      return new SessionManager({
        header,
        file: bytes,
        sessionDir: o.sessionDir,
        entries: new EntryTable(),
        issues: [],
        lineCount: 0,
      });
    }
    const version = head.header.version ?? 1;
    if (version < CURRENT_SESSION_VERSION) {
      const mig = migrateText(file, readText(file));
      if (readOnly) {
        // Migrated in memory only: the file is left as it is until it is opened for writing.
        const bytes = Buffer.from(mig.lines.join("\n") + "\n");
        const scan = scanSessionBytes(bytes);
        return new SessionManager({
          header: mig.header,
          file: SessionFile.view(file, bytes),
          sessionDir: o.sessionDir,
          entries: scan.entries,
          issues: mig.issues,
          lineCount: scan.lineCount,
        });
      }
      // The real path: a symlink is not replaced by a migrated copy (the file it names is migrated).
      writeMigrated(real, mig.fromVersion, mig.lines);
      const scan = scanSessionFile(file);
      // Lines kept verbatim are reported by the scan of the new file; add only what the migration dropped
      // or could not convert.
      const issues = [
        ...mig.migrationOnly.map((i) => ({ ...i, reason: `(before migration from v${version}) ${i.reason}` })),
        ...scan.issues,
      ];
      return SessionManager.fromScan(file, scan, issues, o, lock, mig.header);
    }
    const sm = SessionManager.fromScan(file, head, head.issues, o, lock, head.header);
    if (!sm.index.hasOrphans()) return sm;
    // Orphans are what an entry glued onto a line read only partly leaves behind: read every line whole.
    const strict = scanSessionFile(file, { strict: true });
    return SessionManager.fromScan(file, strict, strict.issues, o, lock, head.header);
  }

  private static fromScan(
    file: string,
    scan: ScanResult,
    issues: LoadIssue[],
    o: OpenSessionOptions,
    lock: SessionLock | undefined,
    header: SessionHeader,
  ): SessionManager {
    return new SessionManager({
      header: scan.header ?? header,
      file: SessionFile.existing(file, {
        readOnly: o.readOnly === true,
        lock,
        lockOptions: o.lock,
        io: o.io,
        size: scan.fileSize,
        tornOffset: scan.tornOffset,
        needsNewline: scan.missingFinalNewline,
      }),
      sessionDir: o.sessionDir,
      entries: scan.entries,
      issues,
      lineCount: scan.lineCount,
      bodies: scan.bodies,
    });
  }

  /**
   * A session that never touches the disk. `options.id`: the session id, as for create(). `entries` (pi 1.6): the
   * session starts with them — under their own header when they bring one (v1/v2 migrated), else under a new
   * one; lines that are no entry are load issues. The leaf is where open() would resume.
   */
  static inMemory(cwd: string = process.cwd(), options?: NewSessionOptions, entries?: FileEntry[]): SessionManager {
    const header = SessionManager.newHeader(cwd, options?.id, options?.parentSession);
    if (!entries || entries.length === 0)
      return new SessionManager({
        header,
        file: SessionFile.memory(JSON.stringify(header)),
        entries: new EntryTable(),
        issues: [],
        lineCount: 0,
      });
    const mem = memorySession(header, entries);
    return new SessionManager({
      header: mem.header,
      file: SessionFile.memory(mem.text),
      entries: mem.scan.entries,
      issues: mem.issues,
      lineCount: 0,
    });
  }

  /**
   * pi 1.6's forkFrom: a new session of `targetCwd` holding every entry of the session at `sourcePath` (from
   * another project, say), in `sessionDir` (default pi's folder for `targetCwd`), with a new id (`options.id`)
   * and `parentSession` naming the source; opened for writing. The source is only read (a v1/v2 file is migrated
   * in the copy, not in place). Lines of the source that are no entry are left out; a source with a header and no
   * entries forks into a header alone, as pi 1.6's; an empty file is an error.
   */
  static async forkFrom(
    sourcePath: string,
    targetCwd: string,
    sessionDir?: string,
    options?: NewSessionOptions,
  ): Promise<SessionManager> {
    const from = path.resolve(sourcePath);
    const source = await SessionManager.open(from, { readOnly: true });
    let file: string;
    const cwd = path.resolve(targetCwd);
    const dir = sessionDir ?? defaultSessionDir(cwd);
    try {
      // A header and no entries is a session (pi 1.6 forks it); no header at all is not.
      if (source.lineCount === 0) throw new Error(`Cannot fork: source session file is empty or invalid: ${from}`);
      const header = SessionManager.newHeader(cwd, options?.id, from);
      const { offsets, sizes } = source.index.table;
      file = await writeSessionCopy(dir, header, source.index.count, (i) =>
        source.file.readBytes(offsets[i], sizes[i]),
      );
    } finally {
      await source.close();
    }
    return SessionManager.open(file, { sessionDir: dir, lock: options?.lock });
  }

  /**
   * The sessions of `cwd` in `sessionDir` (default pi's folder for `cwd`), newest first by `modified`, which is
   * pi's: the time of the newest user or assistant message, else the header's timestamp, else the file's. A
   * folder of the caller's may be shared by several projects: there, only sessions whose header names `cwd` are
   * listed, as pi does (listAll() lists them all). Files that are no session are left out; `opts.skipped` gets
   * each with its reason.
   */
  static async list(cwd: string, sessionDir?: string, opts?: ListSessionsOptions): Promise<SessionInfo[]> {
    return listSessions(sessionDir ?? defaultSessionDir(cwd), cwdFilterOf(cwd, sessionDir), opts);
  }

  /**
   * Every session: of one folder (`sessionDir`, whatever their cwd), or of every project folder under pi's
   * sessions folder (`<agent dir>/sessions/*`). Newest first by `modified`, as list().
   */
  static async listAll(sessionDir?: string, opts?: ListSessionsOptions): Promise<SessionInfo[]> {
    if (sessionDir !== undefined) return listSessions(sessionDir, undefined, opts);
    const root = path.join(getAgentDir(), "sessions");
    let dirs: fs.Dirent[];
    try {
      dirs = await fs.promises.readdir(root, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw e;
    }
    const all: SessionInfo[] = [];
    for (const d of dirs)
      if (d.isDirectory() || d.isSymbolicLink())
        all.push(...(await listSessions(path.join(root, d.name), undefined, opts)));
    return all.sort((a, b) => b.modified.getTime() - a.modified.getTime());
  }

  /**
   * The session file of `cwd` in `sessionDir` (default pi's folder for `cwd`) written last (file time, as pi's
   * `-c`); in a folder of the caller's, only sessions whose header names `cwd` count (see list()).
   */
  static async findMostRecent(cwd: string, sessionDir?: string): Promise<string | undefined> {
    return mostRecentSessionFile(sessionDir ?? defaultSessionDir(cwd), cwdFilterOf(cwd, sessionDir));
  }

  /** Open the session of `cwd` written last (findMostRecent), or create one when there is none. */
  static async continueRecent(cwd: string, sessionDir?: string): Promise<SessionManager> {
    const dir = sessionDir ?? defaultSessionDir(cwd);
    const latest = await mostRecentSessionFile(dir, cwdFilterOf(cwd, sessionDir));
    return latest ? SessionManager.open(latest, { sessionDir: dir }) : SessionManager.create(cwd, dir);
  }

  private static newHeader(cwd: string, id?: string, parentSession?: string): SessionHeader {
    if (id !== undefined) assertSessionId(id);
    return {
      type: "session",
      version: CURRENT_SESSION_VERSION,
      id: id ?? newSessionId(),
      timestamp: new Date().toISOString(),
      cwd,
      ...(parentSession !== undefined ? { parentSession } : {}),
    };
  }

  // ---------------------------------------------------------------- reads

  /** Path of the session file (also before it is written); undefined in memory. */
  getSessionFile(): string | undefined {
    return this.file.path;
  }
  /** The session id (header id). */
  getSessionId(): string {
    return this.header.id;
  }
  /** Working directory recorded in the header. */
  getCwd(): string {
    return this.header.cwd;
  }
  /** A copy of the header. */
  getHeader(): SessionHeader {
    return { ...this.header };
  }
  /** True for a view opened with readOnly, and once the writer lock was lost (see onLockLost). */
  isReadOnly(): boolean {
    return this.file.readOnly;
  }
  /**
   * True once this session lost its writer lock — another process took it over, or the file or its folder was
   * deleted (getLockLossReason()) — : the session is read-only since.
   */
  hasLostLock(): boolean {
    return this.file.lockLost;
  }
  /** Why the writer lock was lost: `taken-over` or `file-gone`; undefined while it is held. */
  getLockLossReason(): LockLossReason | undefined {
    return this.file.lockLossReason;
  }
  /**
   * Called once when this session loses its writer lock (found by the heartbeat or by a write, which then throws
   * SessionLockLostError): the session has turned read-only. `reason`: `taken-over` (`newHolder` is the new
   * lock's holder when it could be read) or `file-gone` (the file or its folder was deleted: saveAgain()).
   */
  onLockLost(listener: (newHolder: LockHolderInfo | undefined, reason: LockLossReason) => void): () => void {
    return this.file.onLockLost(listener);
  }

  /**
   * Called when refreshFromDisk() — the watch (watchDisk), or this session's next write — found entries another
   * program (pi takes no lock) appended to the file, lines of theirs it could not read, or the file replaced (said
   * once). The entries are in this session already; `followed` says whether the leaf moved onto them.
   */
  onAppendedByOther(listener: (refresh: DiskRefresh) => void): () => void {
    this.diskListeners.add(listener);
    return () => this.diskListeners.delete(listener);
  }

  /**
   * Take in what another program appended to the file since this session last read or wrote it, as `tail -f`
   * would: only whole lines past that offset (a line still without its newline waits for the next call), through
   * the same scan as open() (a corrupt line is a load issue; the rest is read), added to the tree as open() adds
   * them (a duplicate id is left out, an unknown parent makes an orphan). The leaf follows their entries when they
   * continue from it, unless `keepLeaf` (an agent run writes from it); it stays when they are on another branch.
   * A file replaced, cut short or rewritten in place is not read (`replaced`). Subscribers get an `append` change
   * (`byOther`) per entry and a `leaf` change when it moved; onAppendedByOther listeners the result. Cheap when
   * nothing changed (a stat): every write calls it first, so the file's order stays the session's.
   */
  refreshFromDisk(options: { keepLeaf?: boolean } = {}): DiskRefresh {
    const none: DiskRefresh = { added: [], issues: [], replaced: false, followed: false, otherBranch: false };
    if (this.replacedReason !== undefined) return { ...none, replaced: true, reason: this.replacedReason };
    if (this.closed) return none;
    const found = this.file.readAppended();
    if (found.kind === "none") return none;
    if (found.kind === "replaced") {
      this.replacedReason = found.reason;
      return this.tellDisk({ ...none, replaced: true, reason: found.reason });
    }
    // A torn last line the open counted and reported is read again, whole now.
    const first = found.torn ? this.lineCount - 1 : this.lineCount;
    const scan = this.scanAppended(found.start, found.end, first);
    this.file.markRead(found.end);
    this.lineCount = scan.lineCount;
    if (found.torn) this.issues = this.issues.filter((i) => !(i.torn === true && i.line === first + 1));
    const issues = [...scan.issues];
    const start = this.index.count;
    this.takeIn(scan, 0, scan.entries.length, issues);
    const added = this.announceOthers(start);
    return this.afterOthers(added, issues, options.keepLeaf === true);
  }

  /**
   * Follow the file on disk (file-watch.ts: change events, and a poll of its stat every `intervalMs` where those
   * fail): each change runs refreshFromDisk(), whose finds go to onAppendedByOther listeners. Returns the function
   * that stops it; close() stops it too. A session not on disk has nothing to follow. One watch at a time: a
   * second call replaces the first.
   */
  watchDisk(options: DiskWatchOptions = {}): () => void {
    this.watching?.stop();
    this.watching = undefined;
    const file = this.file.path;
    if (file === undefined || this.closed) return () => undefined;
    const stop = watchFile(
      file,
      () => {
        try {
          this.refreshFromDisk({ keepLeaf: options.keepLeaf?.() === true });
        } catch (e) {
          options.onError?.(e);
        }
      },
      options.intervalMs,
    );
    const watching = { options, stop };
    this.watching = watching;
    return () => {
      stop();
      if (this.watching === watching) this.watching = undefined;
    };
  }

  /**
   * After the file or its folder was deleted while open (`file-gone`): write the session back to its path, whole
   * and unchanged, under a new writer lock, and make it writable again. Nothing at the path is overwritten
   * (SessionChangedError when a file is there by now).
   */
  async saveAgain(): Promise<void> {
    await this.file.saveAgain();
  }
  /** Lines skipped while loading (corrupt, torn, duplicate), and bodies found damaged since, with 1-based line numbers. */
  getLoadIssues(): LoadIssue[] {
    return this.issues.map((i) => ({ ...i }));
  }
  /** The current leaf (null = before the first entry). */
  getLeafId(): string | null {
    return this.leafId;
  }
  /** The current leaf entry. */
  getLeafEntry(): SessionEntry | undefined {
    return this.leafId === null ? undefined : this.getEntry(this.leafId);
  }
  /** The whole entry (its body read from the session's bytes), or undefined. */
  getEntry(id: string): SessionEntry | undefined {
    const i = this.index.positionOf(id);
    return i === undefined ? undefined : this.load(i);
  }
  /** All entries in file order (reads every body: prefer getEnvelopes() for big sessions). */
  getEntries(): SessionEntry[] {
    const out: SessionEntry[] = [];
    for (let i = 0; i < this.index.count; i++) out.push(this.load(i));
    return out;
  }
  /** Number of entries. */
  getEntryCount(): number {
    return this.index.count;
  }
  /** Envelopes of all entries in file order (read when the session was opened; no body is read). */
  getEnvelopes(): readonly EntryEnvelope[] {
    return this.index.table.envs.slice(0, this.index.count);
  }
  /** True when an entry has this id. */
  hasEntry(id: string): boolean {
    return this.index.has(id);
  }
  /** The envelope of one entry. */
  getEnvelope(id: string): EntryEnvelope | undefined {
    const i = this.index.positionOf(id);
    return i === undefined ? undefined : this.index.env(i);
  }
  /** Parent, type and role of an entry: for walking long paths cheaply. */
  getEntryHead(id: string): Pick<EntryEnvelope, "parentId" | "type" | "role"> | undefined {
    const env = this.getEnvelope(id);
    return env && { parentId: env.parentId, type: env.type, role: env.role };
  }
  /** Children of `id`, oldest first. */
  getChildren(id: string): SessionEntry[] {
    return this.childPositions(id).map((i) => this.load(i));
  }
  /** Ids of the children of `id`, oldest first (no body is read). */
  getChildIds(id: string): string[] {
    return this.childPositions(id).map((i) => this.index.env(i).id);
  }
  /** Resolved label of an entry. */
  getLabel(id: string): string | undefined {
    return this.index.labels.get(id);
  }
  /** Latest session_info name. */
  getSessionName(): string | undefined {
    return this.index.sessionName;
  }
  /**
   * True when the name came with a fork: the header names a parent session and the name's session_info entry is
   * no newer than the header. A fork copies the path's entries with their times, the name among them (pi's
   * createBranchedSession and forkFrom do); a name set in the fork afterwards is newer than its header.
   */
  isSessionNameInherited(): boolean {
    const at = this.index.sessionNameAt;
    if (this.index.sessionName === undefined || at < 0 || this.header.parentSession === undefined) return false;
    const named = Date.parse(this.index.env(at).timestamp);
    const forked = Date.parse(this.header.timestamp);
    return Number.isFinite(named) && Number.isFinite(forked) && named <= forked;
  }

  /** Entries from the root to `fromId` (default: the leaf), root first. */
  getPath(fromId?: string | null): SessionEntry[] {
    return this.pathPositions(fromId === undefined ? this.leafId : fromId).map((i) => this.load(i));
  }

  /**
   * The whole tree. Roots (parentId null, and orphans flagged `orphan: true`) and children oldest first.
   * `envelope` is there for every node; `entry` is read from the session's bytes on each access.
   */
  getTree(): SessionTreeNode[] {
    const { index } = this;
    const load = (i: number): SessionEntry => this.load(i);
    const n = index.count;
    const nodes = new Array<LazyTreeNode>(n);
    for (let i = 0; i < n; i++) nodes[i] = new LazyTreeNode(index.env(i), i, load, undefined);
    // Labels are few: each labelled node is found by its id, rather than every node's id looked up among the
    // labels (which hashed 33k id strings in the 300 MB session; the id map no longer hashes them for V8).
    for (const [id, text] of index.labels) {
      const at = index.positionOf(id);
      if (at === undefined) continue;
      nodes[at].label = text;
      const timestamp = index.labelTimestamps.get(id);
      if (timestamp !== undefined) nodes[at].labelTimestamp = timestamp;
    }
    index.linkChildren(nodes);
    return index.rootPositions().map((i) => nodes[i]);
  }

  /** What the model sees from the leaf, and the model / thinking level in force there. */
  buildSessionContext(): SessionContext {
    return this.buildSessionContextAt(this.leafId);
  }

  /**
   * The model and thinking level in force at the leaf, as buildSessionContext() gives them, without reading a
   * body (both are kept in the index).
   */
  getLeafSettings(): Omit<SessionContext, "messages"> {
    const leaf = this.leafId === null ? undefined : this.index.positionOf(this.leafId);
    if (leaf === undefined) return settingsFrom(undefined, undefined);
    // Kept per entry by the index: after a move, only the part of the path that changed is walked.
    const level = this.index.newestOnPath(leaf, this.levelTest);
    const model = this.index.newestOnPath(leaf, this.modelTest);
    return settingsFrom(
      level < 0 ? undefined : this.index.meta(level).thinkingLevel,
      model < 0 ? undefined : { ...(this.index.meta(model).model as NonNullable<EntryMeta["model"]>) },
    );
  }

  /**
   * The newest entry on the path from the root to `fromId` (included; default: the leaf) that `test` accepts, or
   * undefined (path-search.ts). The answers are kept per entry and test, so a later call walks only what an
   * earlier one did not: `test` must answer the same for an entry every time (a module constant).
   */
  newestOnPath(test: PathTest<EntryEnvelope>, fromId?: string | null): EntryEnvelope | undefined {
    const id = fromId === undefined ? this.leafId : fromId;
    if (id === null) return undefined;
    const at = this.index.positionOf(id);
    if (at === undefined) throw new EntryNotFoundError(id);
    let byPosition = this.pathTests.get(test);
    if (!byPosition) {
      byPosition = (i) => test(this.index.env(i), () => this.loadQuietly(i));
      this.pathTests.set(test, byPosition);
    }
    const found = this.index.newestOnPath(at, byPosition);
    return found < 0 ? undefined : this.index.env(found);
  }

  /** The body at position `i`, or undefined when it cannot be read. */
  private loadQuietly(i: number): SessionEntry | undefined {
    try {
      return this.load(i);
    } catch {
      return undefined;
    }
  }

  /**
   * Envelopes from the root to `fromId` (default: the leaf), root first, as getPath() walks it, without
   * reading bodies.
   */
  getPathEnvelopes(fromId?: string | null): EntryEnvelope[] {
    return this.pathPositions(fromId === undefined ? this.leafId : fromId).map((i) => this.index.env(i));
  }

  /**
   * How the path to the leaf differs from the path to `fromId` (null: from no path): how many entries both start
   * with, and the envelopes after those up to the leaf. Undefined when no entry has `fromId`. Walks from the leaf up
   * to the fork only (EntryIndex.commonAncestor), so after a move or an append a reader of the path (the chat) gets
   * the few entries that changed, not the whole path as getPathEnvelopes() gives it.
   */
  getPathChange(fromId: string | null): PathChange | undefined {
    const { index } = this;
    const leaf = this.leafId === null ? -1 : (index.positionOf(this.leafId) ?? -1);
    let fork = -1;
    if (fromId !== null) {
      const from = index.positionOf(fromId);
      if (from === undefined) return undefined;
      if (leaf >= 0) fork = index.commonAncestor(from, leaf);
    }
    const tail: EntryEnvelope[] = [];
    // Bounded by the entry count, as the path walks are.
    for (let k = leaf; k >= 0 && k !== fork && tail.length <= index.count; k = index.parentOf(k))
      tail.push(index.env(k));
    tail.reverse();
    return { shared: fork < 0 ? 0 : index.depthOf(fork) + 1, tail, leafId: leaf < 0 ? null : this.leafId };
  }

  /**
   * The token use and cost an entry records — an assistant message, or pi 1.5's compaction, branch summary or
   * `usage` entry — kept in the index since open (no body is read); undefined for others.
   */
  getUsage(id: string): Usage | undefined {
    const i = this.index.positionOf(id);
    return i === undefined ? undefined : this.index.meta(i).usage;
  }

  /** The path as context building sees it (envelope and meta of each entry, and its position). */
  private pathItems(leafId: string | null): (PathItem & { position: number })[] {
    return this.pathPositions(leafId).map((i) => {
      const env = this.index.env(i);
      return { id: env.id, type: env.type, role: env.role, meta: this.index.meta(i), position: i };
    });
  }

  /**
   * Load a body for the context. A body that no longer parses (the file was damaged after it was opened) is
   * left out of the context and reported in getLoadIssues() instead of failing the whole session.
   */
  private loadForContext(i: number): SessionEntry | undefined {
    try {
      return this.load(i);
    } catch (e) {
      if (!(e instanceof SessionFormatError)) throw e;
      const line = this.index.table.lines[i];
      if (!this.issues.some((x) => x.line === line)) this.issues.push({ line, reason: e.message });
      return undefined;
    }
  }

  /** Deepest entry on both root paths, or null. */
  findCommonAncestor(a: string, b: string): string | null {
    // Walked up from both entries to their fork (EntryIndex.commonAncestor), not along two whole paths: a move
    // asks this first, and in a 30,000-entry session building the two paths cost milliseconds before the tree moved.
    const found = this.index.commonAncestor(this.positionOrThrow(a), this.positionOrThrow(b));
    return found < 0 ? null : this.index.env(found).id;
  }

  /** The position of an entry; EntryNotFoundError for an unknown id. */
  private positionOrThrow(id: string): number {
    const at = this.index.positionOf(id);
    if (at === undefined) throw new EntryNotFoundError(id);
    return at;
  }

  /**
   * The branch being left: from `oldLeafId` back to (not including) the common ancestor with `targetId`,
   * stopping before a compaction; chronological.
   */
  collectEntriesToSummarize(oldLeafId: string | null, targetId: string | null): SessionEntry[] {
    if (oldLeafId === null) return [];
    const ancestor = targetId === null ? null : this.findCommonAncestor(oldLeafId, targetId);
    const out: SessionEntry[] = [];
    const branchPositions = this.pathPositions(oldLeafId);
    for (let k = branchPositions.length - 1; k >= 0; k--) {
      const env = this.index.env(branchPositions[k]);
      if (env.id === ancestor || env.type === "compaction") break;
      out.push(this.load(branchPositions[k]));
    }
    return out.reverse();
  }

  // ---------------------------------------------------------------- appends

  /** Append a message; returns its id. */
  appendMessage(message: AgentMessage): string {
    return this.append({ type: "message", message });
  }
  /**
   * Append a compaction; returns its id. `firstKeptEntryId` undefined keeps nothing (the entry names itself, as
   * pi 1.5 writes it). When the context holds pi 1.5 system messages, the prompt they make is recorded
   * (`systemMessage`), as pi 1.5 does: the kept and summarized system messages leave the context.
   */
  appendCompaction<T = unknown>(
    summary: string,
    firstKeptEntryId: string | undefined,
    tokensBefore: number,
    details?: T,
    fromHook?: boolean,
    usage?: Usage,
  ): string {
    const id = newEntryId((c) => this.index.has(c));
    const timestamp = new Date().toISOString();
    const hasPrompt = this.pathPositions(this.leafId).some((i) => {
      const env = this.index.env(i);
      return env.role === "system" || env.type === "compaction";
    });
    const prompt = hasPrompt ? currentSystemMessage(this.buildSessionContext().messages) : undefined;
    return this.append(
      {
        type: "compaction",
        summary,
        firstKeptEntryId: firstKeptEntryId ?? id,
        tokensBefore,
        details,
        usage,
        fromHook,
        ...(prompt ? { systemMessage: { ...prompt, timestamp: Date.parse(timestamp) } } : {}),
      },
      this.leafId,
      { id, timestamp },
    );
  }
  /** Set (or with undefined, clear) the label of `targetId`. Hangs off the leaf without moving it. */
  appendLabelChange(targetId: string, label: string | undefined): string {
    if (!this.index.has(targetId)) throw new EntryNotFoundError(targetId);
    const clean = label === undefined || label.trim() === "" ? undefined : label;
    return this.append({ type: "label", targetId, label: clean });
  }
  /** Append extension state (never sent to the model). */
  appendCustomEntry<T = unknown>(customType: string, data?: T): string {
    if (customType === LEAF_MARKER_TYPE)
      throw new Error(`customType "${LEAF_MARKER_TYPE}" is reserved for leaf moves; use branch()`);
    if (customType === ARCHIVE_MARKER_TYPE)
      throw new Error(`customType "${ARCHIVE_MARKER_TYPE}" is reserved; use archiveBranch() / unarchiveBranch()`);
    return this.append({ type: "custom", customType, data });
  }
  /** Append an extension message that reaches the model as a user message. */
  appendCustomMessageEntry<T = unknown>(
    customType: string,
    content: string | (TextContent | ImageContent)[],
    display: boolean,
    details?: T,
  ): string {
    return this.append({ type: "custom_message", customType, content, display, details });
  }
  /** Record a model switch. */
  appendModelChange(provider: string, modelId: string): string {
    return this.append({ type: "model_change", provider, modelId });
  }
  /** Record a thinking level switch. */
  appendThinkingLevelChange(thinkingLevel: string): string {
    return this.append({ type: "thinking_level_change", thinkingLevel });
  }
  /** Set the session's display name. */
  appendSessionInfo(name: string): string {
    return this.append({ type: "session_info", name });
  }
  /**
   * Edit an earlier entry on the current path as the model will see it (pi 1.5's context_edit): `null` drops its
   * message, `{ content }` replaces its content (a string becomes one text block for assistant and tool results,
   * as pi stores it). Only user, assistant, tool result and custom messages can be edited; the entry itself is
   * never changed. Returns the edit's id.
   */
  appendContextEdit(
    targetId: string,
    replacement: null | { content: string | (TextContent | ImageContent)[] },
  ): string {
    const at = this.index.positionOf(targetId);
    if (at === undefined) throw new EntryNotFoundError(targetId);
    if (!this.pathPositions(this.leafId).includes(at)) throw new Error(`Entry ${targetId} is not on the current path`);
    const target = this.index.env(at);
    const role = target.type === "custom_message" ? "custom" : target.role;
    const editable =
      target.type === "custom_message" ||
      (target.type === "message" && (role === "user" || role === "assistant" || role === "toolResult"));
    if (!editable) throw new Error(`Entry ${targetId} has no message content that can be edited`);
    const content =
      replacement !== null && typeof replacement.content === "string" && (role === "assistant" || role === "toolResult")
        ? [{ type: "text", text: replacement.content }]
        : replacement?.content;
    return this.append({ type: "context_edit", targetId, replacement: content === undefined ? null : { content } });
  }
  /** Record the tokens and cost of a model call that added no message (pi 1.5's `usage` entry). */
  appendUsage(kind: string, provider: string, model: string, usage: Usage, note?: string): string {
    return this.append({ type: "usage", kind, provider, model, usage, ...(note ? { note } : {}) });
  }

  // ---------------------------------------------------------------- appends on other branches

  /**
   * Append a message under `parentId` (null: a new root) without moving the leaf: a branch that runs beside the
   * user's (docs/parallel.md). A leaf marker naming the current leaf is written with it, in the same `write`, so
   * a reload — ours or pi's — resumes where the user is. Returns the message's id.
   */
  appendMessageAt(parentId: string | null, message: AgentMessage): string {
    return this.appendOffLeaf({ type: "message", message }, parentId);
  }

  /** Append extension state under `parentId` without moving the leaf (as appendMessageAt). */
  appendCustomEntryAt<T = unknown>(parentId: string | null, customType: string, data?: T): string {
    if (customType === LEAF_MARKER_TYPE || customType === ARCHIVE_MARKER_TYPE)
      throw new Error(`customType "${customType}" is reserved`);
    return this.appendOffLeaf({ type: "custom", customType, data }, parentId);
  }

  /** Append an extension message under `parentId` without moving the leaf (a hook's message in a branch's run). */
  appendCustomMessageEntryAt<T = unknown>(
    parentId: string | null,
    customType: string,
    content: string | (TextContent | ImageContent)[],
    display: boolean,
    details?: T,
  ): string {
    return this.appendOffLeaf({ type: "custom_message", customType, content, display, details }, parentId);
  }

  /** What the model sees from `leafId` (null: nothing), as buildSessionContext() gives it at the leaf. */
  buildSessionContextAt(leafId: string | null): SessionContext {
    const items = this.pathItems(leafId);
    const bodies = this.openBodies;
    // The bodies kept from the open serve one context (its caller may change what it gets): let go of them now.
    if (bodies) this.dropOpenBodies();
    return buildContext(items, (item) => {
      const position = (item as (typeof items)[number]).position;
      return bodies?.get(position) ?? this.loadForContext(position);
    });
  }

  // ---------------------------------------------------------------- moves

  /** Move the leaf to `id` (persisted). Labels and leaf markers resolve to the entry they hang off. */
  branch(id: string): void {
    const i = this.index.positionOf(id);
    if (i === undefined) throw new EntryNotFoundError(id);
    this.moveLeaf(this.resolveLeaf(i));
  }

  /** Move the leaf before the first entry (the next append starts a new root). Persisted. */
  resetLeaf(): void {
    this.moveLeaf(null);
  }

  /**
   * Move the leaf to `id` (null = root) and record a summary of the branch left there; the summary becomes
   * the leaf. `usage`: the summarizer's tokens and cost (pi 1.6's fifth argument). Returns the summary's id.
   */
  branchWithSummary<T = unknown>(
    id: string | null,
    summary: string,
    details?: T,
    fromHook?: boolean,
    usage?: Usage,
  ): string {
    let target: string | null = null;
    if (id !== null) {
      const i = this.index.positionOf(id);
      if (i === undefined) throw new EntryNotFoundError(id);
      target = this.resolveLeaf(i);
    }
    const fromId = this.leafId ?? "root";
    const newId = this.append({ type: "branch_summary", fromId, summary, details, usage, fromHook }, target);
    this.emit({ type: "leaf", leafId: newId });
    return newId;
  }

  /**
   * Append a branch summary at the leaf without moving anywhere first: the summary of another branch, brought
   * here (AgentSession.bringConclusions). `fromId` names the node it summarizes up to; the summary becomes the
   * leaf. Returns its id.
   */
  appendBranchSummary<T = unknown>(
    fromId: string,
    summary: string,
    details?: T,
    fromHook?: boolean,
    usage?: Usage,
  ): string {
    if (!this.index.has(fromId)) throw new EntryNotFoundError(fromId);
    return this.append({ type: "branch_summary", fromId, summary, details, usage, fromHook });
  }

  /**
   * The root→`leafId` path as a session of its own (null: no entries): the same ids, labels and leaf markers left
   * out and the labels of the path's entries re-created. In a file session, writes a new file (in this session's
   * folder, `parentSession` = this file) and returns its path; this session is unchanged. In memory, as pi does,
   * this session becomes the branch (a new session id) and undefined is returned.
   */
  async createBranchedSession(leafId: string | null): Promise<string | undefined> {
    const plan = branchPath(this.pathEntries(leafId));
    const labelOf = (id: string): { text: string; timestamp?: string } | undefined => {
      const text = this.index.labels.get(id);
      return text === undefined ? undefined : { text, timestamp: this.index.labelTimestamps.get(id) };
    };
    const load = (rec: PathEntry): SessionEntry => this.load(rec.position);
    const sessionFile = this.file.path;
    if (sessionFile === undefined) {
      this.file.assertWritable();
      const entries = branchEntries(plan, load, labelOf);
      this.header = SessionManager.newHeader(this.header.cwd);
      const lines = [JSON.stringify(this.header), ...entries.map((e) => JSON.stringify(e))];
      const bytes = lines.join("\n");
      this.file = SessionFile.memory(bytes);
      this.dropOpenBodies();
      this.index = this.buildIndex(scanSessionBytes(Buffer.from(bytes + "\n"), { strict: true }).entries);
      const leaf = this.persistedLeaf();
      if (leaf !== this.leafId) {
        this.leafId = leaf;
        this.emit({ type: "leaf", leafId: leaf });
      }
      return undefined;
    }
    const header: SessionHeader = { ...SessionManager.newHeader(this.header.cwd), parentSession: sessionFile };
    return writeBranchFile(this.sessionDir ?? path.dirname(sessionFile), header, plan, {
      readBytes: (rec) =>
        this.file.readBytes(this.index.table.offsets[rec.position], this.index.table.sizes[rec.position]),
      load,
      labelOf,
    });
  }

  /**
   * pi 1.6's newSession(): this manager goes on with a new, empty session of the same cwd (`options.id`, and
   * `options.parentSession` for its header), in the same folder; its file is written with its first user or
   * assistant message, as create()'s. The session left is flushed and its writer lock released (in the
   * background; close() waits for it). Returns the new file's path (undefined in memory). Listeners get a `rewrite`
   * change.
   */
  newSession(options?: Omit<NewSessionOptions, "lock" | "io">): string | undefined {
    if (this.closed) throw new Error(`Session ${this.file.path ?? "(in memory)"} is closed`);
    const header = SessionManager.newHeader(this.header.cwd, options?.id, options?.parentSession);
    const old = this.file;
    const dir = this.sessionDir ?? (old.path === undefined ? undefined : path.dirname(old.path));
    this.header = header;
    this.file =
      dir === undefined
        ? SessionFile.memory(JSON.stringify(header))
        : SessionFile.created(
            path.join(dir, sessionFileName(header.timestamp, header.id)),
            JSON.stringify(header),
            old.lockOptions,
            undefined,
            old.io,
          );
    this.issues = [];
    this.lineCount = 0;
    this.unwritten = [];
    this.dropOpenBodies();
    this.index = this.buildIndex(new EntryTable());
    this.leafId = null;
    // What the old file had appended is flushed, and its lock released, when its close ends; close() waits for it,
    // so once this manager is closed the old file opens for writing again.
    const leaving = old.close().catch(() => undefined);
    this.leaving.add(leaving);
    void leaving.finally(() => this.leaving.delete(leaving));
    this.replacedReason = undefined;
    // The watch follows the session this manager goes on with.
    if (this.watching) this.watchDisk(this.watching.options);
    this.emit({ type: "rewrite" });
    return this.file.path;
  }

  // ---------------------------------------------------------------- archive and delete

  /** First entries of the archived branches of this session, in the order they were archived. */
  getArchivedBranches(): string[] {
    return [...this.index.archivedRoots].filter((id) => this.index.has(id));
  }

  /** True when the entry is in an archived branch (it, or an entry above it, was archived). */
  isArchived(id: string): boolean {
    const roots = this.index.archivedRoots;
    if (roots.size === 0) return false;
    return this.pathPositions(id).some((i) => roots.has(this.index.env(i).id));
  }

  /** Ids of every entry in an archived branch: what the tree, the chat and the export leave out by default. */
  getArchivedIds(): Set<string> {
    return this.subtreeIds(this.getArchivedBranches());
  }

  /** Ids of `id` and every entry below it (empty for an unknown id): what a branch starting there holds. */
  getSubtreeIds(id: string): Set<string> {
    return this.subtreeIds([id]);
  }

  /** Ids in the subtrees below the entries `ids` (tree-shape.ts decides membership). */
  private subtreeIds(ids: readonly string[]): Set<string> {
    const { index } = this;
    const starts: number[] = [];
    for (const id of ids) {
      const at = index.positionOf(id);
      if (at !== undefined) starts.push(at);
    }
    const out = new Set<string>();
    if (starts.length === 0) return out;
    const mask = subtreeMask(index.count, starts, (i, visit) => index.kidsAt(i).forEach(visit));
    for (let i = 0; i < mask.length; i++) if (mask[i] === 1) out.add(index.env(i).id);
    return out;
  }

  /**
   * Archive the branch starting at `id` (it and everything below it): one `custom` line that pi keeps and leaves
   * out of the context, hung off the leaf without moving it. Returns the line's id, or undefined when the branch is
   * archived already (nothing is written). ActiveBranchError when the leaf is in the branch: move out of it first.
   */
  archiveBranch(id: string): string | undefined {
    const at = this.index.positionOf(id);
    if (at === undefined) throw new EntryNotFoundError(id);
    if (this.isArchived(id)) return undefined;
    this.assertLeafOutside(at);
    return this.appendArchiveLine({ targetId: id, archived: true });
  }

  /**
   * Bring the branch holding `id` back: every archived branch `id` is in (the one starting at it and those above
   * it) gets an unarchive line. Returns the lines' ids (none when `id` was not archived).
   */
  unarchiveBranch(id: string): string[] {
    const roots = this.index.archivedRoots;
    const archived = this.pathPositions(id)
      .map((i) => this.index.env(i).id)
      .filter((entryId) => roots.has(entryId));
    return archived.map((targetId) => this.appendArchiveLine({ targetId, archived: false }));
  }

  /**
   * What deleting the branch starting at `id` would remove (for a confirmation), without changing anything:
   * `removed` entries in all, `branch` of them in the branch itself.
   */
  planBranchDeletion(id: string): { removed: number; branch: number } {
    const at = this.index.positionOf(id);
    if (at === undefined) throw new EntryNotFoundError(id);
    const plan = planBranchRemoval(this.removalSource(), at);
    return { removed: plan.removedCount, branch: plan.branchCount };
  }

  /**
   * Delete the branch starting at `id` for good (docs/archive.md): the file is rewritten without it atomically
   * (temp file + rename; the file as it was is kept as `<file>.before-delete.bak` until the next writable open),
   * labels, archive lines and branch summaries pointing into it are dropped, and entries left without a parent
   * are re-attached to their nearest ancestor that stays. ActiveBranchError when the leaf is in the branch; a
   * failure leaves the file and this session as they were. Listeners get a `rewrite` change.
   */
  async deleteBranch(id: string): Promise<BranchDeletion> {
    const at = this.index.positionOf(id);
    if (at === undefined) throw new EntryNotFoundError(id);
    this.file.assertWritable();
    // Lines another program appended are read first: the rewrite keeps them (and refuses a replaced file).
    this.refreshFromDisk({ keepLeaf: true });
    this.assertLeafOutside(at);
    const plan = planBranchRemoval(this.removalSource(), at);
    // The leaf itself may go (a summary brought here from the branch): its nearest ancestor that stays.
    let leaf = this.leafId === null ? -1 : (this.index.positionOf(this.leafId) ?? -1);
    while (leaf >= 0 && plan.removed[leaf] === 1) leaf = this.parentAt(leaf);
    const leafAfter = leaf >= 0 ? this.index.env(leaf).id : null;
    const { table } = this.index;
    const file = this.file;
    const { backup } = await file.rewrite((end, write) => {
      const copy = (from: number, to: number): void => {
        for (let o = from; o < to; o += COPY_CHUNK_BYTES) write(file.readBytes(o, Math.min(COPY_CHUNK_BYTES, to - o)));
      };
      let cursor = 0;
      for (let i = 0; i < this.index.count; i++) {
        const mended = plan.parents.has(i) || plan.firstKept.has(i);
        if (plan.removed[i] === 0 && !mended) continue;
        const offset = table.offsets[i];
        copy(cursor, offset);
        const startsLine = offset === 0 || file.readBytes(offset - 1, 1)[0] === NEWLINE;
        if (plan.removed[i] === 1) {
          cursor = offset + table.sizes[i];
          // An entry alone on its line takes its newline with it; one of several on a line leaves the rest.
          if (startsLine && cursor < end && file.readBytes(cursor, 1)[0] === NEWLINE) cursor++;
          continue;
        }
        const entry = { ...this.load(i) } as SessionEntry & Record<string, unknown>;
        if (plan.parents.has(i)) entry.parentId = plan.parents.get(i) ?? null;
        const kept = plan.firstKept.get(i);
        if (kept !== undefined) entry.firstKeptEntryId = kept;
        write(Buffer.from(JSON.stringify(entry)));
        cursor = offset + table.sizes[i];
      }
      copy(cursor, end);
    });
    this.reload();
    if (this.leafId !== leafAfter) this.moveLeaf(leafAfter);
    this.emit({ type: "rewrite" });
    return {
      removed: plan.removedCount,
      branch: plan.branchCount,
      reattached: plan.parents.size,
      ...(backup !== undefined ? { backup } : {}),
    };
  }

  // ---------------------------------------------------------------- changes and lifetime

  /**
   * Listen to appends, leaf moves and rewrites. An "append" of anything but a label, leaf marker or archive line
   * also moves the leaf onto it; a "rewrite" (deleteBranch) means every entry must be read again.
   */
  subscribe(listener: (change: SessionChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Wait until every line appended so far is on the disk (the background fdatasync, see session-format.md);
   * a session whose file is not written yet (no user or assistant message) has nothing to flush.
   */
  async flush(): Promise<void> {
    await this.file.flush();
  }

  /** Flush, release the writer lock and close files. Reopening afterwards is writable. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watching?.stop();
    this.watching = undefined;
    this.dropOpenBodies();
    await Promise.all([this.file.close(), ...this.leaving]);
    this.listeners.clear();
    this.diskListeners.clear();
  }

  // ---------------------------------------------------------------- internals

  /** Another program's lines of [start, end) of the file, numbered after line `line` (see refreshFromDisk). */
  private scanAppended(start: number, end: number, line: number): ScanResult {
    return scanSessionFile(this.file.path as string, { strict: true, range: { start, end, line } });
  }

  /**
   * Add the entries k in [from, to) of another program's scanned lines to the tree as open() adds them (a
   * duplicate id is left out and reported in `issues`, an unknown parent makes an orphan); `skip` leaves out
   * entries by their offset (our own, read with theirs).
   */
  private takeIn(
    scan: ScanResult,
    from: number,
    to: number,
    issues: LoadIssue[],
    skip?: (offset: number) => boolean,
  ): void {
    const { entries } = scan;
    for (let k = from; k < to; k++) {
      if (skip?.(entries.offsets[k])) continue;
      const env = entries.envs[k];
      if (this.index.has(env.id)) {
        issues.push({
          line: entries.lines[k],
          reason: `duplicate entry id ${env.id}; the first entry with this id is used`,
        });
        continue;
      }
      // As open() shows it: an entry whose parent no line has is a root, flagged.
      if (env.parentId !== null && !this.index.has(env.parentId)) env.orphan = true;
      this.index.add(env, entries.metas[k], entries.offsets[k], entries.sizes[k], entries.lines[k]);
    }
  }

  /** Tell subscribers of another program's entries at positions `start` and on (`append`, `byOther`). */
  private announceOthers(start: number, added: EntryEnvelope[] = []): EntryEnvelope[] {
    for (let i = start; i < this.index.count; i++) {
      const env = this.index.env(i);
      added.push(env);
      const entry = this.loadQuietly(i) ?? ({ ...env } as unknown as SessionEntry);
      this.emit({ type: "append", entry, byOther: true });
    }
    return added;
  }

  /** The issues and entries another program's lines brought: kept, the leaf policy applied, listeners told. */
  private afterOthers(added: EntryEnvelope[], issues: LoadIssue[], keepLeaf: boolean): DiskRefresh {
    if (issues.length > 0) this.issues = [...this.issues, ...issues].sort((a, b) => a.line - b.line);
    const result: DiskRefresh = { added, issues, replaced: false, followed: false, otherBranch: false };
    if (added.length > 0) this.followOther(result, keepLeaf);
    return this.tellDisk(result);
  }

  /**
   * The leaf policy of refreshFromDisk (docs/tree-navigation.md): their entries end on the file's last leaf; it
   * continues from ours → the leaf follows (unless kept); it is elsewhere → the leaf stays, on another branch
   * (a read-only view follows it there); it is above ours (a label of theirs on our path) → nothing to say.
   */
  private followOther(result: DiskRefresh, keepLeaf: boolean): void {
    const other = this.persistedLeaf();
    result.otherLeafId = other;
    if (other === this.leafId || other === null) return;
    const theirs = this.index.positionOf(other) ?? -1;
    const ours = this.leafId === null ? -1 : (this.index.positionOf(this.leafId) ?? -1);
    const fork = ours < 0 ? -1 : this.index.commonAncestor(ours, theirs);
    if (ours >= 0 && fork === theirs) return;
    // A read-only view has no leaf of its own to keep (it cannot move it): it shows where the file's writer is.
    if ((fork !== ours && !this.file.readOnly) || keepLeaf) {
      result.otherBranch = true;
      return;
    }
    this.leafId = other;
    result.followed = true;
    this.emit({ type: "leaf", leafId: other });
  }

  /** Tell onAppendedByOther listeners what a refresh found (when it found anything). */
  private tellDisk(result: DiskRefresh): DiskRefresh {
    if (result.added.length === 0 && result.issues.length === 0 && !result.replaced) return result;
    for (const l of [...this.diskListeners]) {
      try {
        l(result);
      } catch {
        // a failing listener must not break the session
      }
    }
    return result;
  }

  private appendArchiveLine(data: ArchiveMarkerData): string {
    return this.append({ type: "custom", customType: ARCHIVE_MARKER_TYPE, data });
  }

  /** ActiveBranchError when the leaf is the entry at `at` or below it. */
  private assertLeafOutside(at: number): void {
    if (this.leafId !== null && this.pathPositions(this.leafId).includes(at))
      throw new ActiveBranchError(this.index.env(at).id, this.leafId);
  }

  private parentAt(i: number): number {
    const p = this.index.env(i).parentId;
    if (p === null || this.index.env(i).orphan === true) return -1;
    return this.index.positionOf(p) ?? -1;
  }

  private removalSource(): RemovalSource {
    const { index } = this;
    return {
      count: index.count,
      env: (i) => index.env(i),
      meta: (i) => index.meta(i),
      positionOf: (id) => index.positionOf(id),
      parentAt: (i) => this.parentAt(i),
      kidsAt: (i) => index.kidsAt(i),
      pathTo: (id) => index.pathTo(id),
    };
  }

  /** Read the session's bytes again after a rewrite: index, load issues, line count and leaf. */
  private reload(): void {
    this.dropOpenBodies();
    const bytes = this.file.path === undefined || this.file.pending ? this.file.readAll() : undefined;
    let scan = bytes ? scanSessionBytes(bytes) : scanSessionFile(this.file.path as string);
    this.issues = [...scan.issues];
    let index = this.buildIndex(scan.entries);
    if (index.hasOrphans()) {
      // As open() does: an entry glued onto a line read only partly leaves orphans behind.
      scan = bytes
        ? scanSessionBytes(bytes, { strict: true })
        : scanSessionFile(this.file.path as string, { strict: true });
      this.issues = [...scan.issues];
      index = this.buildIndex(scan.entries);
    }
    this.index = index;
    if (bytes) {
      // Nothing of it is on disk yet: every entry is written with the first append that is not deferred.
      this.lineCount = 0;
      this.unwritten = this.file.path === undefined ? [] : Array.from({ length: index.count }, (_, i) => i);
    } else this.lineCount = scan.lineCount;
    this.leafId = this.persistedLeaf();
  }

  private emit(change: SessionChange): void {
    for (const l of [...this.listeners]) {
      try {
        l(change);
      } catch {
        // a failing listener must not break the session
      }
    }
  }

  /** Positions from the root to `fromId`, root first (none for null); EntryNotFoundError for an unknown id. */
  private pathPositions(fromId: string | null): number[] {
    if (fromId === null) return [];
    if (!this.index.has(fromId)) throw new EntryNotFoundError(fromId);
    return this.index.pathTo(fromId);
  }

  private pathEntries(fromId: string | null): PathEntry[] {
    return this.pathPositions(fromId).map((i) => ({ env: this.index.env(i), meta: this.index.meta(i), position: i }));
  }

  private childPositions(id: string): readonly number[] {
    const i = this.index.positionOf(id);
    return i === undefined ? [] : this.index.kidsAt(i);
  }

  /** The leaf a reload would pick: the last entry, walking up from labels, archive lines and leaf markers. */
  private persistedLeaf(): string | null {
    const n = this.index.count;
    return n === 0 ? null : this.resolveLeaf(n - 1);
  }

  /**
   * The content entry the entry at `start` stands for: labels and archive lines resolve to their parent, leaf
   * markers to their target.
   */
  private resolveLeaf(start: number): string | null {
    const { index } = this;
    let i: number | undefined = start;
    for (let guard = 0; i !== undefined && guard <= index.count; guard++) {
      const env = index.env(i);
      const marker = index.meta(i).markerTarget;
      if (env.type === "label" || index.meta(i).archive !== undefined) {
        if (env.parentId === null) return null;
        i = index.positionOf(env.parentId);
      } else if (marker !== undefined) {
        if (marker === null) return null;
        i = index.positionOf(marker) ?? (env.parentId === null ? undefined : index.positionOf(env.parentId));
      } else return env.id;
    }
    return null;
  }

  private moveLeaf(target: string | null): void {
    this.file.assertWritable();
    if (this.persistedLeaf() !== target) {
      this.append({ type: "custom", customType: LEAF_MARKER_TYPE, data: { targetId: target } }, target);
    }
    if (this.leafId !== target) {
      this.leafId = target;
      this.emit({ type: "leaf", leafId: target });
    }
  }

  /**
   * Write one entry as one line; the leaf moves onto it unless it is a label, a leaf marker or an archive line. `preset`: an id and
   * timestamp chosen by the caller (a compaction that names itself).
   */
  private append(
    fields: NewEntry,
    parentId: string | null = this.leafId,
    preset?: { id: string; timestamp: string },
  ): string {
    const [id] = this.writeEntries([{ fields, parentId, preset }]);
    return id;
  }

  /**
   * Write `fields` under `parentId` followed by a leaf marker naming the current leaf, both in one `write`: the
   * entry joins another branch while the user's leaf — here and in every opener that takes the file's last line
   * as its leaf, pi too — stays where it is, even when the process is killed right after.
   */
  private appendOffLeaf(fields: NewEntry, parentId: string | null): string {
    if (parentId !== null && !this.index.has(parentId)) throw new EntryNotFoundError(parentId);
    const leaf = this.leafId;
    const marker: NewEntry = { type: "custom", customType: LEAF_MARKER_TYPE, data: { targetId: leaf } };
    const [id] = this.writeEntries([
      { fields, parentId, keepLeaf: true },
      { fields: marker, parentId: leaf },
    ]);
    return id;
  }

  /** Write entries as consecutive lines with one `write` (see append); returns their ids. */
  private writeEntries(items: PendingEntry[]): string[] {
    this.file.assertWritable();
    // Another program's lines first, so that the file's order stays the session's (the leaf stays: ours go on it).
    const disk = this.refreshFromDisk({ keepLeaf: true });
    if (disk.replaced)
      throw new SessionChangedError(this.file.path as string, `was deleted or replaced while open: ${disk.reason}`);
    const taken = new Set<string>();
    const written = items.map(({ fields, parentId, preset, keepLeaf }) => {
      const id = preset?.id ?? newEntryId((c) => this.index.has(c) || taken.has(c));
      taken.add(id);
      const { type, ...rest } = fields;
      const timestamp = preset?.timestamp ?? new Date().toISOString();
      const text = JSON.stringify({ type, id, parentId, timestamp, ...rest });
      // Keep what a reload would read (no undefined fields, no aliasing of the caller's objects).
      const entry = JSON.parse(text) as SessionEntry;
      const line = Buffer.from(text);
      // The envelope is read from the line as a reload reads it.
      const facts = readEntryLine(line, 0, line.length, true);
      if (isLineFailure(facts)) throw new Error(`Entry ${id} cannot be written: ${facts.reason}`);
      return { id, type, entry, line, facts, keepLeaf };
    });
    const defer = this.file.pending && !startsConversation(written[0].entry);
    const wasPending = this.file.pending;
    const joined = Buffer.concat(written.flatMap((w, i) => (i === 0 ? [w.line] : [NEWLINE_BYTE, w.line])));
    const { offset, shift, others } = this.file.append(joined, defer);
    // Another program appended around this write (see SessionFile.append): its lines are read with ours, in file
    // order — theirs before ours are added first, those after ours last —, as refreshFromDisk reads them.
    const around = others && this.scanAround(others);
    const otherIssues: LoadIssue[] = around ? [...around.scan.issues] : [];
    const otherAdded: EntryEnvelope[] = [];
    if (around) {
      const start = this.index.count;
      this.takeIn(around.scan, 0, around.after, otherIssues, around.ours);
      this.announceOthers(start, otherAdded);
    }
    if (this.file.path !== undefined && !defer && wasPending) {
      // The header, then the lines kept until now, went to disk with this one.
      this.lineCount++;
      const { offsets, lines } = this.index.table;
      for (const i of this.unwritten) {
        offsets[i] += shift;
        lines[i] = ++this.lineCount;
      }
      this.unwritten = [];
    }
    let at = offset;
    // Ours are whole lines of their own, after theirs (one of theirs cut short before ours shares our first).
    if (others) this.lineCount += others.linesBefore;
    for (const { id, type, entry, line, facts, keepLeaf } of written) {
      const lineNo = this.file.path !== undefined && !defer ? ++this.lineCount : 0;
      const position = this.index.add(facts.env, facts.meta, at, line.length, lineNo);
      at += line.length + 1;
      if (defer) this.unwritten.push(position);
      const moves = type !== "label" && facts.meta.markerTarget === undefined && facts.meta.archive === undefined;
      if (moves && keepLeaf !== true) this.leafId = id;
      this.emit({ type: "append", entry });
    }
    if (others) {
      if (around) {
        const start = this.index.count;
        this.takeIn(around.scan, around.after, around.scan.entries.length, otherIssues, around.ours);
        this.announceOthers(start, otherAdded);
        this.lineCount = around.scan.lineCount;
      }
      // The leaf stays where our write put it.
      this.afterOthers(otherAdded, otherIssues, true);
    }
    return written.map((w) => w.id);
  }

  /**
   * The scan of another program's lines around one of our writes (see SessionFile.append), `after`: the first of
   * its entries after ours, `ours`: whether an offset is one of our lines (they are read with theirs: left out).
   * Undefined when the file cannot be read now: their lines are then in the session only after a reopen.
   */
  private scanAround(
    others: OthersAround,
  ): { scan: ScanResult; after: number; ours: (offset: number) => boolean } | undefined {
    let scan: ScanResult;
    try {
      scan = this.scanAppended(others.start, others.end, this.lineCount);
    } catch {
      return undefined;
    }
    const { offsets } = scan.entries;
    let after = 0;
    while (after < scan.entries.length && offsets[after] < others.ownEnd) after++;
    return { scan, after, ours: (offset) => offset >= others.ownStart && offset < others.ownEnd };
  }

  /** The whole entry at position `i`, read and parsed from its line; SessionFormatError when it is damaged. */
  private load(i: number): SessionEntry {
    const { table } = this.index;
    const env = table.envs[i];
    const line = table.lines[i];
    const text = this.file.readText(table.offsets[i], table.sizes[i]);
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (e) {
      throw new SessionFormatError(
        this.file.path ?? "(in memory)",
        line,
        `entry ${env.id} has a corrupt body: ${errorText(e)}`,
      );
    }
    const shape = entryShapeError(v);
    if (shape || (v as SessionEntry).id !== env.id)
      throw new SessionFormatError(
        this.file.path ?? "(in memory)",
        line,
        `entry ${env.id} changed on disk (${shape ?? "different id"})`,
      );
    return v as SessionEntry;
  }
}

/** The session id a file named as pi names them (`<time>_<id>.jsonl`) carries, when it is a valid one. */
function idFromFileName(file: string): string | undefined {
  const id = /_([^_/\\]+)\.jsonl$/i.exec(file)?.[1];
  if (id === undefined) return undefined;
  try {
    assertSessionId(id);
    return id;
  } catch {
    return undefined;
  }
}

/** True when nothing is at `file`, not even a dangling symlink (lstat: ENOENT). */
function isMissing(file: string): boolean {
  try {
    fs.lstatSync(file);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/** A rewrite copies the bytes that stay in pieces this big. */
const COPY_CHUNK_BYTES = 4 * 1024 * 1024;
const NEWLINE = 10;
const NEWLINE_BYTE = Buffer.from("\n");

/** Remove `file` if it is there (`fs.rmSync(file, { force: true })` without loading Node's recursive remover). */
function removeIfPresent(file: string): void {
  // Nearly always absent: looking first spares the exception a failed unlink costs on every open.
  if (!fs.existsSync(file)) return;
  try {
    fs.unlinkSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
}

/** A file's text, read through a handle that is checked to be a regular file. */
function readText(file: string): string {
  const fd = openRegular(file, O_RDONLY);
  try {
    return fs.readFileSync(fd, "utf8");
  } finally {
    fs.closeSync(fd);
  }
}
