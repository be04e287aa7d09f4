/**
 * The three-way merge of checkpoint trees behind "Bring Conclusions Here" with its files: the changes one
 * checkpoint made since a common base ("theirs": the other branch) are carried onto another checkpoint ("ours":
 * the workspace's files as they are now). Everything happens inside the shadow repository — blobs, a scratch
 * index, a tree — and no workspace file is touched here: the caller writes the merged tree into the folder with the
 * restore machinery (journal, rollback, undo).
 *
 * Per path the other branch changed:
 * - ours unchanged since the base: their version is taken (created, changed or deleted) — `applied`;
 * - both made the same change: nothing to do (not listed);
 * - both changed a text file: `git merge-file`; clean → `merged`, else the file gets standard conflict markers →
 *   `conflict`;
 * - both changed a binary file or a symbolic link: ours is kept → `binary`;
 * - one deleted it and the other changed it: the changed file is kept → `deleted-modified`;
 * - their file would need one of ours out of the way (a file where they have a folder, or the reverse): ours is
 *   kept → `blocked`.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { CheckpointAbortedError } from "./errors.js";
import { ancestorsOf } from "./folder-paths.js";
import { splitNul, type GitRunner } from "./git-runner.js";
import { rawDiff, toFileChange, type RawChange } from "./tree-diff.js";
import type { MergedFile, MergeOutcome } from "./types.js";

/** The labels of the conflict markers: `<<<<<<< current`, `>>>>>>> other branch`. */
export const MERGE_LABELS = { ours: "current", base: "common ancestor", theirs: "other branch" } as const;

const ZERO_ID = "0000000000000000000000000000000000000000";
const LINK_MODE = "120000";
/** git's own test for binary content: a NUL byte in the first 8,000 bytes. */
const BINARY_PROBE_BYTES = 8000;
/** How many `git merge-file` processes run at once. */
const MERGE_FILE_PARALLEL = 4;
/** `git merge-file` exits with the number of conflicts (at most 127), or a negative value (255) on error. */
const MERGE_FILE_OK = Array.from({ length: 128 }, (_, i) => i);

/** A path's entry in a tree: mode and blob id. */
interface Entry {
  mode: string;
  id: string;
}

/** What to put at a path of the merged tree (undefined: remove it). */
interface Decision {
  path: string;
  entry: Entry | undefined;
  outcome: MergeOutcome;
  change: MergedFile["change"];
  /** Ours has no file at the path (then a folder or a file of ours may stand in the way). */
  oursMissing: boolean;
}

/** The trees of a merge (tree ids of the shadow repository). */
export interface MergeTrees {
  base: string;
  ours: string;
  theirs: string;
}

/** What `mergeTrees` needs besides the trees. */
export interface MergeTreesContext {
  git: GitRunner;
  /** A folder of the store for scratch files (a sub-folder is made and removed). */
  scratchDir: string;
  signal?: AbortSignal;
}

/** The result: the merged tree (written into the store) and what happened to each path the other side changed. */
export interface TreeMerge {
  tree: string;
  files: MergedFile[];
}

function sameEntry(a: Entry | undefined, b: Entry | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.mode === b.mode && a.id === b.id);
}

function oldEntry(c: RawChange): Entry | undefined {
  return c.status === "A" ? undefined : { mode: c.oldMode, id: c.oldId };
}

function newEntry(c: RawChange): Entry | undefined {
  return c.status === "D" ? undefined : { mode: c.newMode, id: c.newId };
}

function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, BINARY_PROBE_BYTES).includes(0);
}

