/**
 * Searching one Claude Code transcript (with its subagents' files). Its lines become entries only through the
 * whole-file conversion (split replies merged, tool results split out, sidechains attached), so the scan
 * only decides whether a file can match: when the anchor occurs in any of its files, the transcript is
 * converted as it is when opened (same entry ids, so a hit can be revealed) and every entry is checked.
 */
import { readTranscript } from "../import/claude-session.js";
import type { SessionEntry } from "../session/types.js";
import { entryPreview } from "../session/preview.js";
import { BranchResolver, type SessionTreeReader } from "./branch-info.js";
import { labelSupplies, snippetOf, wordsMissingFromEntry } from "./entry-match.js";
import { entrySearchFields } from "./entry-text.js";
import { scanLines } from "./line-scan.js";
import { chunkMatcher } from "./chunk-matcher.js";
import type { FileSearchContext } from "./pi-file-search.js";
import type { SearchTarget, SessionSearchHit } from "./types.js";

/**
 * Text the conversion writes that no transcript line holds (lower case): an anchor inside one of these may
 * match a converted entry whatever the file says, so such a query converts every transcript.
 */
const CONVERSION_TEXT: readonly string[] = [
  "[image]",
  "[image: ",
  "[redacted thinking]",
  "conversation compacted",
  "sidechain: ",
  "subagent: ",
  "subagent ",
];

/** Thrown out of the scan at the first matching line: one is enough to convert the file. */
class AnchorFound extends Error {}

async function holdsAnchor(target: SearchTarget, ctx: FileSearchContext): Promise<boolean> {
  const { anchor } = ctx.query;
  if (anchor === undefined || CONVERSION_TEXT.some((t) => t.includes(anchor))) {
    ctx.stats.files += target.files.length;
    return true;
  }
  for (const file of target.files) {
    ctx.stats.files++;
    try {
      await scanLines(
        file,
        chunkMatcher(anchor),
        anchor.length - 1,
        () => {
          throw new AnchorFound();
        },
        ctx.stats,
        ctx.signal,
      );
    } catch (err) {
      if (err instanceof AnchorFound) return true;
      if (ctx.signal?.aborted) throw err;
      ctx.stats.skippedFiles++;
    }
  }
  return false;
}

/** The converted entries as the branch walk reads them. */
function treeOf(
  entries: readonly SessionEntry[],
  leafId: string | null,
  labels: Map<string, string>,
): SessionTreeReader {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const children = new Map<string, string[]>();
  for (const e of entries) {
    if (e.parentId === null) continue;
    const list = children.get(e.parentId);
    if (list) list.push(e.id);
    else children.set(e.parentId, [e.id]);
  }
  return {
    head: (id) => {
      const e = byId.get(id);
      if (!e) return undefined;
      return { parentId: e.parentId, type: e.type, role: e.type === "message" ? e.message.role : undefined };
    },
    childIds: (id) => children.get(id) ?? [],
    label: (id) => labels.get(id),
    preview: (id) => {
      const e = byId.get(id);
      return e ? entryPreview(e) : "";
    },
    leafId,
  };
}

/** Search one Claude Code transcript; see the file comment. A transcript that does not convert is skipped. */
export async function searchClaudeTranscript(target: SearchTarget, ctx: FileSearchContext): Promise<void> {
  if (!(await holdsAnchor(target, ctx))) return;
  ctx.signal?.throwIfAborted();
  let converted;
  try {
    converted = await readTranscript(target.path, false);
  } catch {
    ctx.stats.skippedFiles++;
    return;
  }
  ctx.stats.corruptLines += converted.issues.filter((i) => i.reason.startsWith("invalid JSON")).length;
  const { entries } = converted;
  ctx.stats.candidateLines += entries.length;
  const labels = new Map<string, string>();
  for (const e of entries) {
    if (e.type !== "label") continue;
    if (e.label) labels.set(e.targetId, e.label);
    else labels.delete(e.targetId);
  }
  const branches = new BranchResolver(treeOf(entries, converted.leafId, labels));
  const { tokens } = ctx.query;
  for (const e of entries) {
    const fields = entrySearchFields(e);
    if (!fields) continue;
    const label = labels.get(e.id);
    if (!labelSupplies(wordsMissingFromEntry(tokens, fields), label)) continue;
    const hit: SessionSearchHit = {
      path: target.path,
      source: target.source,
      sessionTitle: converted.title ?? branches.firstUserOnPath(e.id),
      entryId: e.id,
      kind: fields.kind,
      timestamp: e.timestamp,
      snippet: snippetOf(fields.text, tokens),
      branch: branches.branchOf(e.id),
    };
    if (label !== undefined) hit.label = label;
    ctx.onHit(hit);
  }
}
