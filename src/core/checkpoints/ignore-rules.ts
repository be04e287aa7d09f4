/**
 * The user's ignore rules that git would not see on its own in the shadow repository. The folder's own
 * `.gitignore` files (nested ones included) and the user's global excludes file are read by git natively; what
 * lives in the user's repository metadata is not: its `info/exclude`, and, when the workspace folder is a
 * sub-folder of a repository, the `.gitignore` files above it. Those are collected here (read only — nothing is
 * ever written into the user's repository) and written into the shadow repository's own `info/exclude`.
 */
import fs from "node:fs/promises";
import path from "node:path";

/** The user's repository around `folder`: its work tree root and git directory. */
interface EnclosingRepo {
  root: string;
  gitDir: string;
}

async function readText(file: string): Promise<string | undefined> {
  return fs.readFile(file, "utf8").catch(() => undefined);
}

/** Finds `.git` in `folder` or above it (a directory, or a file `gitdir: …` of a worktree or submodule). */
async function findEnclosingRepo(folder: string): Promise<EnclosingRepo | undefined> {
  let dir = folder;
  for (let depth = 0; depth < 256; depth++) {
    const dotGit = path.join(dir, ".git");
    const st = await fs.lstat(dotGit).catch(() => undefined);
    if (st?.isDirectory()) return { root: dir, gitDir: dotGit };
    if (st?.isFile()) {
      const match = /^gitdir:\s*(.+?)\s*$/m.exec((await readText(dotGit)) ?? "");
      if (match) return { root: dir, gitDir: path.resolve(dir, match[1]) };
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

/** A linked worktree keeps `info/exclude` in the common git directory. */
async function commonGitDir(gitDir: string): Promise<string> {
  const common = (await readText(path.join(gitDir, "commondir")))?.trim();
  return common ? path.resolve(gitDir, common) : gitDir;
}

/** Escapes a path segment so that it matches itself in a gitignore pattern. */
function regexOfSegment(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\" && i + 1 < glob.length) re += escapeRegex(glob[++i]);
    else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) re += "\\[";
      else {
        let body = glob.slice(i + 1, end);
        if (body.startsWith("!")) body = "^" + body.slice(1);
        re += `[${body.replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else re += escapeRegex(c);
  }
  return new RegExp(`^${re}$`);
}

function escapeRegex(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

/**
 * Rewrites one ignore file's patterns, written for directory `base`, so that they apply inside `folder`
 * (`rel` = folder relative to base, "/"-separated, non-empty). Patterns without an inner slash match at any
 * depth and are kept; anchored patterns are kept when their leading segments match the way down to the folder,
 * with those segments removed. Patterns that would ignore the folder itself are dropped (they would leave
 * nothing to record).
 */
export function rebaseIgnorePatterns(text: string, rel: string): string[] {
  const relSegs = rel.split("/").filter((s) => s !== "");
  const out: string[] = [];
  for (const rawLine of text.split("\n")) {
    let line = rawLine.replace(/\r$/, "");
    if (line.trim() === "" || line.startsWith("#")) continue;
    // Trailing spaces are ignored by git unless escaped.
    line = line.replace(/(?<!\\)\s+$/, "");
    let negate = "";
    if (line.startsWith("!")) {
      negate = "!";
      line = line.slice(1);
    }
    let dirOnly = "";
    if (line.endsWith("/")) {
      dirOnly = "/";
      line = line.slice(0, -1);
    }
    if (line === "") continue;
    if (!line.includes("/") || line.startsWith("**/")) {
      out.push(negate + line + dirOnly);
      continue;
    }
    const segs = line.replace(/^\//, "").split("/");
    let kept: string | undefined;
    for (let i = 0; i < segs.length; i++) {
      if (segs[i] === "**") {
        kept = "/" + segs.slice(i).join("/");
        break;
      }
      if (i >= relSegs.length) {
        kept = "/" + segs.slice(i).join("/");
        break;
      }
      if (!regexOfSegment(segs[i]).test(relSegs[i])) break;
    }
    if (kept !== undefined) out.push(negate + kept + dirOnly);
  }
  return out;
}

/**
 * The text for the shadow repository's `info/exclude`: the user's repository's `info/exclude` and, for a folder
 * below the repository root, the ignore files on the way down to it, rebased onto the folder.
 */
export async function collectOuterIgnoreRules(folder: string): Promise<string> {
  const repo = await findEnclosingRepo(folder);
  if (!repo) return "";
  const rel = path.relative(repo.root, folder).split(path.sep).join("/");
  const sections: string[] = [];
  const exclude = await readText(path.join(await commonGitDir(repo.gitDir), "info", "exclude"));
  if (exclude !== undefined) {
    sections.push(rel === "" ? exclude.replace(/\n?$/, "\n") : rebaseIgnorePatterns(exclude, rel).join("\n") + "\n");
  }
  if (rel !== "") {
    // .gitignore files from the repository root down to the folder's parent (the folder's own is read by git).
    const segs = rel.split("/");
    for (let i = 0; i < segs.length; i++) {
      const dir = path.join(repo.root, ...segs.slice(0, i));
      const text = await readText(path.join(dir, ".gitignore"));
      if (text !== undefined) sections.push(rebaseIgnorePatterns(text, segs.slice(i).join("/")).join("\n") + "\n");
    }
  }
  return sections.filter((s) => s.trim() !== "").join("");
}
