/**
 * The writer lock of a session file: one writer per file, whatever path it is opened under, and a takeover
 * that has exactly one winner.
 *
 * A lock is a folder holding one file, `<token>.json`, which names its holder (pid, host, machine key,
 * process start time, when it was taken, how often it is refreshed). Two locks are taken, each this way:
 * - `<real path>.lock` beside the session file (symlinked files and folders resolved), seen by every
 *   process and machine that reaches the file under that real path;
 * - `<registry>/<dev>-<ino>.lock` in a per-user folder of this machine (file-identity.ts), which catches a
 *   hard link (another path, the same file) and names the holder's first lock.
 *
 * Why it is safe (a lock path L, any number of processes, any timing):
 * 1. A process installs its lock by building a folder with its token inside under a private name and
 *    renaming it to L. rename() onto an existing folder only succeeds when that folder is empty, so L holds
 *    at most one token at any time, and the rename that puts it there is the single winner.
 * 2. Tokens inside L are only ever removed by their exact name: by the holder (release), or by a process
 *    that judged *that token* gone (its process is dead) or was told by its user to take *that token* over
 *    (`takeOver` = the claim of the judged lock). A process that judged a lock stale and was slow to act
 *    removes nothing when the lock has been replaced meanwhile (unlink of the old token name fails), and
 *    looks again. So a fresh lock is never removed by a decision made about an older one.
 * 3. Only an empty L is removed by anyone (rmdir fails on a folder with a token in it).
 * 4. The holder checks that its token is still in L before every write (verify), and refreshes it (mtime)
 *    every `heartbeatMs`; a holder that finds its token gone stops writing (the session turns read-only).
 *
 * Judging a lock someone else holds: same machine (host name, boot id and pid namespace) and its process
 * is gone (no such pid, or the pid now belongs to a process started later) → taken over at once; a lock of
 * this very process → `this-process`; refreshed within `staleAfterMs` → `live`; not refreshed for longer →
 * `unresponsive` (its window closed, or it hangs); unreadable → `damaged`. Unresponsive and damaged locks
 * are taken over only when the caller passes their claim (after asking the user). Locks are released by
 * close() and, best effort, when the process exits.
 *
 * Assumptions: the clocks of machines sharing a folder differ by much less than `staleAfterMs`; rename,
 * rmdir and unlink are atomic on the file system (local file systems and NFS are).
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SessionLockedError, type LockCondition, type LockHolderInfo, type LockLossReason } from "./errors.js";
import { identityKey, type FileIdentity } from "./file-identity.js";
import { pidAlive, processStart } from "./processes.js";
import type { LockOptions } from "./types.js";

/** How often a holder refreshes its lock by default. */
export const DEFAULT_HEARTBEAT_MS = 10_000;
/** A lock not refreshed for this long (and at least three of its holder's heartbeats) is unresponsive. */
export const DEFAULT_STALE_AFTER_MS = 30_000;
/** A holder's promised heartbeat above this is not believed (a lock must become takeable some day). */
const MAX_PROMISED_HEARTBEAT_MS = 10 * 60_000;
/** How rename() says a lock is at the path it was to install one at. */
const LOCK_IN_THE_WAY = new Set(["EEXIST", "ENOTEMPTY", "ENOTDIR"]);
/** Rounds of look-and-act before giving up with `busy` (each round acquires, throws, or removes a lock). */
const MAX_ATTEMPTS = 8;

/** What a lock file holds. */
interface LockRecord {
  pid: number;
  hostname: string;
  /** Host name, boot id and pid namespace: pids are comparable only within one machine key. */
  machine: string;
  /** Start time of the process (clock ticks after boot; Linux), to recognise a reused pid. */
  start?: number;
  token: string;
  /** When the lock was taken (ISO). */
  time: string;
  heartbeatMs: number;
  /** The session file (real path). */
  file: string;
  /** Registry locks: the holder's lock beside the file, which it holds as long as this one. */
  nameLock?: string;
}

/** How a judged lock is removed: its exact entries in the lock folder, or the lock file itself. */
type Removal = { dir: string; entries: string[] } | { file: string };

type View =
  | { kind: "free" }
  | { kind: "empty" }
  | { kind: "held"; record: Partial<LockRecord>; refreshedAt: number; claim: string; removal: Removal }
  | { kind: "damaged"; detail: string; refreshedAt: number; claim: string; removal: Removal };

