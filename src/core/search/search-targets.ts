/**
 * The files a search of a workspace reads: the same places "Open Session" lists (session-sources.ts) — the
 * workspace's session folder, pi's folder for the workspace when that is another one, and Claude Code's
 * transcripts of the workspace with their subagents' files — found by listing folders only (nothing is read
 * but the first lines of older-layout subagent files, to learn whose they are). Newest first.
 */
import { readdir, stat } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { claudeProjectDirs } from "../import/claude-paths.js";
import { claudeSubagentDir, sessionIdOfFile, subagentIdOfFileName } from "../import/claude-subagent-files.js";
import type { ListAllOptions, SessionSource } from "../import/session-sources.js";
import { defaultSessionDir } from "../session/paths.js";
import type { SearchTarget } from "./types.js";

/** `*.jsonl` files of a folder with their stats; a missing or unreadable folder has none. */
async function jsonlFiles(dir: string): Promise<{ path: string; size: number; mtimeMs: number }[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const out: { path: string; size: number; mtimeMs: number }[] = [];
  for (const name of names) {
    if (!name.endsWith(".jsonl")) continue;
    const path = join(dir, name);
    try {
      const st = await stat(path);
      if (st.isFile()) out.push({ path, size: st.size, mtimeMs: st.mtimeMs });
    } catch {
      // gone since the listing: nothing to search
    }
  }
  return out;
}

async function piTargets(dir: string, source: SessionSource): Promise<SearchTarget[]> {
  return (await jsonlFiles(dir)).map((f) => ({
    source,
    format: "pi",
    path: f.path,
    files: [f.path],
    bytes: f.size,
    mtimeMs: f.mtimeMs,
  }));
}

/** Transcripts of one Claude Code project folder, each with its subagents' files (both layouts). */
async function claudeTargets(dir: string): Promise<SearchTarget[]> {
  const files = await jsonlFiles(dir);
  const byId = new Map<string, SearchTarget>();
  const olderAgents: { path: string; size: number }[] = [];
  for (const f of files) {
    const name = basename(f.path);
    if (subagentIdOfFileName(name) !== undefined) {
      olderAgents.push(f);
      continue;
    }
    const target: SearchTarget = {
      source: "claude",
      format: "claude",
      path: f.path,
      files: [f.path],
      bytes: f.size,
      mtimeMs: f.mtimeMs,
    };
    for (const sub of await jsonlFiles(claudeSubagentDir(f.path))) {
      if (subagentIdOfFileName(basename(sub.path)) === undefined) continue;
      target.files.push(sub.path);
      target.bytes += sub.size;
    }
    byId.set(name.slice(0, -".jsonl".length), target);
  }
  // Older versions wrote subagents beside every transcript: only their lines say whose they are.
  for (const f of olderAgents) {
    const owner = byId.get((await sessionIdOfFile(f.path).catch(() => undefined)) ?? "");
    if (!owner || owner.files.includes(f.path)) continue;
    owner.files.push(f.path);
    owner.bytes += f.size;
  }
  return [...byId.values()];
}

/** Every session of the workspace `cwd` a search reads (see the file comment), newest first. */
export async function findSearchTargets(cwd: string, opts: ListAllOptions = {}): Promise<SearchTarget[]> {
  const piDir = defaultSessionDir(cwd, opts.agentDir);
  const ownDir = opts.sessionDir ?? piDir;
  const out = await piTargets(ownDir, "workspace");
  if (resolve(ownDir) !== resolve(piDir)) out.push(...(await piTargets(piDir, "pi")));
  if (opts.claudeDir !== null) {
    const seen = new Set<string>();
    for (const dir of claudeProjectDirs(cwd, opts.claudeDir ?? undefined)) {
      if (seen.has(resolve(dir))) continue;
      seen.add(resolve(dir));
      out.push(...(await claudeTargets(dir)));
    }
  }
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs);
}
