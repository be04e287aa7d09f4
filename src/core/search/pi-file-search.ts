/**
 * Searching one pi session file (this extension's or pi's; version 3, older ones read whole).
 *
 * 1. The bytes are scanned for the query's anchor (line-scan.ts); only lines holding it are decoded. Each
 *    such entry is checked against every word (entry-match.ts). A word it lacks may still be in its label,
 *    which is on another line, so such entries are kept as "partial" matches; a label line holding the anchor
 *    puts the entry it names on the list too.
 * 2. Only when step 1 found something is the file opened (read-only, head-only index: about the cost of
 *    reading it once) for labels, the tree's shape (which branch, the session's title) and the current leaf.
 */
import { SessionManager } from "../session/session-manager.js";
import { scanSessionFile } from "../session/session-scan.js";
import { CURRENT_SESSION_VERSION, type SessionEntry } from "../session/types.js";
import { BranchResolver, type SessionTreeReader } from "./branch-info.js";
import { labelSupplies, snippetOf, wordsMissingFromEntry } from "./entry-match.js";
import { entrySearchFields } from "./entry-text.js";
import { scanLines } from "./line-scan.js";
import { chunkMatcher } from "./chunk-matcher.js";
import type { SearchQuery } from "./search-query.js";
import type { SearchSnippet, SearchStats, SearchTarget, SessionSearchHit } from "./types.js";
import type { EntryKind } from "../session/entry-kinds.js";

/** What a search of one file reports to. */
export interface FileSearchContext {
  query: SearchQuery;
  onHit: (hit: SessionSearchHit) => void;
  stats: SearchStats;
  signal?: AbortSignal;
}

/** An entry that holds the anchor: a match once its label supplies the words it lacks. */
interface Candidate {
  id: string;
  kind: EntryKind;
  timestamp: string;
  missing: string[];
  snippet: SearchSnippet;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The candidate an entry makes, or undefined for entries a search does not list. */
function candidateOf(entry: Record<string, unknown>, tokens: readonly string[]): Candidate | undefined {
  if (typeof entry.id !== "string" || typeof entry.type !== "string") return undefined;
  const fields = entrySearchFields(entry as unknown as SessionEntry);
  if (!fields) return undefined;
  return {
    id: entry.id,
    kind: fields.kind,
    timestamp: typeof entry.timestamp === "string" ? entry.timestamp : "",
    missing: wordsMissingFromEntry(tokens, fields),
    snippet: snippetOf(fields.text, tokens),
  };
}

/** The session's tree as the branch walk reads it. */
function treeOf(sm: SessionManager): SessionTreeReader {
  return {
    head: (id) => sm.getEntryHead(id),
    childIds: (id) => sm.getChildIds(id),
    label: (id) => sm.getLabel(id),
    preview: (id) => sm.getEnvelope(id)?.preview ?? "",
    leafId: sm.getLeafId(),
  };
}

/** Hits of the candidates that match once labels are known, in file order. */
function resolve(
  sm: SessionManager,
  target: SearchTarget,
  candidates: readonly Candidate[],
  ctx: FileSearchContext,
): void {
  const branches = new BranchResolver(treeOf(sm));
  const name = sm.getSessionName();
  for (const c of candidates) {
    if (!sm.hasEntry(c.id)) continue;
    const label = sm.getLabel(c.id);
    if (!labelSupplies(c.missing, label)) continue;
    const hit: SessionSearchHit = {
      path: target.path,
      source: target.source,
      sessionTitle: name ?? branches.firstUserOnPath(c.id),
      entryId: c.id,
      kind: c.kind,
      timestamp: c.timestamp,
      snippet: c.snippet,
      branch: branches.branchOf(c.id),
    };
    if (label !== undefined) hit.label = label;
    ctx.onHit(hit);
  }
}

/** Files before version 3 are small and have no stable ids: they are read whole through the store. */
async function searchOldFile(target: SearchTarget, ctx: FileSearchContext): Promise<void> {
  const sm = await SessionManager.open(target.path, { readOnly: true });
  try {
    const candidates: Candidate[] = [];
    for (const e of sm.getEntries()) {
      ctx.signal?.throwIfAborted();
      const c = candidateOf(e as unknown as Record<string, unknown>, ctx.query.tokens);
      if (c) candidates.push(c);
    }
    ctx.stats.candidateLines += sm.getEntryCount();
    resolve(sm, target, candidates, ctx);
  } finally {
    await sm.close();
  }
}

/** Search one pi session file; see the file comment. An unreadable file or one without a header is skipped. */
export async function searchPiFile(target: SearchTarget, ctx: FileSearchContext): Promise<void> {
  const file = target.path;
  ctx.stats.files++;
  let version: number;
  try {
    const head = scanSessionFile(file, { headerOnly: true });
    if (!head.header) {
      ctx.stats.skippedFiles++;
      return;
    }
    version = head.header.version ?? 1;
  } catch {
    ctx.stats.skippedFiles++;
    return;
  }
  if (version < CURRENT_SESSION_VERSION) return searchOldFile(target, ctx);

  const { tokens, anchor } = ctx.query;
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  const labelled = new Set<string>();
  await scanLines(
    file,
    chunkMatcher(anchor),
    Math.max(0, (anchor?.length ?? 1) - 1),
    (line) => {
      if (line.offset === 0) return; // the header
      ctx.stats.candidateLines++;
      let v: unknown;
      try {
        v = JSON.parse(line.bytes.toString("utf8"));
      } catch {
        ctx.stats.corruptLines++;
        return;
      }
      if (!isRecord(v)) {
        ctx.stats.corruptLines++;
        return;
      }
      if (v.type === "label" && typeof v.targetId === "string") labelled.add(v.targetId);
      const c = candidateOf(v, tokens);
      if (c && !seen.has(c.id)) {
        seen.add(c.id);
        candidates.push(c);
      }
    },
    ctx.stats,
    ctx.signal,
  );
  const unseenLabelled = [...labelled].filter((id) => !seen.has(id));
  if (candidates.length === 0 && unseenLabelled.length === 0) return;

  ctx.signal?.throwIfAborted();
  let sm: SessionManager;
  try {
    sm = await SessionManager.open(file, { readOnly: true });
  } catch {
    ctx.stats.skippedFiles++;
    return;
  }
  try {
    for (const id of unseenLabelled) {
      let entry: SessionEntry | undefined;
      try {
        entry = sm.getEntry(id);
      } catch {
        ctx.stats.corruptLines++; // its body is damaged on disk
        continue;
      }
      const c = entry && candidateOf(entry as unknown as Record<string, unknown>, tokens);
      if (c) candidates.push(c);
    }
    resolve(sm, target, candidates, ctx);
  } finally {
    await sm.close();
  }
}