interface Site {
  /** The lock folder. */
  path: string;
  /** Registry locks: the file they stand for. */
  identity?: FileIdentity;
  /** Registry locks: this process's lock beside the file. */
  nameLock?: string;
}

const heldLocks = new Map<string, SessionLock>();
let exitHookInstalled = false;
let machineKey: string | undefined;
let registry: string | undefined;

/** This machine's key: host name plus, on Linux, boot id and pid namespace. */
function machine(): string {
  if (machineKey === undefined) {
    const parts = [os.hostname()];
    try {
      parts.push(fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim());
      parts.push(fs.readlinkSync("/proc/self/ns/pid"));
    } catch {
      // not Linux: the host name alone
    }
    machineKey = parts.join("/");
  }
  return machineKey;
}

let ownStartTime: number | undefined | null = null;

/** This process's start time (read once: every lock record names it). */
function ownStart(): number | undefined {
  if (ownStartTime === null) ownStartTime = processStart(process.pid);
  return ownStartTime;
}

function code(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException).code;
}

/**
 * The per-user folder of this machine that holds the locks keyed by file identity. A fixed place (not
 * $TMPDIR, which differs between a code-server and a terminal) so every process of the user finds it.
 */
function registryDir(): string {
  if (registry !== undefined) return registry;
  const uid = process.getuid?.();
  let dir =
    uid === undefined ? path.join(os.tmpdir(), "agent-tree-locks") : path.join("/tmp", `agent-tree-locks-${uid}`);
  // Looked at first: it is there nearly always, and a failed mkdir costs an exception (a fresh process opening
  // its first session pays for each one).
  let st = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (st === undefined) {
    try {
      fs.mkdirSync(dir, { mode: 0o700 });
    } catch (e) {
      if (code(e) !== "EEXIST") {
        // No usable /tmp (a sandbox): the temp folder of this process, which its own windows share.
        dir = path.join(os.tmpdir(), `agent-tree-locks-${uid ?? "user"}`);
        fs.mkdirSync(dir, { mode: 0o700, recursive: true });
      }
    }
    st = fs.lstatSync(dir);
  }
  if (!st.isDirectory() || (uid !== undefined && (st.uid !== uid || (st.mode & 0o022) !== 0)))
    throw new Error(
      `The lock folder ${dir} is not a private folder of this user (owner ${st.uid}, mode ${(st.mode & 0o777).toString(8)}); remove it and try again.`,
    );
  registry = dir;
  // Housekeeping for other files' locks, not needed to take this one (a dead holder's lock on this very file is
  // judged when it is met): done once the open that got here has returned, so a fresh process does not wait for it.
  setImmediate(() => sweepRegistry(dir)).unref();
  return dir;
}

/**
 * Remove what processes of this machine left in the registry when they died (killed holders; a takeover
 * only cleans the locks of files opened again). Once per process; removes by exact token name only.
 */
function sweepRegistry(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const lockPath = path.join(dir, name);
    const tmpOf = /\.tmp-(\d+)-/.exec(name);
    if (tmpOf) {
      if (!pidAlive(Number(tmpOf[1]))) fs.rmSync(lockPath, { recursive: true, force: true });
      continue;
    }
    let view: View;
    try {
      view = inspect(lockPath);
    } catch {
      continue; // unreadable: left alone (a lock only ever blocks its own file)
    }
    if (view.kind === "empty") removeIfEmpty(lockPath);
    const pid = view.kind === "held" ? view.record.pid : undefined;
    if (
      view.kind === "held" &&
      view.record.machine === machine() &&
      pid !== undefined &&
      pid !== process.pid &&
      !pidAlive(pid)
    )
      remove(view.removal);
  }
}

function parseRecord(text: string): Partial<LockRecord> | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
    const r = v as Partial<LockRecord>;
    return typeof r.pid === "number" ? r : undefined;
  } catch {
    return undefined;
  }
}

