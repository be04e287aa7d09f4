/**
 * The checkpoint engine of one workspace folder (docs/checkpoints.md): records the folder's files in a shadow git
 * repository stored outside it, lists and reads what a checkpoint holds, and restores the folder to a checkpoint
 * all or nothing, with an undo. Operations on one instance run one at a time, in call order.
 */
import fs from "node:fs/promises";
import path from "node:path";
import {
  CheckpointError,
  CheckpointNotFoundError,
  CheckpointUnavailableError,
  DirtyFilesError,
  GitCommandError,
  NothingToUndoError,
} from "./errors.js";
import { assertSafeRelative, toFolderRelative } from "./folder-paths.js";
import { checkGitVersion, GitRunner, splitNul } from "./git-runner.js";
import { IgnoreSync } from "./ignore-sync.js";
import { readLastRestore, writeLastRestore, type LastRestore } from "./last-restore.js";
import { applyRestorePlan, nodeRestoreFileSystem, type RestoreFileSystem } from "./restore-apply.js";
import { mergeTrees, type TreeMerge } from "./merge.js";
import { planChanges, planRestoreOps, type DetailedPlan } from "./restore-plan.js";
import {
  CHECKPOINT_REF,
  commitMessage,
  defaultCheckpointStorageDir,
  engineIgnoreRules,
  ensureShadowRepo,
  isCommitId,
  parseCommitMeta,
  shadowLocation,
} from "./shadow-repo.js";
import { GITLINK_MODE, numstatDiff, rawDiff, toFileChange, type LineCounts } from "./tree-diff.js";
import {
  DEFAULT_CHECKPOINT_LIMITS,
  type CheckpointLimits,
  type CheckpointResult,
  type FileChange,
  type MergedFile,
  type MergePlan,
  type MergeResult,
  type RestoreOptions,
  type RestorePlan,
  type RestoreResult,
} from "./types.js";
import { scanFolder } from "./workspace-scan.js";

/** How to open the engine of one folder. */
export interface FolderCheckpointsOptions {
  /** The workspace folder (absolute). */
  folder: string;
  /** Where stores live (one sub-folder per workspace folder); default `defaultCheckpointStorageDir()`. */
  storageDir?: string;
  /** Caps (defaults: DEFAULT_CHECKPOINT_LIMITS). */
  limits?: Partial<CheckpointLimits>;
  /** The environment git runs with (its PATH finds git); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** The file operations of restores; default the real file system. */
  restoreFs?: RestoreFileSystem;
}

const ZERO_ID = "0000000000000000000000000000000000000000";

