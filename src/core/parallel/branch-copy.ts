/**
 * A branch's own copy of a workspace folder (docs/parallel.md): the folder's files as a checkpoint recorded them,
 * written into a folder outside the workspace, where the branch's tools run. The copy is read out of the folder's
 * shadow repository (the checkpoint store) with its own index, and the branch's turns are recorded back into that
 * same repository as commits on a ref of the copy's own: so a branch row's checkpoint entries name the workspace
 * folder, and Show Changes, compare and the three-way merge of Bring Conclusions Here read them as they read the
 * workspace's own checkpoints. The user's files and the folder's own checkpoint branch are never touched.
 *
 * Starting a copy is immediate: its folder and `copy.json` are made, then git writes the files in the background;
 * `ready` tells when they are all there, and every use of the files (the branch's tools, its checkpoints, its line
 * counts) waits for it. So a branch sends its first request at once, and writing 10,000 files (seconds on a busy
 * machine) overlaps the model's first reply.
 *
 * Layout: `<copiesDir>/<key>/copy.json` (who owns it), `<key>/index` (git's stat cache of the copy) and
 * `<key>/files/` (the work folder); `<copiesDir>/<key>.lock` while its maker holds it.
 *
 * The maker's claim: a window that makes a copy takes the writer lock of src/core/session/lock.ts on the copy's
 * folder (`<key>.lock`, refreshed every 10 s, released when the process exits) *before* the folder exists, and
 * holds it while the branch runs. A clean-up, in this window or another, removes a copy only after taking that
 * lock itself, which it cannot while the maker's process lives; so a copy still being made (no `copy.json` yet, or
 * no branch in a session file yet) or one whose branch runs is never removed, and one whose maker died is.
 */
