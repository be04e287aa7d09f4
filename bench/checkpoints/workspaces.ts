/**
 * Workspaces for the checkpoint benchmark: a generated one of 10,000 source-like files (plus an ignored
 * dependency folder that must cost nothing), and a copy of this repository's own files.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { REPO_DIR } from "../paths.js";

/** A workspace to measure: its folder and the files a "100 changed files" step edits. */
export interface BenchWorkspace {
  name: string;
  folder: string;
  /** Recorded files, folder-relative. */
  files: string[];
}

/** Deterministic text of a file (so runs compare). */
function fileText(i: number): string {
  const line = `export const value${i} = "${"lorem ipsum dolor sit amet ".repeat(2)}";\n`;
  return `// generated file ${i}\n` + line.repeat(20 + (i % 60));
}

/** 10,000 files in 20 × 10 × 5 folders (1–5 KB each), a .gitignore and 2,000 ignored files under node_modules/. */
export function generateWorkspace(folder: string, count = 10_000): BenchWorkspace {
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const rel = `src/pkg${i % 20}/mod${Math.floor(i / 20) % 10}/part${Math.floor(i / 200) % 5}/file${i}.ts`;
    const abs = join(folder, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, fileText(i));
    files.push(rel);
  }
  writeFileSync(join(folder, ".gitignore"), "node_modules/\n*.log\n");
  for (let i = 0; i < 2000; i++) {
    const abs = join(folder, "node_modules", `dep${i % 40}`, `index${i}.js`);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, "module.exports = 1;\n");
  }
  return { name: `generated, ${count.toLocaleString("en-US")} files`, folder, files };
}

/** A copy of this repository's files (tracked and untracked, not ignored), without its .git. */
export function copyOfThisRepository(folder: string): BenchWorkspace {
  const listing = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: REPO_DIR,
    maxBuffer: 64 * 1024 * 1024,
  });
  const files = listing
    .toString("utf8")
    .split("\0")
    .filter((p) => p !== "");
  const copied: string[] = [];
  for (const rel of files) {
    const from = join(REPO_DIR, rel);
    const to = join(folder, rel);
    mkdirSync(dirname(to), { recursive: true });
    try {
      copyFileSync(from, to);
      copied.push(rel);
    } catch {
      // A file deleted in the working tree but still in the index: nothing to copy.
    }
  }
  return { name: `this repository (${copied.length} files)`, folder, files: copied };
}

/** Appends a line to `count` files spread over the workspace; `round` makes each round's change different. */
export function changeFiles(ws: BenchWorkspace, count: number, round: number): string[] {
  const step = Math.max(1, Math.floor(ws.files.length / count));
  const changed: string[] = [];
  for (let k = 0; k < count && k * step < ws.files.length; k++) {
    const rel = ws.files[(k * step + round) % ws.files.length];
    const abs = join(ws.folder, rel);
    writeFileSync(abs, Buffer.concat([readFileSync(abs), Buffer.from(`\n// change ${round}\n`)]));
    changed.push(rel);
  }
  return changed;
}

/** Puts a line at the top of each of `files` (the other side of a both-sides-changed merge: changeFiles appends). */
export function prependToFiles(ws: BenchWorkspace, files: readonly string[], round: number): void {
  for (const rel of files) {
    const abs = join(ws.folder, rel);
    writeFileSync(abs, Buffer.concat([Buffer.from(`// ours ${round}\n`), readFileSync(abs)]));
  }
}
