/**
 * Compares the paths to two entries of a session: their common ancestor, then the turns after it on each side,
 * aligned (align.ts) and marked same / changed / left only / right only, with word-level differences inside
 * changed items (word-diff.ts).
 *
 * Built for long branches: the turns and their alignment come from envelopes (no bodies). Two aligned turns whose
 * envelopes differ are "changed" without reading anything; only aligned turns whose envelopes agree are read to
 * confirm they really are the same. Items and differences are built per page of turns, when the view asks.
 */
import { rowLine } from "../entries/row-words.js";
import { treeRowOf } from "../rows/tree-row.js";
import type { EntryEnvelope, SessionEntry } from "../session/types.js";
import { alignKeys } from "./align.js";
import {
  STATUS_CODES,
  type CompareEnd,
  type CompareItem,
  type CompareOverview,
  type CompareRow,
  type CompareStatus,
  type CompareTurn,
} from "./compare-types.js";
import { itemKey, itemsOfEntry, sameItem, type FullItem } from "./items.js";
import { countTurns, isTurnEntry, isUserMessage, splitTurns, type BranchTurn } from "./turns.js";
import { wordDiff } from "./word-diff.js";

/** What a comparison reads from a session (SessionManager has all of it). */
export interface CompareSource {
  getEnvelope(id: string): EntryEnvelope | undefined;
  getEntry(id: string): SessionEntry | undefined;
  findCommonAncestor(a: string, b: string): string | null;
  getLabel(id: string): string | undefined;
}

/** Most turns one page may hold. */
export const MAX_PAGE_TURNS = 50;
/** Entries of the ancestor's turn shown for context (the ones nearest the ancestor). */
const ANCESTOR_CONTEXT_ENTRIES = 12;

/** An end's title: its row, as the tree says it (`user: …`, `[branch summary] …`). */
function titleOf(env: EntryEnvelope): string {
  return rowLine(treeRowOf(env));
}

/** One aligned turn: indexes into the left and right turns (-1 where a side has none). */
interface TurnPair {
  left: number;
  right: number;
}

/** A comparison of two entries' paths (see the file comment). */
export class BranchComparison {
  /** Status letters and ends, for the view's first message. */
  readonly overview: CompareOverview;
  private readonly pairs: TurnPair[];

  private constructor(
    private readonly source: CompareSource,
    private readonly leftTurns: BranchTurn[],
    private readonly rightTurns: BranchTurn[],
    leftEnd: CompareEnd,
    rightEnd: CompareEnd,
    ancestor: CompareOverview["ancestor"],
  ) {
    // Turns of different kinds (a summary and a user turn) are never set side by side.
    this.pairs = alignKeys(
      leftTurns.map((t) => t.key),
      rightTurns.map((t) => t.key),
      { a: leftTurns.map((t) => t.kind), b: rightTurns.map((t) => t.kind) },
    ).map((p) => ({ left: p.a, right: p.b }));
    let statuses = "";
    for (const p of this.pairs) statuses += STATUS_CODES[this.pairStatus(p)];
    this.overview = { left: leftEnd, right: rightEnd, statuses };
    if (ancestor) this.overview.ancestor = ancestor;
  }

  /** Compares the paths to `leftId` and `rightId`. Throws for an id the session does not have. */
  static create(source: CompareSource, leftId: string, rightId: string): BranchComparison {
    const leftEnv = source.getEnvelope(leftId);
    const rightEnv = source.getEnvelope(rightId);
    if (!leftEnv) throw new Error(`Cannot compare: no entry with id "${leftId}" in this session`);
    if (!rightEnv) throw new Error(`Cannot compare: no entry with id "${rightId}" in this session`);
    const ancestorId = source.findCommonAncestor(leftId, rightId);
    const leftTurns = splitTurns(stretch(source, leftId, ancestorId));
    const rightTurns = splitTurns(stretch(source, rightId, ancestorId));
    const end = (env: EntryEnvelope, turns: number): CompareEnd => {
      const out: CompareEnd = { entryId: env.id, title: titleOf(env), turns };
      const label = source.getLabel(env.id);
      if (label !== undefined && label !== "") out.label = label;
      return out;
    };
    let ancestor: CompareOverview["ancestor"];
    if (ancestorId !== null) {
      const path = stretch(source, ancestorId, null);
      ancestor = { entryId: ancestorId, items: ancestorItems(source, path), sharedTurns: countTurns(path) };
      const label = source.getLabel(ancestorId);
      if (label !== undefined && label !== "") ancestor.label = label;
    }
    return new BranchComparison(
      source,
      leftTurns,
      rightTurns,
      end(leftEnv, leftTurns.length),
      end(rightEnv, rightTurns.length),
      ancestor,
    );
  }