import { randomBytes } from "node:crypto";
import { lstatSync, readdirSync, type Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { GitRunner, type GitLocation } from "../checkpoints/git-runner.js";
import { commitMessage, isCommitId, parseCommitMeta } from "../checkpoints/shadow-repo.js";
import { rawDiff, toFileChange } from "../checkpoints/tree-diff.js";
import type { FileChange } from "../checkpoints/types.js";
import { SessionLock } from "../session/lock.js";
import { errorText } from "../error-text.js";

/** What `copy.json` records: the copy's owner, so one found at start-up can be judged an orphan. */
export interface BranchCopyInfo {
  version: 1;
  /** The copy's folder name under the copies folder. */
  key: string;
  /** The workspace folder it copies. */
  folder: string;
  /** The session file whose branch works in it (undefined for a session not written yet). */
  sessionFile?: string;
  /** The branch's first entry, once written. */
  branchId?: string;
  /** The checkpoint it was made from. */
  fromCheckpoint: string;
  createdAt: string;
}

/** One changed file and its line counts. */
export interface FileLineStat {
  path: string;
  added: number;
  removed: number;
}

/** A recorded state of the copy. */
export interface CopyCheckpoint {
  /** The commit, in the folder's shadow repository. */
  id: string;
  tree: string;
  /** False when the files were as the previous checkpoint left them (`id` is that one). */
  created: boolean;
  /** What changed since the previous checkpoint of the copy (or the one it was made from). */
  changes: FileChange[];
}

/** How to make a copy. */
export interface MaterializeOptions {
  /** The workspace folder (as the checkpoint engine was opened on it). */
  folder: string;
  /** The folder's checkpoint store (`FolderCheckpoints.storeDir`): its `git` repository holds the checkpoint. */
  storeDir: string;
  /** The checkpoint (commit id) whose files the copy starts with. */
  checkpointId: string;
  /** Where copies live: outside every workspace folder (e.g. under the extension's storage). */
  copiesDir: string;
  sessionFile?: string;
  /** The environment git runs with (its PATH finds git); default process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * The files are written once this settles (e.g. the previous copy's `ready`): copies started together are
   * written one after another, so the first branches get theirs soonest instead of all getting theirs last.
   */
  after?: Promise<unknown>;
}

/** The ref that keeps a copy's checkpoints reachable in the shared repository. */
function copyRef(key: string): string {
  return `refs/agent-tree/copies/${key}`;
}

/** True when `child` is `parent` or inside it. */
function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * git's parallel checkout while a copy is written: two workers. Measured on a 2-core machine under load for 10,000
 * files (docs/parallel.md): one worker (git's default) was the slowest in the median, "auto" (one per core) no
 * better than two.
 */
const CHECKOUT_CONFIG = ["-c", "checkout.workers=2", "-c", "checkout.thresholdForParallelism=1"];

/** Where a copy stands: its files being written, all written, their writing failed, or the copy removed. */
type CopyState = "filling" | "complete" | "failed" | "removed";

/**
 * See the file comment. Make one with `BranchCopy.materialize()` (it returns at once; the files arrive in the
 * background and `ready` says when they are all there), or reopen one with `BranchCopy.open()`.
 */
export class BranchCopy {
  private head: { commit: string; tree: string };
  private state: CopyState;
  private readonly ready_: Promise<void>;
  /** Stops the writing of the files (kills the git process) when the copy is removed before it is complete. */
  private readonly stopFill = new AbortController();
  /** Writes of `copy.json` and the removal of the folder, one after another (never a write into a removed copy). */
  private serial: Promise<unknown> = Promise.resolve();
  /** The maker's claim (see the file comment) until `release()` or `remove()`. */
  private claim: SessionLock | undefined;

  private constructor(
    /** The copy's own folder under the copies folder. */
    readonly root: string,
    readonly info: BranchCopyInfo,
    private readonly git: GitRunner,
    head: { commit: string; tree: string },
    fill?: (copy: BranchCopy, signal: AbortSignal) => Promise<string>,
    claim?: SessionLock,
  ) {
    this.claim = claim;
    this.head = head;
    this.state = fill ? "filling" : "complete";
    this.ready_ = fill ? this.watchFill(fill(this, this.stopFill.signal)) : Promise.resolve();
    // Whoever needs the files waits for `ready` and gets its error; an unobserved failure must not crash the host.
    this.ready_.catch(() => undefined);
  }

  /** The folder the branch's tools run in. */
  get dir(): string {
    return path.join(this.root, "files");
  }

  /** The latest checkpoint of the copy (at first, the one it was made from). */
  get latest(): string {
    return this.head.commit;
  }

  /**
   * Resolves when every file of the checkpoint is in `dir`; rejects with a clear error when they cannot be written
   * (the copy is then removed) or the copy was removed first. Every use of the copy's files waits for it.
   */
  get ready(): Promise<void> {
    return this.ready_;
  }

  /** True once every file is written. */
  get complete(): boolean {
    return this.state === "complete";
  }

  /**
   * Starts a copy of the files of `checkpointId` in a new folder under `copiesDir` and returns at once: the folder
   * and its `copy.json` exist, the files are written in the background (`ready`). Throws when `copiesDir` lies
   * inside the workspace folder (the copy would be recorded as the workspace's files), the id is not a commit id,
   * or the folder cannot be made; a failure leaves nothing behind. The copy is claimed (see the file comment) until
   * `release()` or `remove()`.
   */
  static async materialize(options: MaterializeOptions): Promise<BranchCopy> {
    const folder = path.resolve(options.folder);
    const copiesDir = path.resolve(options.copiesDir);
    if (isInside(folder, copiesDir))
      throw new Error(`Branch copies cannot live inside the workspace folder ${folder}: ${copiesDir}`);
    if (!isCommitId(options.checkpointId)) throw new Error(`Not a checkpoint id: ${options.checkpointId}`);
    const key = `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
    const root = path.join(copiesDir, key);
    const info: BranchCopyInfo = {
      version: 1,
      key,
      folder,
      ...(options.sessionFile !== undefined ? { sessionFile: options.sessionFile } : {}),
      fromCheckpoint: options.checkpointId,
      createdAt: new Date().toISOString(),
    };
    // Claimed before the folder exists: no clean-up can take a copy it finds half made.
    await fs.mkdir(copiesDir, { recursive: true });
    const claim = SessionLock.acquire(root, root, undefined);
    try {
      await fs.mkdir(path.join(root, "files"), { recursive: true });
      await writeInfo(root, info);
    } catch (error) {
      await fs.rm(root, { recursive: true, force: true });
      claim.release();
      throw error;
    }
    const git = runnerFor(options.storeDir, root, options.env);
    const after = options.after?.catch(() => undefined);
    const fill = async (copy: BranchCopy, signal: AbortSignal): Promise<string> => {
      // A copy removed while it waits for its turn stops waiting.
      await Promise.race([after, new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }))]);
      return writeFiles(copy, git, options.checkpointId, signal);
    };
    return new BranchCopy(root, info, git, { commit: options.checkpointId, tree: "" }, fill, claim);
  }

  /**
   * Lets go of the maker's claim (its branch ended): from now on a clean-up judges the copy by its owner in
   * `copy.json` (see removeOrphanCopies). Idempotent.
   */
  release(): void {
    this.claim?.release();
    this.claim = undefined;
  }

  /** Follows the writing of the files: the copy is complete, or it failed and is removed. */
  private async watchFill(filling: Promise<string>): Promise<void> {
    try {
      const tree = await filling;
      if (this.state !== "filling") throw new Error("removed");
      this.head = { ...this.head, tree };
      this.state = "complete";
    } catch (error) {
      const removed = this.state === "removed";
      if (!removed) this.state = "failed";
      await this.inTurn(() => removeCopy(this.root, this.git)).catch(() => undefined);
      this.release();
      const where = `The branch's copy of ${this.info.folder} (checkpoint ${this.info.fromCheckpoint.slice(0, 12)})`;
      if (removed) throw new Error(`${where} was removed before all its files were written`);
      const reason = errorText(error);
      throw new Error(`${where} could not be made: ${reason}`, { cause: error });
    }
  }

  /** Runs `op` after the copy's earlier `copy.json` writes and removals. */
  private inTurn<T>(op: () => Promise<T>): Promise<T> {
    const run = this.serial.then(op, op);
    this.serial = run.catch(() => undefined);
    return run;
  }

  /** Reopens a copy made earlier (by this or another process). */
  static async open(root: string, storeDir: string, env?: NodeJS.ProcessEnv): Promise<BranchCopy> {
    const info = await readInfo(root);
    if (!info) throw new Error(`Not a branch copy: ${root}`);
    const git = runnerFor(storeDir, root, env);
    const commit = (await git.text(["rev-parse", "--verify", "-q", copyRef(info.key)], { okCodes: [0, 1] })) || "";
    const id = commit || info.fromCheckpoint;
    const tree = await git.text(["rev-parse", `${id}^{tree}`]);
    return new BranchCopy(root, info, git, { commit: id, tree });
  }

  /** Records who works in the copy once the branch's first entry is written. */
  async setOwner(sessionFile: string | undefined, branchId: string): Promise<void> {
    this.info.branchId = branchId;
    if (sessionFile !== undefined) this.info.sessionFile = sessionFile;
    // It does not wait for the files; a copy that failed or was removed meanwhile has no folder to write into.
    await this.inTurn(async () => {
      if (this.state === "filling" || this.state === "complete") await writeInfo(this.root, this.info);
    });
  }

  /**
   * Records the copy's files as a commit in the folder's shadow repository (the user's `.gitignore` rules in the
   * copy apply, as they do to the workspace's checkpoints). Unchanged files give the previous checkpoint with
   * `created: false`.
   */
  async checkpoint(reason: string, signal?: AbortSignal): Promise<CopyCheckpoint> {
    await this.ready_;
    await this.git.run(["add", "-A", "."], { signal });
    const tree = await this.git.text(["write-tree"], { signal });
    const previous = this.head;
    if (tree === previous.tree) return { id: previous.commit, tree, created: false, changes: [] };
    const commit = await this.git.text(["commit-tree", tree, "-p", previous.commit], {
      input: commitMessage({ reason, emptyDirs: [] }),
      signal,
    });
    await this.git.run(["update-ref", copyRef(this.info.key), commit, previous.commit]);
    this.head = { commit, tree };
    const changes = (await rawDiff(this.git, previous.tree, tree, { signal })).map(toFileChange);
    return { id: commit, tree, created: true, changes };
  }

  /**
   * Files changed from the checkpoint the copy was made from to its latest checkpoint, with added and removed
   * lines (binary files count none).
   */
  async lineStats(): Promise<FileLineStat[]> {
    await this.ready_;
    if (this.head.commit === this.info.fromCheckpoint) return [];
    const out = await this.git.run([
      "diff-tree",
      "-r",
      "-z",
      "--numstat",
      "--no-renames",
      this.info.fromCheckpoint,
      this.head.commit,
    ]);
    const stats: FileLineStat[] = [];
    for (const rec of out.stdout.toString("utf8").split("\0")) {
      const m = /^(-|\d+)\t(-|\d+)\t(.+)$/s.exec(rec);
      if (!m) continue;
      stats.push({ path: m[3], added: m[1] === "-" ? 0 : Number(m[1]), removed: m[2] === "-" ? 0 : Number(m[2]) });
    }
    return stats;
  }

  /**
   * Removes the copy's folder and its ref (its checkpoints stay readable while entries name them). A copy whose
   * files are still being written stops that first (its git process is killed): nothing is left behind.
   */
  async remove(): Promise<void> {
    const filling = this.state === "filling";
    this.state = "removed";
    if (filling) this.stopFill.abort();
    await this.ready_.catch(() => undefined);
    try {
      await this.inTurn(() => removeCopy(this.root, this.git));
    } finally {
      this.release();
    }
  }
}

/**
 * Writes the files of `checkpointId` into the copy's folder: an index of the copy's own, then every file written
 * from it by git (no file passes through this process). Resolves with the checkpoint's tree.
 */
async function writeFiles(
  copy: BranchCopy,
  git: GitRunner,
  checkpointId: string,
  signal: AbortSignal,
): Promise<string> {
  const raw = (await git.run(["cat-file", "commit", checkpointId], { signal })).stdout.toString("utf8");
  const tree = /^tree ([0-9a-f]+)$/m.exec(raw)?.[1];
  if (!tree) throw new Error(`Checkpoint ${checkpointId} has no tree`);
  await git.run(["read-tree", checkpointId], { signal });
  await git.run([...CHECKOUT_CONFIG, "checkout-index", "-a", "-f", "-q"], { signal });
  for (const dir of parseCommitMeta(raw).emptyDirs) {
    if (signal.aborted) throw new Error("removed");
    await fs.mkdir(path.join(copy.dir, ...dir.split("/")), { recursive: true });
  }
  await git.run(["update-ref", copyRef(copy.info.key), checkpointId], { signal });
  return tree;
}

function runnerFor(storeDir: string, root: string, env?: NodeJS.ProcessEnv): GitRunner {
  const location: GitLocation = {
    gitDir: path.join(storeDir, "git"),
    workTree: path.join(root, "files"),
    indexFile: path.join(root, "index"),
  };
  return new GitRunner(location, env ?? process.env);
}

async function writeInfo(root: string, info: BranchCopyInfo): Promise<void> {
  const file = path.join(root, "copy.json");
  await fs.writeFile(file + ".tmp", JSON.stringify(info, null, 2) + "\n");
  await fs.rename(file + ".tmp", file);
}

async function readInfo(root: string): Promise<BranchCopyInfo | undefined> {
  try {
    const v = JSON.parse(await fs.readFile(path.join(root, "copy.json"), "utf8")) as Partial<BranchCopyInfo>;
    if (v.version !== 1 || typeof v.key !== "string" || typeof v.folder !== "string") return undefined;
    if (typeof v.fromCheckpoint !== "string") return undefined;
    return v as BranchCopyInfo;
  } catch {
    return undefined;
  }
}

async function removeCopy(root: string, git?: GitRunner): Promise<void> {
  const info = await readInfo(root);
  if (git && info) await git.run(["update-ref", "-d", copyRef(info.key)], { okCodes: [0, 1] }).catch(() => undefined);
  await fs.rm(root, { recursive: true, force: true, maxRetries: 3 });
}

/** A copy found under the copies folder, and its size on disk. */
export interface FoundCopy {
  root: string;
  /** Undefined when `copy.json` is missing or damaged (a copy that was being made or removed). */
  info?: BranchCopyInfo;
  bytes: number;
}

/** A maker's claim beside a copy (`<key>.lock`), or one being put in place (`<key>.lock.tmp-…`): not a copy. */
const CLAIM_NAME = /\.lock(\.tmp-.*)?$/;

/** Every copy under `copiesDir`, with its size (files and folders walked, links not followed). */
export async function listBranchCopies(copiesDir: string): Promise<FoundCopy[]> {
  const names = await fs.readdir(copiesDir).catch(() => [] as string[]);
  const out: FoundCopy[] = [];
  for (const name of names.sort()) {
    if (CLAIM_NAME.test(name)) continue;
    const root = path.join(copiesDir, name);
    const st = await fs.lstat(root).catch(() => undefined);
    if (!st?.isDirectory()) continue;
    const info = await readInfo(root);
    out.push({ root, ...(info ? { info } : {}), bytes: await folderBytes(root) });
  }
  return out;
}

/** Entries a walk of `folderBytes` looks at between two turns of the event loop. */
const WALK_SLICE = 256;

/**
 * Bytes of the files under `dir` (bounded by the file system; links are counted, not followed). It runs while
 * branches do (the size cap, copies-cap.ts), so it is fast and yields: synchronous calls in slices of WALK_SLICE
 * entries, each a few milliseconds, with a turn of the event loop between them. One awaited `lstat` per file took
 * 1–3 s for 10,000 files on a loaded 2-core machine, slices 0.1–0.25 s (`npm run bench` prints a cap check).
 */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  let sinceTurn = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop() as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue; // gone meanwhile, or unreadable
    }
    for (const e of entries) {
      const p = path.join(current, e.name);
      if (e.isDirectory()) stack.push(p);
      else {
        try {
          total += lstatSync(p, { throwIfNoEntry: false })?.size ?? 0;
        } catch {
          // unreadable: counts nothing
        }
      }
    }
    sinceTurn += entries.length + 1;
    if (sinceTurn >= WALK_SLICE) {
      sinceTurn = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return total;
}

