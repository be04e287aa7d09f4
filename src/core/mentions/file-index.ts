/**
 * The workspace's files and folders for the `@` list, walked once (src/core/tools/walk.ts: .gitignore
 * honoured, node_modules and .git skipped) and kept: the host removes deleted paths as its file watcher
 * reports them and asks for a fresh walk (`invalidate`) when files appear, so typing never walks the
 * workspace. `search` ranks by fuzzy-match.ts with recently opened files first.
 */
import { displayPath, resolveInWorkspace } from "../tools/path-guard.js";
import { walk } from "../tools/walk.js";
import { fuzzyScore } from "./fuzzy-match.js";

/** Paths kept at most; a larger workspace is listed up to here (the walk is breadth-first: shallow first). */
export const MAX_INDEXED_PATHS = 300_000;

/** One suggestion. */
export interface FileSuggestion {
  /** Relative to its workspace folder, forward slashes; folders end with "/". */
  path: string;
  /** The workspace folder it lies in (absolute). */
  root: string;
  isDir: boolean;
  /** True when it was among the recently opened files. */
  recent: boolean;
}

interface Item {
  path: string;
  lower: string;
  nameStart: number;
  root: string;
  isDir: boolean;
}

function itemOf(root: string, rel: string, isDir: boolean): Item {
  const path = isDir ? `${rel}/` : rel;
  const lower = path.toLowerCase();
  const trimmed = isDir ? lower.length - 1 : lower.length;
  return { path, lower, nameStart: lower.lastIndexOf("/", trimmed - 1) + 1, root, isDir };
}

/** See the file comment. */
export class FileIndex {
  private items: Item[] = [];
  /** The last query and every item it matched: typing on narrows these instead of scanning everything again. */
  private last: { query: string; matches: Item[] } | undefined;
  private building: Promise<void> | undefined;
  private stale = true;

  /** `roots`: the workspace folders (absolute). */
  constructor(private roots: readonly string[]) {}

  /** Replace the workspace folders; the next search walks again. */
  setRoots(roots: readonly string[]): void {
    this.roots = roots;
    this.invalidate();
  }

  /** Files appeared (or .gitignore changed): the next search walks again, answering from the old list meanwhile. */
  invalidate(): void {
    this.stale = true;
  }

  /** A path was deleted (absolute): it and everything below it leave the list at once. */
  remove(abs: string): void {
    const norm = abs.split("\\").join("/");
    this.last = undefined;
    this.items = this.items.filter((it) => {
      const full = `${it.root.split("\\").join("/")}/${it.path}`.replace(/\/$/, "");
      return full !== norm && !full.startsWith(`${norm}/`);
    });
  }

  /** Number of paths held. */
  get size(): number {
    return this.items.length;
  }

  /** Walk now unless the list is fresh (concurrent callers share one walk). */
  async ready(): Promise<void> {
    if (!this.stale) return;
    this.building ??= this.build().finally(() => (this.building = undefined));
    // The first walk must finish; later ones refresh in the background while the old list answers.
    if (this.items.length === 0) await this.building;
  }

  /** Resolves when no walk is running (a refresh started by a search has finished). */
  async idle(): Promise<void> {
    await this.building;
  }

  private async build(): Promise<void> {
    this.stale = false;
    const next: Item[] = [];
    for (const root of this.roots) {
      let start;
      try {
        start = await resolveInWorkspace(root, ".");
      } catch {
        continue;
      }
      for await (const e of walk(start, (abs) => displayPath(root, abs), { gitignoreRoot: root })) {
        if (next.length >= MAX_INDEXED_PATHS) break;
        if (e.isFile || e.isDir) next.push(itemOf(root, e.rel, e.isDir));
      }
    }
    this.items = next;
    this.last = undefined;
  }

  /**
   * The best `limit` matches of `query`. `recent`: absolute paths of recently opened files, most recent
   * first; those that match come before the rest.
   */
  async search(query: string, limit: number, recent: readonly string[] = []): Promise<FileSuggestion[]> {
    await this.ready();
    return this.rank(query, limit, recent);
  }

  /** search() on the list as it is (no walk): for measuring the matching alone. */
  rank(query: string, limit: number, recent: readonly string[] = []): FileSuggestion[] {
    const q = query.toLowerCase();
    // Recent files as paths below their root, looked up per candidate without building a string for each.
    const recentRank = new Map<string, Map<string, number>>();
    recent.forEach((abs, i) => {
      const file = abs.split("\\").join("/");
      for (const root of this.roots) {
        const r = root.split("\\").join("/").replace(/\/$/, "");
        if (!file.startsWith(`${r}/`)) continue;
        const ranks = recentRank.get(root) ?? new Map<string, number>();
        if (!ranks.has(file.slice(r.length + 1))) ranks.set(file.slice(r.length + 1), i);
        recentRank.set(root, ranks);
      }
    });
    // A bounded best-first list: sorted insert into at most `limit` entries, so 100k candidates cost one pass.
    const best: { item: Item; score: number }[] = [];
    // What matches "ab" matches "a": a longer query only needs the previous one's matches.
    const candidates = this.last && q.startsWith(this.last.query) ? this.last.matches : this.items;
    const matches: Item[] = [];
    for (const item of candidates) {
      let score = fuzzyScore(q, item.lower, item.nameStart);
      if (score < 0) continue;
      matches.push(item);
      const r = recentRank.size === 0 ? undefined : recentRank.get(item.root)?.get(item.path);
      if (r !== undefined) score += 1_000_000 - r;
      if (best.length === limit && score <= best[best.length - 1].score) continue;
      let at = best.length;
      while (at > 0 && best[at - 1].score < score) at--;
      best.splice(at, 0, { item, score });
      if (best.length > limit) best.pop();
    }
    this.last = { query: q, matches };
    return best.map(({ item, score }) => ({
      path: item.path,
      root: item.root,
      isDir: item.isDir,
      recent: score >= 900_000,
    }));
  }
}
