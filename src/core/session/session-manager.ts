/**
 * SessionManager: a pi-compatible tree session (JSONL, version 3) on disk or in memory.
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
import { buildContext, settingsOf, type PathItem } from "./context.js";
import { RETAIN_MAX_BYTES, entryShapeError, recordOfEntry, type EntryRecord } from "./entry-record.js";
import { EntryColumns } from "./entry-columns.js";
import { EntryIndex } from "./entry-index.js";
import { fillEnvelopes, fillFromEntry, type FillWindow } from "./envelope-fill.js";
import {
  EntryNotFoundError,
  SessionChangedError,
  SessionFileTypeError,
  SessionFormatError,
  SessionLockLostError,
  SessionReadOnlyError,
  type LockHolderInfo,
} from "./errors.js";
import { identityOf, nonRegularKind, openRegular, realSessionPath } from "./file-identity.js";
import { assertSessionId, newEntryId, newSessionId } from "./ids.js";
import { SessionLock } from "./lock.js";
import { migrateText, removeStaleMigrationTemps, writeMigrated } from "./migrate.js";
import { defaultSessionDir, sessionFileName } from "./paths.js";
import { readLine, scanSessionFile, type ScanResult } from "./scan-file.js";
import { branchEntries, branchPath, writeBranchFile } from "./branch-file.js";
import { LazyTreeNode } from "./tree-node.js";
import { writeAll } from "./write-all.js";
import { listSessions, mostRecentSessionFile } from "./session-list.js";
import {
  CURRENT_SESSION_VERSION,
  LEAF_MARKER_TYPE,
  type EntryEnvelope,
  type LockOptions,
  type LoadIssue,
  type NewSessionOptions,
  type OpenSessionOptions,
  type SessionChange,
  type SessionContext,
  type SessionEntry,
  type SessionHeader,
  type SessionInfo,
  type SessionTreeNode,
} from "./types.js";

/** How many large bodies stay parsed in memory. */
const BODY_CACHE_SIZE = 32;
/** Records filled per slice of prefetchEnvelopes() (a few milliseconds of work between yields). */
const PREFETCH_SLICE = 1000;
/** Read window for context building. */
const CONTEXT_WINDOW_BYTES = 4 * 1024 * 1024;

type NewEntry = Omit<SessionEntry, "id" | "parentId" | "timestamp"> & Record<string, unknown>;

interface Init {
  header: SessionHeader;
  file?: string;
  sessionDir?: string;
  headerWritten: boolean;
  readOnly: boolean;
  entries: EntryColumns;
  issues: LoadIssue[];
  lock?: SessionLock;
  lockOptions?: LockOptions;
  tornOffset?: number;
  /** File size when the torn tail was seen: the repair cuts only if the file still ends there. */
  tornEnd?: number;
  needsNewline?: boolean;
  lineCount: number;
}

const { O_RDONLY, O_WRONLY, O_APPEND, O_CREAT } = fs.constants;

/** pi 1.5 creates a session's file with its first user or assistant message. */
function startsConversation(entry: SessionEntry): boolean {
  return entry.type === "message" && (entry.message.role === "user" || entry.message.role === "assistant");
}

/** A session tree: append-only entries, a leaf pointer, lazy bodies. */
export class SessionManager {
  /** Replaced only by createBranchedSession on an in-memory session. */
  private header: SessionHeader;
  private readonly file: string | undefined;
  private readonly sessionDir: string | undefined;
  private headerWritten: boolean;
  /** Read-only from the start (a view), or since the writer lock was lost. */
  private readOnly: boolean;
  /** Replaced only by createBranchedSession on an in-memory session. */
  private index: EntryIndex;
  private readonly issues: LoadIssue[];
  private lock: SessionLock | undefined;
  private readonly lockOptions: LockOptions | undefined;
  /** Set once the writer lock was taken over by another process: who holds it now, if known. */
  private lockLost: { newHolder: LockHolderInfo | undefined } | undefined;
  private readonly lockLostListeners = new Set<(newHolder: LockHolderInfo | undefined) => void>();
  private tornOffset: number | undefined;
  private tornEnd: number | undefined;
  private needsNewline: boolean;
  private lineCount: number;
  private leafId: string | null;
  private writeFd: number | undefined;
  /**
   * Entries of a new file appended before its first user or assistant message: written with that message,
   * header first (pi 1.5 does the same, so a session opened and closed without chatting leaves no file).
   */
  private unwritten: { rec: EntryRecord; line: string }[] = [];
  private readFd: number | undefined;
  private closed = false;
  /** Some records may still be pending (indexed from their head; see EntryRecord.pending). */
  private unfilled: boolean;
  /** The background fdatasync of the write handle, while one runs (see scheduleSync). */
  private syncing: Promise<void> | undefined;
  /** Lines were appended while a flush ran: flush again when it ends. */
  private syncAgain = false;
  /** The background fill started by prefetchEnvelopes(), while it runs or once done. */
  private prefetch: Promise<void> | undefined;
  private readonly cache = new Map<string, SessionEntry>();
  private readonly listeners = new Set<(change: SessionChange) => void>();