/** The maker's claim on the copy at `root` taken by this caller, or undefined when someone living holds it. */
function tryClaim(root: string): SessionLock | undefined {
  try {
    return SessionLock.acquire(root, root, undefined);
  } catch {
    // Held by a living process (this one included), unresponsive, damaged or unreadable: the copy is left alone.
    return undefined;
  }
}

/**
 * Removes the copies `isOrphan` picks (a copy whose branch is gone, archived or adopted, or whose session file is
 * gone; one without a readable `copy.json` is always an orphan), except those a living process claims (being made,
 * or their branch running: see the file comment). Returns the removed folders. Refs of removed copies are left to
 * `removeCopyRef` by whoever holds the store (a ref only keeps objects alive).
 */
export async function removeOrphanCopies(
  copiesDir: string,
  isOrphan: (info: BranchCopyInfo) => boolean | Promise<boolean>,
  storeDirOf?: (folder: string) => string | undefined,
  env?: NodeJS.ProcessEnv,
): Promise<string[]> {
  const removed: string[] = [];
  for (const found of await listBranchCopies(copiesDir)) {
    const claim = tryClaim(found.root);
    if (!claim) continue;
    try {
      // Read again under the claim: its maker may have written it since the listing.
      const info = await readInfo(found.root);
      if (info && !(await isOrphan(info))) continue;
      const storeDir = info ? storeDirOf?.(info.folder) : undefined;
      await removeCopy(found.root, storeDir ? runnerFor(storeDir, found.root, env) : undefined);
      removed.push(found.root);
    } finally {
      claim.release();
    }
  }
  // Claims whose copy is gone (its maker died while removing it): taken and so removed.
  for (const name of await fs.readdir(copiesDir).catch(() => [] as string[])) {
    if (!name.endsWith(".lock")) continue;
    const root = path.join(copiesDir, name.slice(0, -".lock".length));
    if (!(await fs.lstat(root).catch(() => undefined))) tryClaim(root)?.release();
  }
  return removed;
}