/** Merges `trees` (see the file comment). Rejects with CheckpointAbortedError when `ctx.signal` aborts. */
export async function mergeTrees(trees: MergeTrees, ctx: MergeTreesContext): Promise<TreeMerge> {
  const { git, signal } = ctx;
  const theirs = await rawDiff(git, trees.base, trees.theirs, { signal });
  if (theirs.length === 0) return { tree: trees.ours, files: [] };
  const ours = new Map((await rawDiff(git, trees.base, trees.ours, { signal })).map((c) => [c.path, c]));
  const scratch = path.join(ctx.scratchDir, `merge-${randomBytes(6).toString("hex")}`);
  await fs.mkdir(scratch, { recursive: true });
  try {
    const decisions: Decision[] = [];
    const bothChanged: BothChanged[] = [];
    for (const t of theirs) {
      if (signal?.aborted) throw new CheckpointAbortedError("The merge");
      const change = toFileChange(t).status;
      const base = oldEntry(t);
      const their = newEntry(t);
      const o = ours.get(t.path);
      const our = o ? newEntry(o) : base;
      if (sameEntry(our, their)) continue;
      if (!o) {
        decisions.push({ path: t.path, entry: their, outcome: "applied", change, oursMissing: !base });
      } else if (!our || !their) {
        // Deleted on one side, changed on the other: the changed file stays (taken from them when ours is gone).
        decisions.push({ path: t.path, entry: our ?? their, outcome: "deleted-modified", change, oursMissing: !our });
      } else {
        const decision: Decision = { path: t.path, entry: our, outcome: "binary", change, oursMissing: false };
        decisions.push(decision);
        bothChanged.push({ decision, base, our, their });
      }
    }
    await mergeContents(git, scratch, bothChanged, signal);
    await blockFolderClashes(git, trees.ours, decisions);
    const tree = await writeMergedTree(git, trees.ours, decisions, path.join(scratch, "index"), signal);
    const files = decisions.map((d) => ({ path: d.path, outcome: d.outcome, change: d.change }));
    return { tree, files };
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** A file both sides changed and both still have; its decision is filled in by mergeContents. */
interface BothChanged {
  decision: Decision;
  base: Entry | undefined;
  our: Entry;
  their: Entry;
}

/**
 * Line merges of the files both sides changed: a text file gets `git merge-file` (clean → `merged`, else conflict
 * markers → `conflict`), a binary file or a link keeps ours (`binary`, the decision's default). The blobs are read
 * by one `cat-file --batch` and the results written by one `hash-object --stdin-paths`, so a file costs one process.
 */
async function mergeContents(
  git: GitRunner,
  scratch: string,
  files: readonly BothChanged[],
  signal: AbortSignal | undefined,
): Promise<void> {
  const texts = files.filter((f) => ![f.base, f.our, f.their].some((e) => e?.mode === LINK_MODE));
  const blobs = await readBlobs(
    git,
    texts.flatMap((f) => [f.base?.id, f.our.id, f.their.id].filter((id) => id !== undefined)),
    signal,
  );
  const blob = (e: Entry | undefined): Buffer => (e ? (blobs.get(e.id) ?? Buffer.alloc(0)) : Buffer.alloc(0));
  // The conflict style is fixed: a user's merge.conflictStyle must not change what lands in the file.
  const labels = [MERGE_LABELS.ours, MERGE_LABELS.base, MERGE_LABELS.theirs].flatMap((l) => ["-L", l]);
  const results: ({ f: BothChanged; result: string; clean: boolean } | undefined)[] = [];
  const mergeOne = async (i: number): Promise<void> => {
    const f = texts[i];
    const contents = [blob(f.our), blob(f.base), blob(f.their)];
    if (contents.some(isBinary)) return;
    // merge-file writes the result into its first file (ours).
    const paths = ["ours", "base", "theirs"].map((name) => path.join(scratch, `${i}-${name}`));
    await Promise.all(contents.map((bytes, k) => fs.writeFile(paths[k], bytes)));
    const args = ["-c", "merge.conflictStyle=merge", "merge-file", ...labels, ...paths];
    const out = await git.run(args, { signal, okCodes: MERGE_FILE_OK });
    results[i] = { f, result: paths[0], clean: out.exitCode === 0 };
  };
  // A few at a time: each is a short git process, and the machine's cores can run several.
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < texts.length) {
      if (signal?.aborted) throw new CheckpointAbortedError("The merge");
      await mergeOne(next++);
    }
  };
  await Promise.all(Array.from({ length: Math.min(MERGE_FILE_PARALLEL, texts.length) }, worker));
  const merged = results.filter((r) => r !== undefined);
  if (merged.length === 0) return;
  const input = merged.map((m) => m.result + "\n").join("");
  const ids = (await git.text(["hash-object", "-w", "--no-filters", "--stdin-paths"], { input, signal })).split("\n");
  for (const [i, { f, clean }] of merged.entries()) {
    // A mode change on their side is taken unless ours changed the mode too.
    const mode = f.base && f.our.mode === f.base.mode ? f.their.mode : f.our.mode;
    f.decision.entry = { mode, id: ids[i] };
    f.decision.outcome = clean ? "merged" : "conflict";
  }
}

