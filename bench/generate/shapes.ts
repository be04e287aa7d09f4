/**
 * The session shapes the benchmark opens: long linear-ish sessions with occasional branches and labels, a
 * heavy one sized in bytes, a deep one (every level a branch point) and a bushy one (one node, many branches).
 * All are valid pi v3 files: pi and our store both open them.
 */
import { randomUUID } from "node:crypto";
import { entryId, SessionWriter, type WrittenSession } from "./session-writer.js";
import { HEAVY_PROFILE, SMALL_PROFILE, TurnMaker } from "./turns.js";

/** Start-of-session entries pi writes (model and thinking level). Returns the last id. */
function writePrelude(writer: SessionWriter): string {
  const model = writer.add(null, { type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" });
  return writer.add(model, { type: "thinking_level_change", thinkingLevel: "medium" });
}

/**
 * When pi compacts: the context passes the model's window less the reserve (200k and 16,384 tokens for the
 * Claude models the sessions name), at about four characters a token.
 */
const COMPACT_AT_CHARS = (200_000 - 16_384) * 4;

/**
 * Turns until `done(writer)`: every 40th turn goes back two turns (a branch), every 97th turn is labelled.
 * Labels hang off the leaf and the next turn continues under them, as pi writes them. As in pi, the session
 * is compacted whenever the context since the last compaction outgrows the model's window: a compaction at the
 * leaf keeps the turn just written (so a session of any size resumes with a context a model could take).
 */
function writeTurns(writer: SessionWriter, maker: TurnMaker, done: (w: SessionWriter) => boolean): void {
  let leaf = writePrelude(writer);
  const recentEnds: string[] = [leaf];
  let contextChars = 0;
  for (let turn = 1; !done(writer); turn++) {
    const parent = turn % 40 === 0 && recentEnds.length >= 3 ? recentEnds[recentEnds.length - 3] : leaf;
    const firstId = writer.entries;
    const before = writer.size;
    leaf = maker.writeTurn(writer, parent);
    const turnChars = writer.size - before;
    contextChars += turnChars;
    if (contextChars > COMPACT_AT_CHARS) {
      leaf = writer.add(leaf, maker.compaction(entryId(firstId), Math.round(contextChars / 4)));
      contextChars = turnChars;
    }
    recentEnds.push(leaf);
    if (recentEnds.length > 4) recentEnds.shift();
    if (turn % 97 === 0) {
      // The label targets the user message that opened this turn (its id is the first one the turn wrote).
      const userId = entryId(firstId);
      leaf = writer.add(leaf, { type: "label", targetId: userId, label: `checkpoint-${turn}` });
    }
  }
}

/** About `entries` entries of everyday size (1 KB tool outputs). */
export function writeLinear(path: string, entries: number, seed: number): WrittenSession {
  const writer = new SessionWriter(path, randomUUID());
  writeTurns(writer, new TurnMaker(SMALL_PROFILE, seed), (w) => w.entries >= entries);
  return writer.close();
}

/** About `bytes` bytes of heavy turns (10 KB tool outputs, thinking with signatures). */
export function writeHeavy(path: string, bytes: number, seed: number): WrittenSession {
  const writer = new SessionWriter(path, randomUUID());
  writeTurns(writer, new TurnMaker(HEAVY_PROFILE, seed), (w) => w.size >= bytes);
  return writer.close();
}

/**
 * `levels` nested branch points: a main chain of alternating user/assistant messages where every entry also
 * has a one-entry side branch, so a tree view that indents only at branch points indents `levels` deep.
 * The side branch is written first, so the main chain's tail is the last line (pi's leaf).
 */
export function writeDeep(path: string, levels: number, seed: number): WrittenSession {
  const writer = new SessionWriter(path, randomUUID());
  const maker = new TurnMaker(SMALL_PROFILE, seed);
  let parent: string | null = null;
  for (let level = 0; level < levels; level++) {
    const isUser = level % 2 === 0;
    if (parent !== null) writer.add(parent, isUser ? maker.user(writer.nowMs()) : maker.assistant(writer.nowMs()));
    parent = writer.add(parent, isUser ? maker.user(writer.nowMs()) : maker.assistant(writer.nowMs()));
  }
  return writer.close();
}

/** One assistant reply with `branches` children, each branch two short turns long. */
export function writeBushy(path: string, branches: number, seed: number): WrittenSession {
  const writer = new SessionWriter(path, randomUUID());
  const maker = new TurnMaker(SMALL_PROFILE, seed);
  const root = maker.writeTurn(writer, writePrelude(writer), 0);
  for (let b = 0; b < branches; b++) maker.writeTurn(writer, maker.writeTurn(writer, root, 1), 1);
  return writer.close();
}