/** Thrown when a new copy would take the copies over their size cap. */
export class CopySizeCapError extends Error {
  constructor(
    readonly usedBytes: number,
    readonly neededBytes: number,
    readonly capBytes: number,
  ) {
    super(
      `Branch copies would take ${formatMiB(usedBytes + neededBytes)} (${formatMiB(usedBytes)} in use, ` +
        `${formatMiB(neededBytes)} for the new ones), over the cap of ${formatMiB(capBytes)} ` +
        `(agentTree.parallel.maxCopiesSizeMB). Adopt, archive or delete finished branches, or raise the cap.`,
    );
    this.name = "CopySizeCapError";
  }
}

function formatMiB(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * Throws CopySizeCapError when `count` new copies of `checkpointId` would take the copies under `copiesDir` over
 * `capBytes`. The new copies' size is the checkpoint's recorded files (read from the shadow repository).
 */
export async function assertCopiesFit(options: {
  copiesDir: string;
  storeDir: string;
  checkpointId: string;
  count: number;
  capBytes: number;
  env?: NodeJS.ProcessEnv;
}): Promise<void> {
  const used = (await listBranchCopies(options.copiesDir)).reduce((sum, c) => sum + c.bytes, 0);
  const git = new GitRunner(
    {
      gitDir: path.join(options.storeDir, "git"),
      workTree: options.storeDir,
      indexFile: path.join(options.storeDir, "index"),
    },
    options.env ?? process.env,
  );
  const { stdout } = await git.run(["ls-tree", "-r", "-l", "-z", "--full-tree", options.checkpointId]);
  let one = 0;
  for (const rec of stdout.toString("utf8").split("\0")) {
    const size = Number(rec.slice(0, rec.indexOf("\t")).trim().split(/\s+/)[3]);
    if (Number.isFinite(size)) one += size;
  }
  const needed = one * options.count;
  if (used + needed > options.capBytes) throw new CopySizeCapError(used, needed, options.capBytes);
}