  private constructor(init: Init) {
    this.header = init.header;
    this.file = init.file;
    this.sessionDir = init.sessionDir;
    this.headerWritten = init.headerWritten;
    this.readOnly = init.readOnly;
    this.issues = init.issues;
    this.lockOptions = init.lockOptions;
    if (init.lock) this.holdLock(init.lock);
    this.tornOffset = init.tornOffset;
    this.tornEnd = init.tornEnd;
    this.needsNewline = init.needsNewline ?? false;
    this.lineCount = init.lineCount;
    const { index, duplicates, cycles } = EntryIndex.build(init.entries);
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
    this.index = index;
    // Head-only lines have no record yet; their records are made pending.
    this.unfilled = init.entries.full.some((r) => r === undefined);
    this.leafId = this.persistedLeaf();
  }

  // ---------------------------------------------------------------- factories

  /**
   * A new session for `cwd`; its file (in `sessionDir`, default pi's folder) is written, and its writer lock
   * taken, with the first user or assistant message. `options.id`: the session id (pi's rules: letters,
   * digits, `.`, `_`, `-`, starting and ending with a letter or digit; SessionIdError otherwise), default a
   * new UUID. `options.lock`: the writer lock's options.
   */
  static async create(cwd: string, sessionDir?: string, options?: NewSessionOptions): Promise<SessionManager> {
    const header = SessionManager.newHeader(cwd, options?.id);
    const dir = sessionDir ?? defaultSessionDir(cwd);
    await fs.promises.mkdir(dir, { recursive: true });
    return new SessionManager({
      header,
      file: path.join(dir, sessionFileName(header.timestamp, header.id)),
      sessionDir: dir,
      headerWritten: false,
      readOnly: false,
      entries: new EntryColumns(),
      issues: [],
      lockOptions: options?.lock,
      lineCount: 0,
    });
  }

