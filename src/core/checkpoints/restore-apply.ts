/**
 * Carries out a restore plan all or nothing. The new content is first written by git into a staging folder
 * inside the workspace folder (same file system, so moves are atomic renames); then every change is a rename or a
 * folder creation/removal recorded in a journal: the old file is moved into the staging folder, the new one moved
 * into place. A failure or a cancellation at any step plays the journal backwards, so every file is as it was.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { CheckpointAbortedError, RestoreFailedError } from "./errors.js";
import { errorText } from "../error-text.js";
import { absoluteIn, ancestorsOf } from "./folder-paths.js";
import type { GitRunner } from "./git-runner.js";
import type { DetailedPlan } from "./restore-plan.js";

/**
 * The file operations a restore makes in the workspace. Replaceable (engine option `restoreFs`) so that a caller
 * can observe them — or make one fail, which is how the all-or-nothing guarantee is tested.
 */
export interface RestoreFileSystem {
  rename(from: string, to: string): Promise<void>;
  unlink(file: string): Promise<void>;
  /** Creates one folder (its parent exists). */
  mkdir(dir: string): Promise<void>;
  /** Removes one empty folder. */
  rmdir(dir: string): Promise<void>;
}

/** The real file system. */
export const nodeRestoreFileSystem: RestoreFileSystem = {
  rename: (from, to) => fs.rename(from, to),
  unlink: (file) => fs.unlink(file),
  mkdir: async (dir) => {
    await fs.mkdir(dir);
  },
  rmdir: (dir) => fs.rmdir(dir),
};

type JournalStep =
  | { kind: "moved"; from: string; to: string }
  | { kind: "placed"; file: string }
  | { kind: "mkdir"; dir: string }
  | { kind: "rmdir"; dir: string };

/** Name prefix of the staging folder (left behind only if a rollback itself fails; it then holds the originals). */
export const STAGING_PREFIX = ".agent-tree-restore-";

/** Everything apply needs. */
export interface ApplyContext {
  folder: string;
  git: GitRunner;
  /** A scratch index file in the store (git writes the staged files from it). */
  scratchIndex: string;
  plan: DetailedPlan;
  fsOps: RestoreFileSystem;
  signal?: AbortSignal;
}

class Transaction {
  private readonly journal: JournalStep[] = [];
  private readonly made = new Set<string>();

  constructor(
    private readonly ctx: ApplyContext,
    private readonly staging: string,
  ) {}

  private check(): void {
    if (this.ctx.signal?.aborted) throw new CheckpointAbortedError("The restore");
  }

  /** Moves the file at `rel` into the staging folder's old/ tree. */
  private async moveAside(rel: string): Promise<void> {
    const from = absoluteIn(this.ctx.folder, rel);
    const to = path.join(this.staging, "old", ...rel.split("/"));
    await fs.mkdir(path.dirname(to), { recursive: true });
    await this.ctx.fsOps.rename(from, to);
    this.journal.push({ kind: "moved", from, to });
  }

  /** Creates the missing parent folders of `rel`, checking the existing ones are real folders. */
  private async ensureParents(rel: string): Promise<void> {
    for (const a of ancestorsOf(rel)) {
      if (this.made.has(a)) continue;
      const abs = absoluteIn(this.ctx.folder, a);
      const st = await fs.lstat(abs).catch(() => undefined);
      if (!st) {
        await this.ctx.fsOps.mkdir(abs);
        this.journal.push({ kind: "mkdir", dir: abs });
      } else if (!st.isDirectory()) {
        // The plan checked this path; something changed it since. Writing through it could leave the folder.
        throw new Error(`${a} is no longer a folder`);
      }
      this.made.add(a);
    }
  }

  /** Removes the (now empty) folder tree at `rel`, deepest first. */
  private async removeTree(rel: string): Promise<void> {
    const abs = absoluteIn(this.ctx.folder, rel);
    const entries = await fs.readdir(abs, { withFileTypes: true });
    for (const e of entries) {
      if (!e.isDirectory()) throw new Error(`${rel}/${e.name} appeared during the restore`);
      await this.removeTree(`${rel}/${e.name}`);
    }
    await this.ctx.fsOps.rmdir(abs);
    this.journal.push({ kind: "rmdir", dir: abs });
  }