interface Head {
  commit: string;
  tree: string;
  emptyDirs: string[];
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(0)} MiB` : `${Math.ceil(n / 1024)} KiB`;
}

/** See the file comment. Create with `FolderCheckpoints.open()`. */
export class FolderCheckpoints {
  /** The folder as given. */
  readonly folder: string;
  /** The store of this folder (shadow repository and index). */
  readonly storeDir: string;
  readonly limits: Readonly<CheckpointLimits>;

  private head: Head | undefined;
  /** Sizes of the recorded files (for the caps), loaded on first need. */
  private sizes: Map<string, number> | undefined;
  private emptyTree: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    folder: string,
    private readonly realFolder: string,
    private readonly git: GitRunner,
    storeDir: string,
    private readonly ignores: IgnoreSync,
    limits: CheckpointLimits,
    private readonly restoreFs: RestoreFileSystem,
  ) {
    this.folder = folder;
    this.storeDir = storeDir;
    this.limits = limits;
  }

  /**
   * Opens (creating on first use) the store of `options.folder`. Throws CheckpointUnavailableError when
   * checkpoints cannot work there: no git on PATH, git too old, not a folder, storage inside the folder.
   */
  static async open(options: FolderCheckpointsOptions): Promise<FolderCheckpoints> {
    const folder = path.resolve(options.folder);
    const st = await fs.stat(folder).catch(() => undefined);
    if (!st?.isDirectory())
      throw new CheckpointUnavailableError(
        "not-a-folder",
        `Files cannot follow the session tree: ${folder} is not a folder on this machine.`,
        folder,
      );
    const realFolder = await fs.realpath(folder);
    const storageDir = path.resolve(options.storageDir ?? defaultCheckpointStorageDir(options.env));
    await fs.mkdir(storageDir, { recursive: true }).catch(() => undefined);
    const realStorage = await fs.realpath(storageDir).catch(() => storageDir);
    const location = shadowLocation(realStorage, realFolder);
    const git = new GitRunner(location, options.env ?? process.env);
    await checkGitVersion(git, folder);
    await ensureShadowRepo(git, location);
    const limits = { ...DEFAULT_CHECKPOINT_LIMITS, ...options.limits };
    const engine = new FolderCheckpoints(
      folder,
      realFolder,
      git,
      location.storeDir,
      new IgnoreSync(git, realFolder, engineIgnoreRules(realFolder, realStorage)),
      limits,
      options.restoreFs ?? nodeRestoreFileSystem,
    );
    await engine.loadHead();
    return engine;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async loadHead(): Promise<void> {
    const commit = await this.git.text(["rev-parse", "--verify", "-q", "HEAD"], { okCodes: [0, 1] });
    this.head = commit ? await this.verify(commit) : undefined;
    this.sizes = undefined;
  }

  /**
   * Another window on the same folder shares this store and may have added checkpoints since: the branch's ref
   * file (loose, as nothing here packs refs) is read without starting git, and the head reloaded when it moved.
   */
  private async refreshHead(): Promise<void> {
    const ref = await fs
      .readFile(path.join(this.git.location.gitDir, ...CHECKPOINT_REF.split("/")), "utf8")
      .catch(() => undefined);
    if (ref === undefined || ref.trim() !== this.head?.commit) await this.loadHead();
  }

  /** Resolves `id` to a checkpoint of this store or throws CheckpointNotFoundError. */
  private async verify(id: string): Promise<Head> {
    if (!isCommitId(id)) throw new CheckpointNotFoundError(id);
    const out = await this.git.run(["cat-file", "commit", id], { okCodes: [0, 128] });
    const raw = out.stdout.toString("utf8");
    const tree = /^tree ([0-9a-f]+)$/m.exec(raw)?.[1];
    if (out.exitCode !== 0 || !tree) throw new CheckpointNotFoundError(id);
    return { commit: id, tree, emptyDirs: parseCommitMeta(raw).emptyDirs };
  }

  // ---- recording ------------------------------------------------------------------------------

  /**
   * Records the folder's files (see the file comment). Resolves to the new checkpoint, or to the previous one
   * with `created: false` when nothing changed. Throws CheckpointUnavailableError("too-large") when the folder
   * is over the caps (nothing is recorded then) and CheckpointAbortedError when `signal` aborts.
   */
  checkpoint(options: { reason?: string; signal?: AbortSignal } = {}): Promise<CheckpointResult> {
    return this.serial(() => this.record(options.reason ?? "checkpoint", options.signal));
  }

  /** The latest checkpoint of this folder, if any. */
  latest(): Promise<string | undefined> {
    return this.serial(async () => this.head?.commit);
  }

  private async recordedSizes(): Promise<Map<string, number>> {
    if (this.sizes) return this.sizes;
    const sizes = new Map<string, number>();
    if (this.head) {
      const { stdout } = await this.git.run(["ls-tree", "-r", "-l", "-z", "--full-tree", this.head.commit]);
      for (const rec of splitNul(stdout)) {
        const tab = rec.indexOf("\t");
        const size = Number(rec.slice(0, tab).trim().split(/\s+/)[3]);
        if (Number.isFinite(size)) sizes.set(rec.slice(tab + 1), size);
      }
    }
    this.sizes = sizes;
    return sizes;
  }

  /** `withChanges: false` (the checkpoint before a restore) leaves `changes` empty and saves a diff. */
  private async record(reason: string, signal?: AbortSignal, withChanges = true): Promise<CheckpointResult> {
    await this.refreshHead();
    const rulesChanged = await this.ignores.sync();
    const scan = await scanFolder(this.git, this.realFolder, this.limits.maxFileBytes, signal);
    const rulesMayDiffer = rulesChanged || scan.ignoreFilesChanged;
    if (rulesMayDiffer) {
      // Dropped from the record like any file that is not recorded; a restore then leaves them alone.
      const removing = new Set(scan.remove);
      for (const p of await this.ignores.recordedButIgnored(signal)) {
        scan.update.delete(p);
        if (!removing.has(p)) scan.remove.push(p);
      }
    }
    const knownDirs = rulesMayDiffer ? [] : (this.head?.emptyDirs ?? []);
    scan.emptyDirs = await this.ignores.withoutIgnored(scan.emptyDirs, knownDirs);
    const sizes = new Map(await this.recordedSizes());
    for (const p of scan.remove) sizes.delete(p);
    for (const [p, size] of scan.update) sizes.set(p, size);
    let total = 0;
    for (const size of sizes.values()) total += size;
    if (sizes.size > this.limits.maxFiles || total > this.limits.maxTotalBytes) {
      throw new CheckpointUnavailableError(
        "too-large",
        `Files cannot follow the session tree in ${this.folder}: it holds ${sizes.size.toLocaleString("en")} files ` +
          `(${formatBytes(total)}) to record, over the cap of ${this.limits.maxFiles.toLocaleString("en")} files / ` +
          `${formatBytes(this.limits.maxTotalBytes)}. Ignore generated folders in .gitignore or raise the cap.`,
        this.folder,
      );
    }
    const unchanged = (head: Head): CheckpointResult => ({
      id: head.commit,
      tree: head.tree,
      created: false,
      previousId: head.commit,
      changes: [],
      skipped: scan.skipped,
      fileCount: sizes.size,
      totalBytes: total,
    });
    const same = (head: Head, tree?: string): boolean =>
      (tree === undefined || tree === head.tree) && sameList(scan.emptyDirs, head.emptyDirs);
    const nothing = !scan.staged && scan.update.size === 0 && scan.remove.length === 0;
    if (nothing && this.head && same(this.head)) {
      this.sizes = sizes;
      return unchanged(this.head);
    }

    if (scan.remove.length > 0) {
      const input = scan.remove.map((p) => p + "\0").join("");
      await this.git.run(["update-index", "-z", "--force-remove", "--stdin"], { input, signal });
    }
    await this.updateIndex([...scan.update.keys()].sort(), scan, sizes, signal);
    const tree = await this.git.text(["write-tree"], { signal });
    this.sizes = sizes;
    const message = commitMessage({ reason, emptyDirs: scan.emptyDirs });
    let head = this.head;
    let commit: string | undefined;
    for (let attempt = 0; commit === undefined; attempt++) {
      if (head && same(head, tree)) return unchanged(head);
      commit = await this.commitOnto(tree, message, head?.commit);
      if (commit === undefined) {
        // Another window added a checkpoint meanwhile: build on it.
        if (attempt >= 3) throw new CheckpointError("Another window keeps changing this folder's checkpoints");
        await this.loadHead();
        head = this.head;
      }
    }
    this.head = { commit, tree, emptyDirs: scan.emptyDirs };
    let changes: FileChange[] = [];
    if (withChanges) {
      this.emptyTree ??= await this.git.text(["mktree"], { input: "" });
      changes = (await rawDiff(this.git, head?.tree ?? this.emptyTree, tree)).map(toFileChange);
    }
    const result: CheckpointResult = {
      id: commit,
      tree,
      created: true,
      changes,
      skipped: scan.skipped,
      fileCount: sizes.size,
      totalBytes: total,
    };
    if (head) result.previousId = head.commit;
    return result;
  }

  /**
   * Commits `tree` with parent `parent` and moves the checkpoint branch to it if it still points at `parent`.
   * Returns the commit, or undefined when another window moved the branch first.
   */
  private async commitOnto(tree: string, message: string, parent: string | undefined): Promise<string | undefined> {
    const commit = await this.git.text(["commit-tree", tree, ...(parent ? ["-p", parent] : [])], { input: message });
    try {
      await this.git.run(["update-ref", CHECKPOINT_REF, commit, parent ?? ZERO_ID]);
      return commit;
    } catch (error) {
      const moved =
        error instanceof GitCommandError &&
        /but expected|reference already exists|unable to resolve/.test(error.stderr);
      if (moved) return undefined;
      throw error;
    }
  }

  /**
   * Writes new and changed files into the shadow index. A file git cannot read (permissions) is reported as
   * skipped and the rest is recorded.
   */
  private async updateIndex(
    paths: string[],
    scan: { skipped: CheckpointResult["skipped"] },
    sizes: Map<string, number>,
    signal?: AbortSignal,
  ): Promise<void> {
    let pending = paths;
    for (let attempt = 0; pending.length > 0; attempt++) {
      const input = pending.map((p) => p + "\0").join("");
      try {
        await this.git.run(["update-index", "-z", "--add", "--remove", "--replace", "--stdin"], { input, signal });
        return;
      } catch (error) {
        const bad = error instanceof GitCommandError ? /Unable to process path (.+)$/m.exec(error.stderr)?.[1] : "";
        if (!bad || attempt >= 100 || !pending.includes(bad)) throw error;
        scan.skipped.push({ path: bad, reason: "unreadable" });
        sizes.delete(bad);
        pending = pending.filter((p) => p !== bad);
      }
    }
  }

  // ---- reading --------------------------------------------------------------------------------

  /** True when `id` is a checkpoint of this store. */
  async has(id: string): Promise<boolean> {
    return this.verify(id).then(
      () => true,
      (error: unknown) => {
        if (error instanceof CheckpointNotFoundError) return false;
        throw error;
      },
    );
  }

  /** The files that differ from checkpoint `fromId` to `toId` (renames detected). */
  async diff(fromId: string, toId: string): Promise<FileChange[]> {
    const [from, to] = await Promise.all([this.verify(fromId), this.verify(toId)]);
    return (await rawDiff(this.git, from.tree, to.tree, { renames: true })).map(toFileChange);
  }

  /** Lines added and removed per file from checkpoint `fromId` to `toId`, keyed by the path in `toId`. */
  async lineCounts(fromId: string, toId: string): Promise<Map<string, LineCounts>> {
    const [from, to] = await Promise.all([this.verify(fromId), this.verify(toId)]);
    return numstatDiff(this.git, from.tree, to.tree);
  }

  /** Every file a checkpoint holds. */
  async listFiles(id: string): Promise<string[]> {
    const head = await this.verify(id);
    const { stdout } = await this.git.run(["ls-tree", "-r", "-z", "--full-tree", head.tree]);
    return splitNul(stdout)
      .filter((rec) => !rec.startsWith(GITLINK_MODE))
      .map((rec) => rec.slice(rec.indexOf("\t") + 1));
  }

  /**
   * The bytes of `filePath` (folder-relative) in checkpoint `id` — a symbolic link's target text for a link —
   * or undefined when the checkpoint has no such file.
   */
  async readFileAt(id: string, filePath: string): Promise<Buffer | undefined> {
    assertSafeRelative(filePath);
    const head = await this.verify(id);
    const out = await this.git.run(["cat-file", "blob", `${head.tree}:${filePath}`], { okCodes: [0, 128] });
    return out.exitCode === 0 ? out.stdout : undefined;
  }

  // ---- restoring ------------------------------------------------------------------------------

  /**
   * What restoring `id` would change, without changing a workspace file (a checkpoint of the current files is
   * taken for it). `dirtyPaths`: files with unsaved editor changes; the plan lists those it would change.
   */
  planRestore(
    id: string,
    options: { dirtyPaths?: readonly string[]; signal?: AbortSignal } = {},
  ): Promise<RestorePlan> {
    return this.serial(async () => {
      const { current, target, plan } = await this.prepare(id, "before planning a restore", options.signal);
      return {
        targetId: target.commit,
        currentId: current.id,
        changes: planChanges(plan),
        emptyDirs: plan.emptyDirs,
        skipped: plan.skipped,
        dirty: this.dirtyOverlap(plan, options.dirtyPaths),
      };
    });
  }

  /**
   * Makes the folder's files equal checkpoint `id`: changed files rewritten, files created since removed,
   * deleted ones brought back, modes, links and empty folders restored. The current files are checkpointed first
   * (`beforeId`; `undoRestore()` returns to it). All or nothing: on failure or cancellation every file is left as
   * it was (RestoreFailedError / CheckpointAbortedError). Throws DirtyFilesError when a path in
   * `options.dirtyPaths` would change, unless `options.discardDirty`.
   */
  restore(id: string, options: RestoreOptions = {}): Promise<RestoreResult> {
    return this.serial(() => this.restoreUnlocked(id, options));
  }

  /**
   * Restores the checkpoint taken before the last restore. That is itself a restore, so a second undo goes
   * forward again. Throws NothingToUndoError when no restore was made in this folder.
   */
  undoRestore(options: RestoreOptions = {}): Promise<RestoreResult> {
    return this.serial(async () => {
      const last = await this.lastRestore();
      if (!last) throw new NothingToUndoError();
      return this.restoreUnlocked(last.beforeId, options);
    });
  }

  /** The last restore made in this folder (kept across restarts), if any. */
  lastRestore(): Promise<LastRestore | undefined> {
    return readLastRestore(this.storeDir);
  }

  private async prepare(
    id: string,
    reason: string,
    signal?: AbortSignal,
  ): Promise<{ current: CheckpointResult; target: Head; plan: DetailedPlan }> {
    const target = await this.verify(id);
    const current = await this.record(reason, signal, false);
    return { current, target, plan: await this.planFrom(current, target, signal) };
  }

  /** The plan that makes the folder, whose files `current` has just recorded, equal `target`. */
  private async planFrom(current: CheckpointResult, target: Head, signal?: AbortSignal): Promise<DetailedPlan> {
    const changes = await rawDiff(this.git, current.tree, target.tree, { signal });
    const currentDirs = (this.head as Head).emptyDirs;
    return planRestoreOps(this.realFolder, changes, currentDirs, target.emptyDirs);
  }

  private dirtyOverlap(plan: DetailedPlan, dirtyPaths: readonly string[] | undefined): string[] {
    if (!dirtyPaths || dirtyPaths.length === 0) return [];
    const dirty = new Set(
      dirtyPaths.map((p) => toFolderRelative(this.folder, p, this.realFolder)).filter((p) => p !== undefined),
    );
    return planChanges(plan)
      .map((c) => c.path)
      .filter((p) => dirty.has(p));
  }

  private async restoreUnlocked(id: string, options: RestoreOptions): Promise<RestoreResult> {
    const { current, target, plan } = await this.prepare(id, `before restoring ${id.slice(0, 12)}`, options.signal);
    return this.apply(current, target, plan, options, `restored ${target.commit.slice(0, 12)}`);
  }

  /**
   * Writes `plan` (from `current` to `target`) into the folder all or nothing and records the result; the step
   * every restore, undo and merge ends with. Throws DirtyFilesError first when it would change an unsaved file.
   */
  private async apply(
    current: CheckpointResult,
    target: Head,
    plan: DetailedPlan,
    options: RestoreOptions,
    reason: string,
  ): Promise<RestoreResult> {
    const dirty = this.dirtyOverlap(plan, options.dirtyPaths);
    if (dirty.length > 0 && !options.discardDirty) throw new DirtyFilesError(dirty);
    const result: RestoreResult = {
      targetId: target.commit,
      beforeId: current.id,
      changes: planChanges(plan),
      emptyDirs: plan.emptyDirs,
      skipped: plan.skipped,
    };
    const nothing =
      result.changes.length === 0 && plan.emptyDirs.create.length === 0 && plan.emptyDirs.remove.length === 0;
    if (nothing) return result;
    await applyRestorePlan(
      {
        folder: this.realFolder,
        git: this.git,
        scratchIndex: path.join(this.storeDir, "restore-index"),
        plan,
        fsOps: this.restoreFs,
        signal: options.signal,
      },
      target.emptyDirs,
    );
    await this.afterRestore(current, target, plan, options.batchId, reason);
    return result;
  }

  // ---- merging --------------------------------------------------------------------------------

  /**
   * What merging the other branch's changes from checkpoint `baseId` to `theirsId` into the current files would
   * do, without changing a workspace file (a checkpoint of the current files is taken for it).
   */
  planMerge(
    baseId: string,
    theirsId: string,
    options: { dirtyPaths?: readonly string[]; signal?: AbortSignal } = {},
  ): Promise<MergePlan> {
    return this.serial(async () => {
      const { current, merged, plan } = await this.prepareMerge(baseId, theirsId, options.signal);
      return {
        baseId,
        theirsId,
        currentId: current.id,
        files: withSkips(merged.files, plan),
        changes: planChanges(plan),
        skipped: plan.skipped,
        dirty: this.dirtyOverlap(plan, options.dirtyPaths),
      };
    });
  }

  /**
   * Three-way merge into the folder: the changes from checkpoint `baseId` to `theirsId` (another branch's files)
   * are applied to the files as they are now (see merge.ts for what happens to each file). The current files are
   * checkpointed first (`beforeId`), the merged files are written like a restore — all or nothing, with the same
   * unsaved-file check — and `undoRestore()` puts the files of before the merge back.
   */
  merge(baseId: string, theirsId: string, options: RestoreOptions = {}): Promise<MergeResult> {
    return this.serial(async () => {
      const { current, merged, target, plan } = await this.prepareMerge(baseId, theirsId, options.signal);
      const files = withSkips(merged.files, plan);
      if (!target) {
        const none = { create: [], remove: [] };
        return {
          targetId: current.id,
          beforeId: current.id,
          changes: [],
          emptyDirs: none,
          skipped: [],
          baseId,
          theirsId,
          files,
        };
      }
      const result = await this.apply(current, target, plan, options, `merged ${theirsId.slice(0, 12)}`);
      return { ...result, baseId, theirsId, files };
    });
  }

  private async prepareMerge(
    baseId: string,
    theirsId: string,
    signal?: AbortSignal,
  ): Promise<{ current: CheckpointResult; merged: TreeMerge; target: Head | undefined; plan: DetailedPlan }> {
    const [base, theirs] = await Promise.all([this.verify(baseId), this.verify(theirsId)]);
    const current = await this.record(`before merging ${theirsId.slice(0, 12)}`, signal, false);
    const emptyDirs = (this.head as Head).emptyDirs;
    const merged = await mergeTrees(
      { base: base.tree, ours: current.tree, theirs: theirs.tree },
      { git: this.git, scratchDir: this.storeDir, signal },
    );
    if (merged.tree === current.tree) {
      const none: DetailedPlan = { writes: [], deletes: [], emptyDirs: { create: [], remove: [] }, skipped: [] };
      return { current, merged, target: undefined, plan: none };
    }
    // A checkpoint holding the merged files, off the branch: the commit recording the result becomes the latest.
    const message = commitMessage({
      reason: `merge of ${theirsId.slice(0, 12)} from ${baseId.slice(0, 12)}`,
      emptyDirs,
    });
    const commit = await this.git.text(["commit-tree", merged.tree, "-p", current.id, "-p", theirs.commit], {
      input: message,
    });
    const target: Head = { commit, tree: merged.tree, emptyDirs };
    return { current, merged, target, plan: await this.planFrom(current, target, signal) };
  }

  /**
   * Brings the shadow index and history up to the restored files: only the paths the restore wrote or deleted are
   * read again (the stat data of every other file stays valid, so the next checkpoint stays fast), and a commit of
   * the result (parent: the pre-restore checkpoint) becomes the latest checkpoint. The pre-restore checkpoint is
   * remembered for `undoRestore()`.
   */
  private async afterRestore(
    current: CheckpointResult,
    target: Head,
    plan: DetailedPlan,
    batchId: string | undefined,
    reason: string,
  ): Promise<void> {
    const touched = [...plan.writes.map((w) => w.path), ...plan.deletes].sort();
    await this.updateIndex(touched, { skipped: [] }, new Map());
    const tree = await this.git.text(["write-tree"]);
    const emptyDirs = target.emptyDirs.filter((d) => !plan.skipped.some((s) => s.path === d));
    const message = commitMessage({ reason, emptyDirs });
    let commit = await this.commitOnto(tree, message, current.id);
    for (let attempt = 0; commit === undefined && attempt < 3; attempt++) {
      await this.loadHead();
      commit = await this.commitOnto(tree, message, this.head?.commit);
    }
    if (commit === undefined) throw new CheckpointError("Another window keeps changing this folder's checkpoints");
    this.head = { commit, tree, emptyDirs };
    this.sizes = undefined;
    const last: LastRestore = { beforeId: current.id, targetId: target.commit, at: new Date().toISOString() };
    if (batchId !== undefined) last.batchId = batchId;
    await writeLastRestore(this.storeDir, last);
  }
}

/** A merged file the write leaves alone (not recorded, behind a link, blocked on disk) is reported as `blocked`. */
function withSkips(files: readonly MergedFile[], plan: DetailedPlan): MergedFile[] {
  const skipped = new Set(plan.skipped.map((s) => s.path));
  return files.map((f) => (skipped.has(f.path) ? { ...f, outcome: "blocked" } : f));
}