/** Look at the lock at `lockPath` without changing anything. */
function inspect(lockPath: string): View {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(lockPath);
  } catch (e) {
    if (code(e) === "ENOENT") return { kind: "free" };
    throw e;
  }
  if (!st.isDirectory()) {
    // A lock file of an earlier version of this extension ({pid, hostname, time}), or something else.
    const removal = { file: lockPath };
    const claim = `file:${lockPath}:${st.ino}:${st.mtimeMs}`;
    let text = "";
    try {
      text = st.isFile() ? fs.readFileSync(lockPath, "utf8") : "";
    } catch (e) {
      if (code(e) === "ENOENT") return { kind: "free" };
    }
    const record = parseRecord(text);
    if (record) return { kind: "held", record, refreshedAt: st.mtimeMs, claim, removal };
    const detail = st.isFile() ? (text === "" ? "an empty lock file" : "an unreadable lock file") : "not a lock";
    return { kind: "damaged", detail, refreshedAt: st.mtimeMs, claim, removal };
  }
  let entries: string[];
  try {
    entries = fs.readdirSync(lockPath).sort();
  } catch (e) {
    if (code(e) === "ENOENT") return { kind: "free" };
    throw e;
  }
  if (entries.length === 0) return { kind: "empty" };
  const removal = { dir: lockPath, entries };
  if (entries.length === 1 && entries[0].endsWith(".json")) {
    const file = path.join(lockPath, entries[0]);
    let text: string;
    let tst: fs.Stats;
    try {
      tst = fs.statSync(file);
      text = fs.readFileSync(file, "utf8");
    } catch (e) {
      if (code(e) === "ENOENT") return { kind: "free" }; // released or taken over meanwhile: look again
      throw e;
    }
    const record = parseRecord(text);
    if (record && record.token === entries[0].slice(0, -".json".length))
      return { kind: "held", record, refreshedAt: tst.mtimeMs, claim: `token:${record.token}`, removal };
    const detail = text === "" ? "an empty lock file" : "an unreadable lock file";
    return { kind: "damaged", detail, refreshedAt: tst.mtimeMs, claim: `dir:${file}:${tst.ino}`, removal };
  }
  return {
    kind: "damaged",
    detail: `unexpected files in the lock folder: ${entries.slice(0, 5).join(", ")}`,
    refreshedAt: st.mtimeMs,
    claim: `dir:${lockPath}:${entries.join(",")}`,
    removal,
  };
}

/** Remove a judged lock by its exact names. A name already gone means someone else acted: look again. */
function remove(removal: Removal): void {
  if ("file" in removal) {
    try {
      fs.unlinkSync(removal.file);
    } catch {
      // gone, or a lock folder now (unlink never removes a folder): look again
    }
    return;
  }
  for (const entry of removal.entries) {
    try {
      fs.rmSync(path.join(removal.dir, entry), { recursive: true });
    } catch {
      return;
    }
  }
  removeIfEmpty(removal.dir);
}

function removeIfEmpty(dir: string): void {
  try {
    fs.rmdirSync(dir);
  } catch {
    // not empty (a new lock is in place) or gone
  }
}

/** Whether the holder of a readable lock is gone, or else how it holds the lock. */
function judge(view: Extract<View, { kind: "held" }>, site: Site, staleAfterMs: number): LockCondition | "gone" {
  const r = view.record;
  if (site.identity && !registryLockStillHeld(r, site.identity)) return "gone";
  const sameMachine = r.machine !== undefined ? r.machine === machine() : r.hostname === os.hostname();
  if (sameMachine && typeof r.pid === "number") {
    if (r.pid === process.pid) return r.token !== undefined && heldLocks.has(r.token) ? "this-process" : "gone";
    if (!pidAlive(r.pid)) return "gone";
    const start = r.start === undefined ? undefined : processStart(r.pid);
    if (start !== undefined && start !== r.start) return "gone"; // the pid was reused
  }
  const promised = 3 * Math.min(MAX_PROMISED_HEARTBEAT_MS, typeof r.heartbeatMs === "number" ? r.heartbeatMs : 0);
  return Date.now() - view.refreshedAt >= Math.max(staleAfterMs, promised) ? "unresponsive" : "live";
}

/**
 * A registry lock is held only together with its holder's lock beside the file, and only while the holder's
 * path still names this file: an inode is reused once its file is deleted, and a holder whose path was
 * deleted, renamed or replaced cannot write any more anyway.
 */
function registryLockStillHeld(r: Partial<LockRecord>, identity: FileIdentity): boolean {
  if (typeof r.nameLock !== "string" || typeof r.token !== "string" || typeof r.file !== "string") return false;
  if (!fs.existsSync(path.join(r.nameLock, `${r.token}.json`))) return false;
  const st = fs.statSync(r.file, { bigint: true, throwIfNoEntry: false });
  return st !== undefined && st.dev === identity.dev && st.ino === identity.ino;
}