  async run(): Promise<void> {
    const { plan, folder } = this.ctx;
    for (const rel of plan.deletes) {
      this.check();
      await this.moveAside(rel);
    }
    for (const w of plan.writes) {
      this.check();
      if (w.replacesDir) await this.removeTree(w.path);
      await this.ensureParents(w.path);
      const dest = absoluteIn(folder, w.path);
      if (w.action === "modify") await this.moveAside(w.path);
      await this.ctx.fsOps.rename(path.join(this.staging, "new", ...w.path.split("/")), dest);
      this.journal.push({ kind: "placed", file: dest });
    }
    for (const d of plan.emptyDirs.create) {
      this.check();
      // The folder and any missing parents (a file planned away from there was moved aside above).
      await this.ensureParents(`${d}/-`);
    }
    for (const d of plan.emptyDirs.remove) {
      this.check();
      const abs = absoluteIn(folder, d);
      const entries = await fs.readdir(abs).catch(() => undefined);
      if (entries?.length !== 0) continue; // gone, or not empty any more: leave it
      await this.ctx.fsOps.rmdir(abs);
      this.journal.push({ kind: "rmdir", dir: abs });
    }
  }

  /** Plays the journal backwards; returns what could not be put back. */
  async rollback(): Promise<string[]> {
    const failed: string[] = [];
    for (const step of this.journal.reverse()) {
      try {
        if (step.kind === "placed") await fs.unlink(step.file);
        else if (step.kind === "moved") await fs.rename(step.to, step.from);
        else if (step.kind === "mkdir") await fs.rmdir(step.dir);
        else await fs.mkdir(step.dir);
      } catch (error) {
        const where = step.kind === "moved" ? `${step.from} (original kept at ${step.to})` : stepPath(step);
        failed.push(`${where}: ${errorText(error)}`);
      }
    }
    return failed;
  }
}

function stepPath(step: JournalStep): string {
  return step.kind === "placed" ? step.file : step.kind === "moved" ? step.from : step.dir;
}

/** Folders emptied by deleted files are removed too, unless the target records them as empty folders. */
async function pruneEmptiedDirs(folder: string, plan: DetailedPlan, keep: ReadonlySet<string>): Promise<void> {
  const candidates = new Set<string>();
  for (const rel of plan.deletes) for (const a of ancestorsOf(rel)) candidates.add(a);
  const deepestFirst = [...candidates].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const rel of deepestFirst) {
    if (keep.has(rel)) continue;
    await fs.rmdir(absoluteIn(folder, rel)).catch(() => undefined);
  }
}

/**
 * Applies `ctx.plan` (see the file comment). Resolves when every change is in place; rejects with
 * CheckpointAbortedError (cancelled) or RestoreFailedError, in both cases after putting every file back.
 */
export async function applyRestorePlan(ctx: ApplyContext, targetEmptyDirs: readonly string[]): Promise<void> {
  const staging = path.join(ctx.folder, STAGING_PREFIX + randomBytes(6).toString("hex"));
  const tx = new Transaction(ctx, staging);
  try {
    await fs.mkdir(path.join(staging, "old"), { recursive: true });
    if (ctx.plan.writes.length > 0) {
      // git writes the files to restore, with their modes and links, into staging/new/ from a scratch index
      // holding just those files (its cost follows the restore's size, not the folder's).
      await fs.rm(ctx.scratchIndex, { force: true });
      const env = { GIT_INDEX_FILE: ctx.scratchIndex };
      const entries = ctx.plan.writes.map((w) => `${w.mode} ${w.blob}\t${w.path}\0`).join("");
      await ctx.git.run(["update-index", "-z", "--index-info"], { env, input: entries, signal: ctx.signal });
      const prefix = `--prefix=${path.join(staging, "new")}${path.sep}`;
      await ctx.git.run(["checkout-index", "--all", prefix], { env, signal: ctx.signal });
    }
    await tx.run();
  } catch (error) {
    const failed = await tx.rollback();
    if (failed.length > 0) {
      throw new RestoreFailedError(
        `The restore failed (${errorText(error)}) and ${failed.length} change(s) could not be undone; ` +
          `originals are kept in ${staging}: ${failed.join("; ")}`,
        false,
        failed,
        { cause: error },
      );
    }
    await fs.rm(staging, { recursive: true, force: true });
    await fs.rm(ctx.scratchIndex, { force: true });
    if (error instanceof CheckpointAbortedError) throw error;
    throw new RestoreFailedError(
      `The restore failed and every file was put back as it was: ${errorText(error)}`,
      true,
      [],
      { cause: error },
    );
  }
  await fs.rm(staging, { recursive: true, force: true });
  await fs.rm(ctx.scratchIndex, { force: true });
  await pruneEmptiedDirs(ctx.folder, ctx.plan, new Set(targetEmptyDirs));
}