/** The contents of blobs `ids`, read by one `git cat-file --batch`. */
async function readBlobs(
  git: GitRunner,
  ids: readonly string[],
  signal: AbortSignal | undefined,
): Promise<Map<string, Buffer>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, Buffer>();
  if (unique.length === 0) return out;
  const { stdout } = await git.run(["cat-file", "--batch"], { input: unique.map((id) => id + "\n").join(""), signal });
  // Each answer: "<id> blob <size>\n<content>\n" (or "<id> missing\n").
  let at = 0;
  while (at < stdout.length) {
    const eol = stdout.indexOf(10, at);
    if (eol < 0) break;
    const [id, type, size] = stdout.subarray(at, eol).toString("utf8").split(" ");
    at = eol + 1;
    if (type === "missing" || size === undefined) continue;
    const length = Number(size);
    out.set(id, stdout.subarray(at, at + length));
    at += length + 1;
  }
  return out;
}

/**
 * A file of theirs that would sit where ours keeps a folder (or a nested repository), or below a file ours keeps, is
 * not taken (git's index would silently drop our side): ours, which has no file at that path, stays as it is —
 * `blocked`. Only the paths ours lacks are looked up, with their parent folders, in one `cat-file --batch-check`.
 */
async function blockFolderClashes(git: GitRunner, oursTree: string, decisions: Decision[]): Promise<void> {
  const adding = decisions.filter((d) => d.entry && d.oursMissing);
  if (adding.length === 0) return;
  const deleted = new Set(decisions.filter((d) => !d.entry).map((d) => d.path));
  const block = (d: Decision): void => {
    d.entry = undefined;
    d.outcome = "blocked";
  };
  // The lookup is line-based: a name with a line break cannot be asked about, so it is kept out to be safe.
  const askable = adding.filter((d) => !d.path.includes("\n"));
  for (const d of adding) if (d.path.includes("\n")) block(d);
  const types = await objectTypes(git, oursTree, [
    ...new Set(askable.flatMap((d) => [d.path, ...ancestorsOf(d.path)])),
  ]);
  for (const d of askable) {
    const fileAbove = ancestorsOf(d.path).some((a) => {
      const type = types.get(a);
      return type !== undefined && type !== "tree" && !deleted.has(a);
    });
    const here = types.get(d.path);
    const inTheWay =
      here !== undefined && (here !== "tree" || !(await allDeletedUnder(git, oursTree, d.path, deleted)));
    if (fileAbove || inTheWay) block(d);
  }
}

/** The object type (blob, tree, commit for a nested repository) at each path of `tree` that has one. */
async function objectTypes(git: GitRunner, tree: string, paths: readonly string[]): Promise<Map<string, string>> {
  const types = new Map<string, string>();
  if (paths.length === 0) return types;
  const input = paths.map((p) => `${tree}:${p}\n`).join("");
  const lines = (await git.text(["cat-file", "--batch-check"], { input })).split("\n");
  // One answer per line, in order: "<id> <type> <size>", or "<what was asked> missing".
  for (const [i, line] of lines.entries()) {
    if (i >= paths.length || line.endsWith(" missing")) continue;
    const type = line.split(" ")[1];
    if (type) types.set(paths[i], type);
  }
  return types;
}

/** True when every file of ours under folder `dir` is deleted by the merge (their file may then replace it). */
async function allDeletedUnder(
  git: GitRunner,
  tree: string,
  dir: string,
  deleted: ReadonlySet<string>,
): Promise<boolean> {
  const { stdout } = await git.run(["ls-tree", "-r", "-z", "--name-only", "--full-tree", tree, "--", dir]);
  return splitNul(stdout).every((f) => deleted.has(f));
}

/** The merged tree: ours, with every decision applied, written through a scratch index. */
async function writeMergedTree(
  git: GitRunner,
  oursTree: string,
  decisions: readonly Decision[],
  scratchIndex: string,
  signal: AbortSignal | undefined,
): Promise<string> {
  const env = { GIT_INDEX_FILE: scratchIndex };
  const lines = decisions.map((d) =>
    d.entry ? `${d.entry.mode} ${d.entry.id}\t${d.path}\0` : `0 ${ZERO_ID}\t${d.path}\0`,
  );
  await git.run(["read-tree", oursTree], { env, signal });
  if (lines.length > 0) await git.run(["update-index", "-z", "--index-info"], { env, input: lines.join(""), signal });
  return git.text(["write-tree"], { env, signal });
}
