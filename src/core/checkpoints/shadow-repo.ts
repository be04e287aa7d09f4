/**
 * The shadow repository of one workspace folder: where it lives under the storage directory, how it is created
 * and configured so that nothing of the user's git set-up changes what is recorded (no filters, no line-ending
 * conversion, no hooks, no signing, no background daemons), and the small facts the engine keeps in it.
 */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CheckpointUnavailableError } from "./errors.js";
import { errorText } from "../error-text.js";
import type { GitLocation, GitRunner } from "./git-runner.js";
import { STAGING_PREFIX } from "./restore-apply.js";

/** The branch every checkpoint commit is chained on (each new checkpoint's parent is the previous one). */
export const CHECKPOINT_REF = "refs/heads/checkpoints";

/** Overrides the user's global git config where it could change what is recorded or start side effects. */
function shadowConfig(gitDir: string): string {
  const lines = [
    "[core]",
    "\tautocrlf = false",
    "\tsafecrlf = false",
    "\tquotePath = false",
    "\tfsmonitor = false",
    "\tuntrackedCache = false",
    "\tlogAllRefUpdates = false",
    `\thooksPath = ${JSON.stringify(path.join(gitDir, "no-hooks"))}`,
  ];
  // Elsewhere git probes these when the repository is created; Linux and macOS record modes and links.
  if (process.platform !== "win32") lines.push("\tfileMode = true", "\tsymlinks = true");
  lines.push("[commit]", "\tgpgSign = false", "[gc]", "\tauto = 0", "[maintenance]", "\tauto = false");
  return lines.join("\n") + "\n";
}

/**
 * Highest-precedence attributes: the folder's own .gitattributes must not run clean/smudge filters (git-lfs
 * would record pointers instead of content), convert line endings or re-encode files.
 */
const SHADOW_ATTRIBUTES = "* -text -filter -ident -working-tree-encoding\n";

/** True for a full commit id (SHA-1; SHA-256 in repositories created so): what a checkpoint id must look like. */
export function isCommitId(id: string): boolean {
  return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(id);
}

/** Default storage directory when the caller passes none: the user's cache directory. */
export function defaultCheckpointStorageDir(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : undefined;
  return path.join(cache ?? path.join(os.homedir(), ".cache"), "agent-tree", "checkpoints");
}

/** The folder's store directory name: readable, and unique per absolute folder path. */
export function storeDirName(folder: string): string {
  const base =
    path
      .basename(folder)
      .replace(/[^A-Za-z0-9._-]+/g, "_")
      .slice(0, 40) || "folder";
  const hash = createHash("sha256").update(folder).digest("hex").slice(0, 16);
  return `${base}-${hash}`;
}

/** Paths of one folder's store. */
export function shadowLocation(storageDir: string, folder: string): GitLocation & { storeDir: string } {
  const storeDir = path.join(storageDir, storeDirName(folder));
  return {
    storeDir,
    gitDir: path.join(storeDir, "git"),
    indexFile: path.join(storeDir, "index"),
    workTree: folder,
  };
}

/** A gitignore pattern matching exactly the folder `rel` (relative to the work tree, "/"-separated). */
function literalDirPattern(rel: string): string {
  return "/" + rel.replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`) + "/";
}

/**
 * Rules the engine adds to the user's: restore staging folders (another window's checkpoint could run during a
 * restore), and the checkpoint storage itself when it lies inside the folder (a workspace opened on the home folder).
 */
export function engineIgnoreRules(folder: string, storageDir: string): string {
  const lines = [`/${STAGING_PREFIX}*/`];
  const rel = path.relative(folder, storageDir);
  const inside = rel !== "" && !(rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel));
  if (inside) lines.push(literalDirPattern(rel.split(path.sep).join("/")));
  return lines.join("\n") + "\n";
}

/** A lock file older than this was left by a crashed process (no shadow command runs this long). */
const STALE_LOCK_MS = 10 * 60 * 1000;

/** Creates the store on first use (or repairs a half-created one) and checks it is usable. */
export async function ensureShadowRepo(git: GitRunner, location: GitLocation & { storeDir: string }): Promise<void> {
  const folder = location.workTree;
  try {
    await fs.mkdir(location.storeDir, { recursive: true });
  } catch (error) {
    throw new CheckpointUnavailableError(
      "storage-unusable",
      `Cannot create the checkpoint storage ${location.storeDir}: ${errorText(error)}`,
      folder,
      { cause: error },
    );
  }
  const configFile = path.join(location.gitDir, "config");
  const ready = await fs
    .readFile(configFile, "utf8")
    .then((text) => text.includes("[gc]"))
    .catch(() => false);
  if (!ready) {
    await git.run(["init", "-q", "--template="]);
    await fs.appendFile(configFile, shadowConfig(location.gitDir));
    await git.run(["symbolic-ref", "HEAD", CHECKPOINT_REF]);
    await fs.writeFile(
      path.join(location.storeDir, "folder.json"),
      JSON.stringify({ folder, createdAt: new Date().toISOString() }, null, 2) + "\n",
    );
  }
  await fs.mkdir(path.join(location.gitDir, "info"), { recursive: true });
  await writeIfChanged(path.join(location.gitDir, "info", "attributes"), SHADOW_ATTRIBUTES);
  await removeStaleLock(location.indexFile + ".lock");
}

async function removeStaleLock(lock: string): Promise<void> {
  const st = await fs.stat(lock).catch(() => undefined);
  if (st && Date.now() - st.mtimeMs > STALE_LOCK_MS) await fs.rm(lock, { force: true });
}

/** Writes `content` unless the file already holds it (keeps git's caches valid). Returns true when written. */
export async function writeIfChanged(file: string, content: string): Promise<boolean> {
  const old = await fs.readFile(file, "utf8").catch(() => undefined);
  if (old === content) return false;
  await fs.writeFile(file, content);
  return true;
}

/** What a checkpoint commit's message holds besides its title. */
export interface CommitMeta {
  reason: string;
  /** Folders with nothing in them (git records files only). */
  emptyDirs: string[];
}

/** The commit message of a checkpoint. */
export function commitMessage(meta: CommitMeta): string {
  const title = `checkpoint: ${meta.reason.replace(/\s+/g, " ").slice(0, 72)}`;
  return `${title}\n\n${JSON.stringify({ reason: meta.reason, emptyDirs: meta.emptyDirs })}\n`;
}

/** Reads the meta back from `git cat-file commit` output (commits of older versions read as no empty folders). */
export function parseCommitMeta(raw: string): CommitMeta {
  const body = raw.slice(raw.indexOf("\n\n") + 2);
  const json = body.slice(body.indexOf("\n\n") + 2).trim();
  try {
    const parsed = JSON.parse(json) as { reason?: unknown; emptyDirs?: unknown };
    const emptyDirs = Array.isArray(parsed.emptyDirs)
      ? parsed.emptyDirs.filter((d): d is string => typeof d === "string")
      : [];
    return { reason: typeof parsed.reason === "string" ? parsed.reason : "", emptyDirs };
  } catch {
    return { reason: "", emptyDirs: [] };
  }
}