  /** Number of aligned turns. */
  get turnCount(): number {
    return this.pairs.length;
  }

  /** Aligned turns [start, start + count) with their items; at most MAX_PAGE_TURNS, clamped to the turns there are. */
  turns(start: number, count: number): CompareTurn[] {
    const from = Math.max(0, Math.floor(start));
    const to = Math.min(this.pairs.length, from + Math.max(0, Math.min(MAX_PAGE_TURNS, Math.floor(count))));
    const out: CompareTurn[] = [];
    for (let i = from; i < to; i++) out.push(this.turnAt(i));
    return out;
  }

  private turnAt(index: number): CompareTurn {
    const p = this.pairs[index];
    const left = p.left >= 0 ? this.leftTurns[p.left] : undefined;
    const right = p.right >= 0 ? this.rightTurns[p.right] : undefined;
    const kind = (left ?? right)?.kind ?? "turn";
    const rows = alignItems(left ? this.itemsOf(left) : [], right ? this.itemsOf(right) : []);
    return { index, status: turnStatus(left, right, rows), kind, rows };
  }

  /** The status of an aligned turn: from the envelopes where they differ, from the bodies where they agree. */
  private pairStatus(p: TurnPair): CompareStatus {
    if (p.right < 0) return "left";
    if (p.left < 0) return "right";
    const left = this.leftTurns[p.left];
    const right = this.rightTurns[p.right];
    if (left.kind !== right.kind || left.signature !== right.signature) return "changed";
    // Alike envelopes give items of the same kinds in the same order: compared pairwise, this is what
    // alignItems would conclude, without aligning.
    const l = this.itemsOf(left);
    const r = this.itemsOf(right);
    return l.length === r.length && l.every((item, i) => sameItem(item, r[i])) ? "same" : "changed";
  }

  private itemsOf(turn: BranchTurn): FullItem[] {
    const out: FullItem[] = [];
    for (const id of turn.ids) {
      const entry = this.source.getEntry(id);
      if (entry) out.push(...itemsOfEntry(entry));
    }
    return out;
  }
}

/**
 * Envelopes from `tipId` up to, not including, `stopId` (null: the root), root first. A parent cycle in a damaged
 * file ends the walk instead of looping.
 */
function stretch(source: CompareSource, tipId: string, stopId: string | null): EntryEnvelope[] {
  const out: EntryEnvelope[] = [];
  const seen = new Set<string>();
  for (let id: string | null = tipId; id !== null && id !== stopId && !seen.has(id);) {
    seen.add(id);
    const env = source.getEnvelope(id);
    if (!env) break;
    out.push(env);
    id = env.parentId;
  }
  return out.reverse();
}

/** The ancestor's turn up to the ancestor (its last few entries), as items, for context above the branches. */
function ancestorItems(source: CompareSource, path: readonly EntryEnvelope[]): CompareItem[] {
  const picked: EntryEnvelope[] = [];
  for (let i = path.length - 1; i >= 0 && picked.length < ANCESTOR_CONTEXT_ENTRIES; i--) {
    const env = path[i];
    if (!isTurnEntry(env)) continue;
    picked.push(env);
    if (isUserMessage(env) || env.type === "branch_summary" || env.type === "compaction") break;
  }
  const items: CompareItem[] = [];
  for (let i = picked.length - 1; i >= 0; i--) {
    const entry = source.getEntry(picked[i].id);
    if (entry) for (const f of itemsOfEntry(entry)) items.push(f.item);
  }
  return items;
}

/** The items of two turns side by side; changed pairs carry their word-level differences. */
function alignItems(left: readonly FullItem[], right: readonly FullItem[]): CompareRow[] {
  const pairs = alignKeys(
    left.map((f) => itemKey(f.item)),
    right.map((f) => itemKey(f.item)),
    { a: left.map((f) => f.item.kind), b: right.map((f) => f.item.kind) },
  );
  return pairs.map(({ a, b }): CompareRow => {
    if (b < 0) return { status: "left", left: { item: left[a].item } };
    if (a < 0) return { status: "right", right: { item: right[b].item } };
    const l = left[a];
    const r = right[b];
    if (sameItem(l, r)) return { status: "same", left: { item: l.item }, right: { item: r.item } };
    const diff = wordDiff(l.item.text, r.item.text);
    return {
      status: "changed",
      left: { item: l.item, spans: diff.left },
      right: { item: r.item, spans: diff.right },
    };
  });
}

function turnStatus(
  left: BranchTurn | undefined,
  right: BranchTurn | undefined,
  rows: readonly CompareRow[],
): CompareStatus {
  if (!right) return "left";
  if (!left) return "right";
  return left.kind === right.kind && rows.every((r) => r.status === "same") ? "same" : "changed";
}