  /**
   * Open a session file: migrate v1/v2 (atomic rewrite, original kept as `<file>.v<N>.bak`), take the
   * writer lock (SessionLockedError when held; `readOnly: true` for a view without it), index the entries.
   * Throws SessionFormatError when line 1 is not a session header (the file is left untouched), and
   * SessionFileTypeError for a folder, FIFO or device (without blocking on it).
   */
  static async open(file: string, opts?: OpenSessionOptions | string): Promise<SessionManager> {
    const o: OpenSessionOptions = typeof opts === "string" ? { sessionDir: opts } : (opts ?? {});
    const abs = path.resolve(file);
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
      // Under the lock no migration of this file runs: a temp file of one is what a killed one left.
      if (lock) removeStaleMigrationTemps(real);
      return SessionManager.load(abs, real, { sessionDir: o.sessionDir, readOnly, lock, lockOptions: o.lock }, o);
    } catch (e) {
      lock?.release();
      throw e;
    }
  }

  private static load(
    file: string,
    real: string,
    base: { sessionDir?: string; readOnly: boolean; lock?: SessionLock; lockOptions?: LockOptions },
    o: OpenSessionOptions,
  ): SessionManager {
    const { readOnly } = base;
    const head = scanSessionFile(file, { headerOnly: true });
    if (head.headerError)
      throw new SessionFormatError(
        file,
        1,
        `${head.headerError}. The file was not changed; it is not a pi session file or its first line is damaged.`,
      );
    if (!head.header) {
      // An empty file: a session whose header is written on the first append.
      const id = /_([0-9a-f-]{36})\.jsonl$/i.exec(file)?.[1] ?? newSessionId();
      const header = { ...SessionManager.newHeader(process.cwd()), id };
      return new SessionManager({
        ...base,
        file,
        header,
        headerWritten: false,
        entries: new EntryColumns(),
        issues: [],
        lineCount: 0,
      });
    }
    const version = head.header.version ?? 1;
    if (version < CURRENT_SESSION_VERSION) {
      const mig = migrateText(file, readText(file));
      if (readOnly) {
        const records: EntryRecord[] = [];
        mig.lines.forEach((line, i) => {
          if (i === 0) return;
          try {
            const v = JSON.parse(line) as unknown;
            if (!entryShapeError(v)) records.push(recordOfEntry(v as SessionEntry, -1, 0, i + 1, true));
          } catch {
            // reported by migrateText
          }
        });
        // Migrated in memory only: the file is left as it is until it is opened for writing.
        return new SessionManager({
          ...base,
          file,
          header: mig.header,
          headerWritten: true,
          entries: EntryColumns.of(records),
          issues: mig.issues,
          lineCount: mig.lines.length,
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
      return new SessionManager({
        ...base,
        file,
        header: scan.header ?? mig.header,
        headerWritten: true,
        entries: scan.entries,
        issues,
        lineCount: scan.lineCount,
      });
    }
    const fromScan = (scan: ScanResult): SessionManager =>
      new SessionManager({
        ...base,
        file,
        header: scan.header ?? (head.header as SessionHeader),
        headerWritten: true,
        entries: scan.entries,
        issues: scan.issues,
        tornOffset: scan.tornOffset,
        tornEnd: scan.tornOffset === undefined ? undefined : scan.fileSize,
        needsNewline: scan.missingFinalNewline,
        lineCount: scan.lineCount,
      });
    const sm = fromScan(scanSessionFile(file, { headsOnly: o.lazyEnvelopes }));
    // Orphans are what a line with a glued entry leaves behind: rescan checking every large line.
    return sm.index.hasOrphans() ? fromScan(scanSessionFile(file, { verify: true })) : sm;
  }

  /** A session that never touches the disk. `options.id`: the session id, as for create(). */
  static inMemory(cwd: string = process.cwd(), options?: NewSessionOptions): SessionManager {
    return new SessionManager({
      header: SessionManager.newHeader(cwd, options?.id),
      headerWritten: false,
      readOnly: false,
      entries: new EntryColumns(),
      issues: [],
      lineCount: 0,
    });
  }

  /**
   * Sessions in `sessionDir` (default pi's folder for `cwd`), newest first by `modified`, which is pi's: the
   * time of the newest user or assistant message, else the header's timestamp, else the file's.
   */
  static async list(cwd: string, sessionDir?: string): Promise<SessionInfo[]> {
    return listSessions(sessionDir ?? defaultSessionDir(cwd));
  }

  /** The session file of `sessionDir` (default pi's folder for `cwd`) written last (file time, as pi's `-c`). */
  static async findMostRecent(cwd: string, sessionDir?: string): Promise<string | undefined> {
    return mostRecentSessionFile(sessionDir ?? defaultSessionDir(cwd));
  }

  /** Open the session of `cwd` written last (findMostRecent), or create one when there is none. */
  static async continueRecent(cwd: string, sessionDir?: string): Promise<SessionManager> {
    const dir = sessionDir ?? defaultSessionDir(cwd);
    const latest = await mostRecentSessionFile(dir);
    return latest ? SessionManager.open(latest, { sessionDir: dir }) : SessionManager.create(cwd, dir);
  }

  private static newHeader(cwd: string, id?: string): SessionHeader {
    if (id !== undefined) assertSessionId(id);
    return {
      type: "session",
      version: CURRENT_SESSION_VERSION,
      id: id ?? newSessionId(),
      timestamp: new Date().toISOString(),
      cwd,
    };
  }

  // ---------------------------------------------------------------- reads

  /** Path of the session file (also before it is written); undefined in memory. */
  getSessionFile(): string | undefined {
    return this.file;
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
    return this.readOnly;
  }
  /** True once another process took this session's writer lock over: the session is read-only since. */
  hasLostLock(): boolean {
    return this.lockLost !== undefined;
  }
  /**
   * Called once when another process takes this session's writer lock over (found by the heartbeat or by a
   * write, which then throws SessionLockLostError): the session has turned read-only. `newHolder` is the
   * new lock's holder when it could be read.
   */
  onLockLost(listener: (newHolder: LockHolderInfo | undefined) => void): () => void {
    this.lockLostListeners.add(listener);
    return () => this.lockLostListeners.delete(listener);
  }
  /** Lines skipped while loading (corrupt, torn, duplicate), with 1-based line numbers. */
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
  /** The whole entry (its body read from disk when not in memory), or undefined. */
  getEntry(id: string): SessionEntry | undefined {
    const rec = this.index.get(id);
    return rec ? this.load(rec) : undefined;
  }
  /** All entries in file order (loads every body: prefer getEnvelopes() for big sessions). */
  getEntries(): SessionEntry[] {
    return this.index.all().map((r) => this.load(r));
  }
  /** Number of entries. */
  getEntryCount(): number {
    return this.index.count;
  }
  /**
   * Envelopes of all entries in file order, without parsing bodies. The first call after open reads the
   * previews of large lines (one pass over them); later calls cost nothing.
   */
  getEnvelopes(): readonly EntryEnvelope[] {
    this.fillAll();
    return this.index.all().map((r) => r.env);
  }
  /**
   * Read the previews of large lines in the background, in slices that yield to the event loop, so that the
   * first getEnvelopes() finds them ready (the host starts this right after open, while its views load).
   * Resolves when done (or when the session is closed); never rejects — a failure leaves the rest to
   * getEnvelopes(), which reports it.
   */
  prefetchEnvelopes(): Promise<void> {
    if (!this.unfilled) return Promise.resolve();
    this.prefetch ??= (async () => {
      const count = this.index.count;
      // One read buffer for all slices (dropped with this closure when done).
      const window: FillWindow = {};
      for (let from = 0; from < count && this.unfilled && !this.closed; from += PREFETCH_SLICE) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (!this.unfilled || this.closed) break;
        const slice: EntryRecord[] = [];
        for (let i = from; i < Math.min(count, from + PREFETCH_SLICE); i++) slice.push(this.index.recordAt(i));
        try {
          this.fill(slice, window);
        } catch {
          return; // an I/O error: getEnvelopes() fills what is left and throws it to its caller
        }
        if (from + PREFETCH_SLICE >= count) this.unfilled = false;
      }
    })();
    return this.prefetch;
  }

  /** True when an entry has this id (no body or envelope is read). */
  hasEntry(id: string): boolean {
    return this.index.has(id);
  }

  /** The envelope of one entry. */
  getEnvelope(id: string): EntryEnvelope | undefined {
    const rec = this.index.get(id);
    if (rec?.pending) this.fill([rec]);
    return rec?.env;
  }
  /**
   * Parent, type and role of an entry, from the index alone (no line is read, unlike getEnvelope): for
   * walking long paths cheaply.
   */
  getEntryHead(id: string): Pick<EntryEnvelope, "parentId" | "type" | "role"> | undefined {
    const env = this.index.get(id)?.env;
    return env && { parentId: env.parentId, type: env.type, role: env.role };
  }
  /** Children of `id`, oldest first. */
  getChildren(id: string): SessionEntry[] {
    return this.index.childrenOf(id).map((r) => this.load(r));
  }
  /** Ids of the children of `id`, oldest first (no body loads). */
  getChildIds(id: string): string[] {
    return this.index.childrenOf(id).map((r) => r.env.id);
  }
  /** Resolved label of an entry. */
  getLabel(id: string): string | undefined {
    return this.index.labels.get(id);
  }
  /** Latest session_info name. */
  getSessionName(): string | undefined {
    return this.index.sessionName;
  }

  /** Entries from the root to `fromId` (default: the leaf), root first. */
  getPath(fromId?: string | null): SessionEntry[] {
    return this.pathRecords(fromId === undefined ? this.leafId : fromId).map((r) => this.load(r));
  }

  private pathRecords(fromId: string | null): EntryRecord[] {
    if (fromId === null) return [];
    if (!this.index.has(fromId)) throw new EntryNotFoundError(fromId);
    return this.index.pathTo(fromId);
  }

  /**
   * The whole tree. Roots (parentId null, and orphans flagged `orphan: true`) and children oldest first.
   * `entry` loads lazily on first access; `envelope` is always there.
   */
  getTree(): SessionTreeNode[] {
    this.fillAll();
    const load = (rec: EntryRecord): SessionEntry => this.load(rec);
    const nodes = this.index.all().map((rec) => new LazyTreeNode(rec, load, this.index.labels.get(rec.env.id)));
    nodes.forEach((node, i) => {
      for (const child of this.index.kidsAt(i)) node.children.push(nodes[child]);
    });
    return this.index.rootPositions().map((i) => nodes[i]);
  }

  /** What the model sees from the leaf, and the model / thinking level in force there. */
  buildSessionContext(): SessionContext {
    const items = this.pathItems(this.leafId);
    const read = this.windowReader();
    return buildContext(items, (item) => this.loadForContext((item as (typeof items)[number]).rec, read));
  }

  /**
   * The model and thinking level in force at the leaf, as buildSessionContext() gives them, without reading
   * message bodies (at most the last assistant line's head on the path, for its model).
   */
  getLeafSettings(): Omit<SessionContext, "messages"> {
    return settingsOf(this.pathItems(this.leafId));
  }

  /**
   * Envelopes from the root to `fromId` (default: the leaf), root first, as getPath() walks it, without
   * reading bodies.
   */
  getPathEnvelopes(fromId?: string | null): EntryEnvelope[] {
    const recs = this.pathRecords(fromId === undefined ? this.leafId : fromId);
    const pending = this.unfilled ? recs.filter((r) => r.pending) : [];
    if (pending.length > 0) this.fill(pending);
    return recs.map((r) => r.env);
  }

  /**
   * The token use and cost an entry records — an assistant message, or pi 1.5's compaction, branch summary or
   * `usage` entry — read with its envelope (no body is read); undefined for others.
   */
  getUsage(id: string): Usage | undefined {
    const rec = this.index.get(id);
    if (rec?.pending) this.fill([rec]);
    return rec?.meta.usage;
  }

  /** The path as context building sees it; meta is read on demand. */
  private pathItems(leafId: string | null): (PathItem & { rec: EntryRecord })[] {
    const fill = (rec: EntryRecord): void => this.fill([rec]);
    return this.pathRecords(leafId).map((rec) => ({
      id: rec.env.id,
      type: rec.env.type,
      role: rec.env.role,
      get meta() {
        // Only an assistant message of the pending kinds names a model.
        if (rec.pending && rec.env.role === "assistant") fill(rec);
        return rec.meta;
      },
      rec,
    }));
  }

  /**
   * Bodies for the context come from one reused window of the file (a path is mostly in file order), not one
   * allocation and read per entry. Returns a line's text, or undefined to take the usual load().
   */
  private windowReader(): (rec: EntryRecord) => string | undefined {
    let win: Buffer | undefined;
    let winStart = 0;
    let winLen = 0;
    return (rec) => {
      if (this.closed || !this.file || rec.entry || rec.raw !== undefined || rec.offset < 0) return undefined;
      if (rec.length > CONTEXT_WINDOW_BYTES || this.cache.has(rec.env.id)) return undefined;
      if (rec.offset < winStart || rec.offset + rec.length > winStart + winLen) {
        win ??= Buffer.allocUnsafe(CONTEXT_WINDOW_BYTES);
        const fd = this.readHandle();
        winStart = rec.offset;
        winLen = 0;
        while (winLen < CONTEXT_WINDOW_BYTES) {
          const n = fs.readSync(fd, win, winLen, CONTEXT_WINDOW_BYTES - winLen, winStart + winLen);
          if (n === 0) break;
          winLen += n;
        }
        if (winLen < rec.length) return undefined;
      }
      const at = rec.offset - winStart;
      return (win as Buffer).toString("utf8", at, at + rec.length);
    };
  }

  /**
   * Load a body for the context. A body that no longer parses (the file was damaged after it was indexed) is
   * left out of the context and reported in getLoadIssues() instead of failing the whole session.
   */
  private loadForContext(rec: EntryRecord, read?: (rec: EntryRecord) => string | undefined): SessionEntry | undefined {
    try {
      const text = read?.(rec);
      if (text === undefined) return this.load(rec);
      const entry = this.parseBody(rec, text);
      fillFromEntry(rec, entry);
      return entry;
    } catch (e) {
      if (!(e instanceof SessionFormatError)) throw e;
      if (!this.issues.some((i) => i.line === rec.line)) this.issues.push({ line: rec.line, reason: e.message });
      return undefined;
    }
  }

  /** Deepest entry on both root paths, or null. */
  findCommonAncestor(a: string, b: string): string | null {
    const onA = new Set(this.pathRecords(a).map((r) => r.env.id));
    const pathB = this.pathRecords(b);
    for (let i = pathB.length - 1; i >= 0; i--) if (onA.has(pathB[i].env.id)) return pathB[i].env.id;
    return null;
  }

  /**
   * The branch being left: from `oldLeafId` back to (not including) the common ancestor with `targetId`,
   * stopping before a compaction; chronological.
   */
  collectEntriesToSummarize(oldLeafId: string | null, targetId: string | null): SessionEntry[] {
    if (oldLeafId === null) return [];
    const ancestor = targetId === null ? null : this.findCommonAncestor(oldLeafId, targetId);
    const out: SessionEntry[] = [];
    const branchPath = this.pathRecords(oldLeafId);
    for (let i = branchPath.length - 1; i >= 0; i--) {
      const rec = branchPath[i];
      if (rec.env.id === ancestor || rec.env.type === "compaction") break;
      out.push(this.load(rec));
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
    const hasPrompt = this.pathRecords(this.leafId).some((r) => r.env.role === "system" || r.env.type === "compaction");
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
    const target = this.index.get(targetId);
    if (!target) throw new EntryNotFoundError(targetId);
    if (!this.pathRecords(this.leafId).includes(target))
      throw new Error(`Entry ${targetId} is not on the current path`);
    const role = target.env.type === "custom_message" ? "custom" : target.env.role;
    const editable =
      target.env.type === "custom_message" ||
      (target.env.type === "message" && (role === "user" || role === "assistant" || role === "toolResult"));
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

  // ---------------------------------------------------------------- moves

  /** Move the leaf to `id` (persisted). Labels and leaf markers resolve to the entry they hang off. */
  branch(id: string): void {
    const rec = this.index.get(id);
    if (!rec) throw new EntryNotFoundError(id);
    this.moveLeaf(this.resolveLeaf(rec));
  }

  /** Move the leaf before the first entry (the next append starts a new root). Persisted. */
  resetLeaf(): void {
    this.moveLeaf(null);
  }

  /**
   * Move the leaf to `id` (null = root) and record a summary of the branch left there; the summary becomes
   * the leaf. Returns the summary's id.
   */
  branchWithSummary<T = unknown>(id: string | null, summary: string, details?: T, fromHook?: boolean): string {
    let target: string | null = null;
    if (id !== null) {
      const rec = this.index.get(id);
      if (!rec) throw new EntryNotFoundError(id);
      target = this.resolveLeaf(rec);
    }
    const fromId = this.leafId ?? "root";
    const newId = this.append({ type: "branch_summary", fromId, summary, details, fromHook }, target);
    this.emit({ type: "leaf", leafId: newId });
    return newId;
  }

  /**
   * Append a branch summary at the leaf without moving anywhere first: the summary of another branch, brought
   * here (AgentSession.bringConclusions). `fromId` names the node it summarizes up to; the summary becomes the
   * leaf. Returns its id.
   */
  appendBranchSummary<T = unknown>(fromId: string, summary: string, details?: T, fromHook?: boolean): string {
    if (!this.index.has(fromId)) throw new EntryNotFoundError(fromId);
    return this.append({ type: "branch_summary", fromId, summary, details, fromHook });
  }

  /**
   * The root→`leafId` path as a session of its own (null: no entries): the same ids, labels and leaf markers left
   * out and the labels of the path's entries re-created. In a file session, writes a new file (in this session's
   * folder, `parentSession` = this file) and returns its path; this session is unchanged. In memory, as pi does,
   * this session becomes the branch (a new session id) and undefined is returned.
   */
  async createBranchedSession(leafId: string | null): Promise<string | undefined> {
    const plan = branchPath(this.pathRecords(leafId));
    const labelOf = (id: string): string | undefined => this.index.labels.get(id);
    if (!this.file) {
      this.assertWritable();
      const entries = branchEntries(plan, (rec) => this.load(rec), labelOf);
      this.header = SessionManager.newHeader(this.header.cwd);
      this.index = EntryIndex.build(EntryColumns.of(entries.map((e) => recordOfEntry(e, -1, 0, 0, true)))).index;
      this.cache.clear();
      const leaf = this.persistedLeaf();
      if (leaf !== this.leafId) {
        this.leafId = leaf;
        this.emit({ type: "leaf", leafId: leaf });
      }
      return undefined;
    }
    const header: SessionHeader = { ...SessionManager.newHeader(this.header.cwd), parentSession: this.file };
    return writeBranchFile(this.sessionDir ?? path.dirname(this.file), header, plan, {
      readBytes: (rec) => this.readBytes(rec),
      load: (rec) => this.load(rec),
      labelOf,
    });
  }

  // ---------------------------------------------------------------- changes and lifetime

  /** Listen to appends and leaf moves. An "append" of anything but a label also moves the leaf onto it. */
  subscribe(listener: (change: SessionChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Flush, release the writer lock and close files. Reopening afterwards is writable. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // The background flush must finish before its descriptor is closed (a reused number would be flushed).
    await this.syncing;
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
    this.lock?.release();
    this.lock = undefined;
    this.listeners.clear();
    this.lockLostListeners.clear();
  }

  // ---------------------------------------------------------------- internals

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

  private emit(change: SessionChange): void {
    for (const l of [...this.listeners]) {
      try {
        l(change);
      } catch {
        // a failing listener must not break the session
      }
    }
  }

  /** The leaf a reload would pick: the last entry, walking up from labels and leaf markers. */
  private persistedLeaf(): string | null {
    const last = this.index.last();
    return last === undefined ? null : this.resolveLeaf(last);
  }

  /** The content entry `rec` stands for: labels resolve to their parent, markers to their target. */
  private resolveLeaf(start: EntryRecord): string | null {
    let rec: EntryRecord | undefined = start;
    for (let guard = 0; rec && guard <= this.index.count; guard++) {
      if (rec.env.type === "label") {
        if (rec.env.parentId === null) return null;
        rec = this.index.get(rec.env.parentId);
      } else if (rec.meta.markerTarget !== undefined) {
        if (rec.meta.markerTarget === null) return null;
        rec =
          this.index.get(rec.meta.markerTarget) ??
          (rec.env.parentId === null ? undefined : this.index.get(rec.env.parentId));
      } else return rec.env.id;
    }
    return null;
  }

  private moveLeaf(target: string | null): void {
    this.assertWritable();
    if (this.persistedLeaf() !== target) {
      this.append({ type: "custom", customType: LEAF_MARKER_TYPE, data: { targetId: target } }, target);
    }
    if (this.leafId !== target) {
      this.leafId = target;
      this.emit({ type: "leaf", leafId: target });
    }
  }

  /** Throws unless this session may write now; a lock taken over since the last write turns it read-only. */
  private assertWritable(): void {
    if (this.lockLost) throw this.lockLostError();
    if (this.readOnly) throw new SessionReadOnlyError(this.file);
    if (this.closed) throw new Error(`Session ${this.file ?? "(in memory)"} is closed`);
    // A lock taken over since the last write: verify() calls loseLock(), and nothing is written.
    if (this.lock && !this.lock.verify()) throw this.lockLostError();
  }

  private lockLostError(): SessionLockLostError {
    return new SessionLockLostError(this.file as string, this.lockLost?.newHolder);
  }

  private holdLock(lock: SessionLock): void {
    this.lock = lock;
    lock.onLost((newHolder) => this.loseLock(newHolder));
  }

  /** The writer lock was taken over: read-only from now on, and say so. */
  private loseLock(newHolder: LockHolderInfo | undefined): void {
    if (this.lockLost || this.closed) return;
    this.lockLost = { newHolder };
    this.readOnly = true;
    for (const l of [...this.lockLostListeners]) {
      try {
        l(newHolder);
      } catch {
        // a failing listener must not break the session
      }
    }
  }

  /**
   * Write one entry as one line; the leaf moves onto it unless it is a label or a leaf marker. `preset`: an id and
   * timestamp chosen by the caller (a compaction that names itself).
   */
  private append(
    fields: NewEntry,
    parentId: string | null = this.leafId,
    preset?: { id: string; timestamp: string },
  ): string {
    this.assertWritable();
    const id = preset?.id ?? newEntryId((c) => this.index.has(c));
    const { type, ...rest } = fields;
    const timestamp = preset?.timestamp ?? new Date().toISOString();
    const line = JSON.stringify({ type, id, parentId, timestamp, ...rest });
    // Keep what a reload would read (no undefined fields, no aliasing of the caller's objects).
    const entry = JSON.parse(line) as SessionEntry;
    const rec = recordOfEntry(entry, -1, 0, 0, true);
    if (this.file && !this.headerWritten && !startsConversation(entry)) {
      this.unwritten.push({ rec, line });
    } else if (this.file) {
      this.writeLines([...this.unwritten, { rec, line }]);
      this.unwritten = [];
    }
    this.index.add(rec);
    if (type !== "label" && rec.meta.markerTarget === undefined) this.leafId = id;
    this.emit({ type: "append", entry });
    return id;
  }

  /** Append lines (the header first when the file has none yet) with one write; places their records. */
  private writeLines(items: readonly { rec: EntryRecord; line: string }[]): void {
    const fd = this.openForWrite();
    let prefix = "";
    if (!this.headerWritten) prefix = JSON.stringify(this.header) + "\n";
    else if (this.needsNewline) prefix = "\n";
    const st = fs.fstatSync(fd);
    this.assertSameFile(st);
    let offset = st.size + Buffer.byteLength(prefix);
    // One buffer, one write: usually a single line, possibly megabytes, so it is encoded once.
    const text = items.length === 1 ? prefix + items[0].line + "\n" : prefix + items.map((i) => i.line + "\n").join("");
    writeAll(fd, Buffer.from(text));
    this.scheduleSync();
    if (!this.headerWritten) this.lineCount++;
    this.headerWritten = true;
    this.needsNewline = false;
    for (const { rec, line } of items) {
      rec.offset = offset;
      rec.length = Buffer.byteLength(line);
      rec.line = ++this.lineCount;
      offset += rec.length + 1;
      // Large bodies are read back from the file when needed; a few stay cached.
      if (rec.length > RETAIN_MAX_BYTES && rec.entry) {
        this.remember(rec.env.id, rec.entry);
        rec.entry = undefined;
      }
    }
  }

  /** Appending to a file that was deleted or replaced since it was opened would lose the entry silently. */
  private assertSameFile(st: fs.Stats): void {
    let now: fs.Stats | undefined;
    try {
      now = fs.statSync(this.file as string);
    } catch {
      now = undefined;
    }
    if (!now || now.ino !== st.ino || now.dev !== st.dev)
      throw new SessionChangedError(this.file as string, "was deleted or replaced while open");
  }

  /** The append handle; the first call takes the writer lock of a new session and repairs a torn tail. */
  private openForWrite(): number {
    if (this.writeFd !== undefined) return this.writeFd;
    const file = this.file as string;
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
    return fd;
  }

  /**
   * Keep the torn bytes beside the file, then cut them off so the next line starts clean. Runs under the
   * writer lock, and cuts only what the scan saw: if the file grew since (another program wrote to it), the
   * bytes after the torn line were never seen here, so nothing is cut and SessionChangedError is thrown.
   */
  private repairTornTail(fd: number, tornOffset: number): void {
    const file = this.file as string;
    const size = fs.fstatSync(fd).size;
    if (size !== this.tornEnd)
      throw new SessionChangedError(
        file,
        `changed on disk since it was opened (${this.tornEnd ?? "?"} bytes then, ${size} now: another program wrote to it), so its torn last line was not repaired`,
      );
    const torn = readLine(this.readHandle(), tornOffset, size - tornOffset);
    fs.writeFileSync(`${file}.torn-${new Date().toISOString().replace(/[:.]/g, "-")}`, torn);
    fs.ftruncateSync(fd, tornOffset);
    this.tornOffset = undefined;
    this.tornEnd = undefined;
  }

  /** Fill every pending record (see EntryRecord.pending). */
  private fillAll(): void {
    if (!this.unfilled) return;
    this.fill(this.index.all());
    this.unfilled = false;
  }

  /** Fill the pending records among `recs` from the file; problems become load issues. */
  private fill(recs: readonly EntryRecord[], window?: FillWindow): void {
    if (!this.file) return;
    const fd = this.closed ? openRegular(this.file, O_RDONLY) : this.readHandle();
    try {
      for (const issue of fillEnvelopes(fd, recs, window))
        if (!this.issues.some((i) => i.line === issue.line)) this.issues.push(issue);
    } finally {
      if (this.closed) fs.closeSync(fd);
    }
  }

  private readHandle(): number {
    if (this.readFd === undefined) this.readFd = openRegular(this.file as string, O_RDONLY);
    return this.readFd;
  }

  /** A line's bytes as text. */
  private readBody(rec: EntryRecord): string {
    return this.readBytes(rec).toString("utf8");
  }

  /** A line's bytes; after close() through a short-lived descriptor so nothing leaks. */
  private readBytes(rec: EntryRecord): Buffer {
    if (!this.closed) return readLine(this.readHandle(), rec.offset, rec.length);
    const fd = openRegular(this.file as string, O_RDONLY);
    try {
      return readLine(fd, rec.offset, rec.length);
    } finally {
      fs.closeSync(fd);
    }
  }

  private remember(id: string, entry: SessionEntry): void {
    this.cache.delete(id);
    this.cache.set(id, entry);
    if (this.cache.size > BODY_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
  }

  /** The whole entry of a record: in memory, cached, or read from its line. */
  private load(rec: EntryRecord): SessionEntry {
    if (rec.entry) return rec.entry;
    const hit = this.cache.get(rec.env.id);
    if (hit) {
      this.remember(rec.env.id, hit);
      return hit;
    }
    const v = this.parseBody(rec, rec.raw ?? this.readBody(rec));
    fillFromEntry(rec, v);
    this.remember(rec.env.id, v);
    return v;
  }

  /** Parse a line read for `rec`, checking it is still that entry. */
  private parseBody(rec: EntryRecord, text: string): SessionEntry {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (e) {
      throw new SessionFormatError(
        this.file as string,
        rec.line,
        `entry ${rec.env.id} has a corrupt body: ${(e as Error).message}`,
      );
    }
    const shape = entryShapeError(v);
    if (shape || (v as SessionEntry).id !== rec.env.id)
      throw new SessionFormatError(
        this.file as string,
        rec.line,
        `entry ${rec.env.id} changed on disk (${shape ?? "different id"})`,
      );
    return v as SessionEntry;
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
