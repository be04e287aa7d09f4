/**
 * The vocabulary of moving in the tree, from core to UI: how the user asked (NavigateMode), the options of
 * AgentSession.navigateTree and bringConclusions, and how either ended (TreeMoveResult, one discriminated union
 * that the host passes on, adding only the user's own "dismissed"). docs/tree-navigation.md describes the moves.
 */
import type { BranchSummaryEntry } from "../session/types.js";

/**
 * How the summary question of a move is handled: `ask` follows the user's setting, `choose` always asks (the
 * "Summarize and Switch Branch" command), `summarize` and `none` decide without asking.
 */
export type NavigateMode = "ask" | "choose" | "summarize" | "none";

/** navigateTree options. */
export interface NavigateTreeOptions {
  /** Summarize the branch being left. */
  summarize?: boolean;
  /** Extra focus for the summarizer (appended as "Additional focus: …"). */
  customInstructions?: string;
  /** With customInstructions: replace the default instructions instead of appending. */
  replaceInstructions?: boolean;
  /** Label for the summary entry, or for the target when not summarizing. */
  label?: string;
  /** Aborts summarization; navigation is then cancelled and nothing changes. */
  signal?: AbortSignal;
  /** Use the deterministic extractive summarizer even when a model is available. */
  extractive?: boolean;
}

/**
 * How a move in the tree ended. Anything but `moved` changed nothing.
 * - `moved`: the leaf moved; `editorText` is the selected user message's text (for re-submission), `summaryEntry`
 *   the branch summary written, if any.
 * - `noop`: the target already was the leaf.
 * - `cancelled`: a hook cancelled (silent, as in pi).
 * - `aborted`: the caller's signal aborted the summary.
 * - `failed`: the summary could not be written; `error` says why, for the user.
 */
export type TreeMoveResult =
  | { kind: "moved"; editorText?: string; summaryEntry?: BranchSummaryEntry }
  | { kind: "noop" }
  | { kind: "cancelled" }
  | { kind: "aborted" }
  | { kind: "failed"; error: string };

/**
 * AgentSession.navigateTree's public result: the TreeMoveResult with pi's fields beside `kind`, so a hook, another
 * extension or a script written against pi's `navigateTree()` reads `{ editorText?, cancelled, aborted?,
 * summaryEntry? }` as pi gives it. `cancelled` is false when the leaf is where it was asked to be (`moved`, `noop`)
 * and true when nothing changed (`cancelled`, `aborted` — then also `aborted: true` — and `failed`, which pi
 * throws instead).
 */
export type NavigateTreeResult =
  | { kind: "moved"; cancelled: false; editorText?: string; summaryEntry?: BranchSummaryEntry }
  | { kind: "noop"; cancelled: false }
  | { kind: "cancelled"; cancelled: true }
  | { kind: "aborted"; cancelled: true; aborted: true }
  | { kind: "failed"; cancelled: true; error: string };

/** A TreeMoveResult with pi's fields added (see NavigateTreeResult). */
export function withPiFields(result: TreeMoveResult): NavigateTreeResult {
  switch (result.kind) {
    case "moved":
    case "noop":
      return { ...result, cancelled: false };
    case "aborted":
      return { ...result, cancelled: true, aborted: true };
    default:
      return { ...result, cancelled: true };
  }
}

/**
 * Options of AgentSession.bringConclusions: the summary's focus, label, abort signal and summarizer choice, as
 * for navigateTree (there is no "no summary" here: the summary is the point).
 */
export type BringConclusionsOptions = Omit<NavigateTreeOptions, "summarize">;

/**
 * AgentSession.bringConclusions result: never a no-op (nothing to bring is `failed`), and a move always writes the
 * summary (now the leaf).
 */
export type BringConclusionsResult =
  Exclude<TreeMoveResult, { kind: "moved" } | { kind: "noop" }> | { kind: "moved"; summaryEntry: BranchSummaryEntry };