function holderOf(view: View): LockHolderInfo | undefined {
  if (view.kind !== "held") return undefined;
  const r = view.record;
  return { pid: r.pid, hostname: r.hostname, time: r.time };
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const lock of [...heldLocks.values()]) lock.release();
  });
}

/** A held writer lock (see the file comment). */
export class SessionLock {
  private readonly token = randomBytes(8).toString("hex");
  private sites: Site[] = [];
  private readonly listeners = new Set<(newHolder: LockHolderInfo | undefined, reason: LockLossReason) => void>();
  private readonly heartbeatMs: number;
  private timer: NodeJS.Timeout | undefined;
  private beating = false;
  private lost = false;
  private released = false;

  private constructor(
    /** The session file as the caller named it (messages). */
    private readonly file: string,
    /** Its real path (the lock beside it). */
    private readonly realFile: string,
    private readonly opts: LockOptions,
  ) {
    this.heartbeatMs = Math.max(50, opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
  }

  /**
   * Take the writer lock of `file` (real path `realFile`; `identity` when the file exists), or throw
   * SessionLockedError. The lock is refreshed every heartbeat until release().
   */
  static acquire(
    file: string,
    realFile: string,
    identity: FileIdentity | undefined,
    opts: LockOptions = {},
  ): SessionLock {
    const lock = new SessionLock(file, realFile, opts);
    // Registered first: another SessionManager of this process that meets this lock knows it is ours.
    heldLocks.set(lock.token, lock);
    installExitHook();
    try {
      lock.take({ path: `${realFile}.lock` });
      if (identity) lock.bindIdentity(identity);
    } catch (e) {
      lock.release();
      throw e;
    }
    lock.timer = setInterval(() => lock.beat(), lock.heartbeatMs);
    lock.timer.unref();
    return lock;
  }

  /** Also lock the file's identity (a file created after the lock was taken). Throws SessionLockedError. */
  bindIdentity(identity: FileIdentity): void {
    if (this.sites.some((s) => s.identity)) return;
    this.take({
      path: path.join(registryDir(), `${identityKey(identity)}.lock`),
      identity,
      nameLock: this.sites[0]?.path,
    });
  }

  /**
   * The file was replaced by a new one under the same path (an atomic rewrite): lock the new file's identity
   * and let go of the old one's. The lock beside the file is kept throughout, so no other writer gets in
   * between. Throws SessionLockedError when the new identity is locked (it cannot be: the file is new).
   */
  rebindIdentity(identity: FileIdentity): void {
    const old = this.sites.filter((s) => s.identity);
    this.sites = this.sites.filter((s) => !s.identity);
    try {
      this.bindIdentity(identity);
    } catch (e) {
      this.sites.push(...old);
      throw e;
    }
    for (const site of old) this.dropSite(site);
  }

  /**
   * True while this process still holds the lock (its tokens are in place). Checked before every write:
   * a lock taken over meanwhile makes this false for good, and the listeners of onLost hear of it.
   */
  verify(): boolean {
    if (this.lost || this.released) return false;
    for (const site of this.sites) {
      if (!fs.statSync(this.tokenPath(site), { throwIfNoEntry: false })) {
        this.markLost(site);
        return false;
      }
    }
    return true;
  }

  /**
   * Called once when this process finds its lock gone (on a write or a heartbeat): taken over, or deleted with
   * the file or its folder.
   */
  onLost(listener: (newHolder: LockHolderInfo | undefined, reason: LockLossReason) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Release the lock (only this process's own tokens are removed). Idempotent. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.stop();
    for (const site of [...this.sites].reverse()) this.dropSite(site);
  }

  // ---------------------------------------------------------------- internals

  private record(site: Site): LockRecord {
    const record: LockRecord = {
      pid: process.pid,
      hostname: os.hostname(),
      machine: machine(),
      token: this.token,
      time: new Date().toISOString(),
      heartbeatMs: this.heartbeatMs,
      file: this.realFile,
    };
    const start = ownStart();
    if (start !== undefined) record.start = start;
    if (site.nameLock) record.nameLock = site.nameLock;
    return record;
  }

  private tokenPath(site: Site): string {
    return path.join(site.path, `${this.token}.json`);
  }

  /** Acquire one lock folder (see the file comment), or throw SessionLockedError. */
  private take(site: Site): void {
    const staleAfterMs = this.opts.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (this.install(site)) {
        this.sites.push(site);
        return;
      }
      const view = inspect(site.path);
      if (view.kind === "free") continue;
      if (view.kind === "empty") {
        removeIfEmpty(site.path);
        continue;
      }
      const condition = view.kind === "damaged" ? "damaged" : judge(view, site, staleAfterMs);
      const canTakeOver = condition === "unresponsive" || condition === "damaged";
      if (condition === "gone" || (canTakeOver && this.opts.takeOver === view.claim)) {
        this.opts.hooks?.beforeRemove?.(site.path);
        remove(view.removal);
        continue;
      }
      throw new SessionLockedError(this.file, holderOf(view), {
        condition,
        canTakeOver,
        claim: view.claim,
        refreshedAt: new Date(view.refreshedAt).toISOString(),
        detail: view.kind === "damaged" ? view.detail : undefined,
      });
    }
    throw new SessionLockedError(this.file, undefined, { condition: "busy", canTakeOver: false });
  }

  /** Build the lock under a private name and rename it into place; false when a lock is there. */
  private install(site: Site): boolean {
    const tmp = `${site.path}.tmp-${process.pid}-${this.token}`;
    // The name holds this lock's random token, so nothing is there but what an earlier attempt of this very
    // lock left (it removes its own on failure): removed only then, which spares a look on every open.
    try {
      fs.mkdirSync(tmp);
    } catch (e) {
      if (code(e) !== "EEXIST") throw e;
      fs.rmSync(tmp, { recursive: true, force: true });
      fs.mkdirSync(tmp);
    }
    let installed = false;
    try {
      fs.writeFileSync(path.join(tmp, `${this.token}.json`), JSON.stringify(this.record(site)));
      try {
        fs.renameSync(tmp, site.path);
        installed = true;
        return true;
      } catch (e) {
        // A lock folder with a token in it (EEXIST, ENOTEMPTY), a lock file of an earlier version (ENOTDIR, also
        // when another opener removed it right after the rename failed), or on Windows any folder, is in the way.
        // The caller looks again at what is there now.
        this.opts.hooks?.afterInstallFailed?.(site.path, e);
        if (LOCK_IN_THE_WAY.has(code(e) ?? "") || fs.lstatSync(site.path, { throwIfNoEntry: false })) return false;
        throw e;
      }
    } finally {
      if (!installed) fs.rmSync(tmp, { recursive: true, force: true });
    }
  }

  /** Refresh the lock (mtime of the tokens), after the `alive` round trip when there is one. */
  private beat(): void {
    if (this.beating || this.lost || this.released) return;
    const alive = this.opts.alive;
    if (!alive) {
      this.touch();
      return;
    }
    this.beating = true;
    Promise.resolve()
      .then(alive)
      .then(
        () => {
          this.beating = false;
          this.touch();
        },
        () => {
          this.beating = false;
        },
      );
  }

  private touch(): void {
    if (this.lost || this.released) return;
    const now = new Date();
    for (const site of this.sites) {
      try {
        fs.utimesSync(this.tokenPath(site), now, now);
      } catch (e) {
        if (code(e) === "ENOENT") {
          this.markLost(site);
          return;
        }
        // A transient I/O error: the next heartbeat tries again.
      }
    }
  }

  private markLost(site: Site): void {
    if (this.lost) return;
    this.lost = true;
    this.stop();
    const newHolder = holderOf(inspect(site.path));
    // A session file that is no longer there took its lock with it (its folder was deleted, say): nobody took over.
    const reason: LockLossReason = fs.existsSync(this.realFile) ? "taken-over" : "file-gone";
    // Our other token (if any) would only block the new holder.
    for (const s of this.sites) if (s !== site) this.dropSite(s);
    for (const l of [...this.listeners]) {
      try {
        l(newHolder, reason);
      } catch {
        // a failing listener must not break the store
      }
    }
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    heldLocks.delete(this.token);
  }

  private dropSite(site: Site): void {
    try {
      fs.unlinkSync(this.tokenPath(site));
    } catch {
      return; // not ours any more: leave the folder to its holder
    }
    removeIfEmpty(site.path);
  }
}
