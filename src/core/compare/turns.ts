/**
 * A stretch of a branch as turns, from the entries' envelopes only (no bodies): a turn is a user message and
 * everything up to the next user message; a branch summary or a compaction is a turn of its own; entries before
 * the first user message form a `continuation` turn. Bookkeeping entries (labels, leaf markers, thinking level,
 * session name) belong to no turn: they change nothing the model is told.
 */
import type { EntryEnvelope } from "../session/types.js";
import type { CompareTurnKind } from "./compare-types.js";

/** One turn of a branch: its entries, the key turns are aligned by, and a cheap fingerprint of its content. */
export interface BranchTurn {
  kind: CompareTurnKind;
  ids: string[];
  /** Equal keys are aligned with each other: the kind and the opening entry's preview. */
  key: string;
  /** Equal for turns whose envelopes agree (type, role, tools, preview, failure) entry by entry. */
  signature: string;
}

const SKIPPED_TYPES = new Set(["label", "custom", "thinking_level_change", "session_info"]);

/** The turn kind an entry stands alone as, if it does (summaries and compactions). */
function ownTurnKind(env: EntryEnvelope): CompareTurnKind | undefined {
  if (env.type === "branch_summary" || (env.type === "message" && env.role === "branchSummary")) return "branchSummary";
  if (env.type === "compaction" || (env.type === "message" && env.role === "compactionSummary")) return "compaction";
  return undefined;
}

/** True for the entries a turn shows (see the file comment). */
export function isTurnEntry(env: EntryEnvelope): boolean {
  return !SKIPPED_TYPES.has(env.type);
}

/** True for an entry that opens a turn of kind `turn`. */
export function isUserMessage(env: EntryEnvelope): boolean {
  return env.type === "message" && env.role === "user";
}

function fingerprint(env: EntryEnvelope): string {
  return `${env.type}\u0001${env.role ?? ""}\u0001${env.toolName ?? ""}\u0001${env.failed === true ? 1 : 0}\u0001${env.preview}`;
}

/** Splits a chronological stretch of envelopes into turns (see the file comment). */
export function splitTurns(envelopes: readonly EntryEnvelope[]): BranchTurn[] {
  const turns: BranchTurn[] = [];
  let current: { kind: CompareTurnKind; ids: string[]; key: string; prints: string[] } | undefined;
  const close = (): void => {
    if (current)
      turns.push({ kind: current.kind, ids: current.ids, key: current.key, signature: current.prints.join("\u0002") });
    current = undefined;
  };
  for (const env of envelopes) {
    if (!isTurnEntry(env)) continue;
    const own = ownTurnKind(env);
    if (own !== undefined) {
      close();
      turns.push({ kind: own, ids: [env.id], key: `${own}\u0000${env.preview}`, signature: fingerprint(env) });
      continue;
    }
    if (isUserMessage(env)) {
      close();
      current = { kind: "turn", ids: [], key: `turn\u0000${env.preview}`, prints: [] };
    } else if (!current) {
      current = { kind: "continuation", ids: [], key: "continuation", prints: [] };
    }
    current.ids.push(env.id);
    current.prints.push(fingerprint(env));
  }
  close();
  return turns;
}

/** The number of turns a root-first path holds (counted as splitTurns would, without building them). */
export function countTurns(envelopes: readonly EntryEnvelope[]): number {
  let count = 0;
  let open = false;
  for (const env of envelopes) {
    if (!isTurnEntry(env)) continue;
    if (ownTurnKind(env) !== undefined) {
      count++;
      open = false;
    } else if (isUserMessage(env) || !open) {
      count++;
      open = true;
    }
  }
  return count;
}
