/**
 * What happens when the user picks a tree node: the summary question, the optional focus prompt, the
 * cancellable progress while summarizing, and the messages afterwards. Pure logic over two small
 * interfaces so it runs under plain Node with a fake UI and a real AgentSession.
 */
import type { NavigateMode, NavigateTreeOptions, TreeMoveResult } from "../../core/agent/navigate-types.js";
import { errorText } from "../../core/error-text.js";

export type { NavigateMode };

/** The answer to "Summarize the branch you're leaving?". */
export type SummaryChoice = "none" | "summarize" | "custom";

/** The setting `agentTree.branchSummary.ask`. */
export type AskSetting = "ask" | "always" | "never";

/** The editor UI the flow needs. */
export interface NavigateUi {
  /** Quick pick: No summary / Summarize / Summarize with custom prompt…; undefined when dismissed. */
  pickSummaryChoice(): Promise<SummaryChoice | undefined>;
  /** Input box for the summary focus; undefined when dismissed. */
  inputFocus(): Promise<string | undefined>;
  /** Run `task` under a cancellable progress notification; cancelling aborts the signal. */
  withProgress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Promise<T>;
  showError(message: string): void;
  showInfo(message: string): void;
  /** The tree disables clicks while a move runs. */
  setBusy(busy: boolean, message?: string): void;
  /**
   * The questions the flow asked (the summary choice, the focus) have closed, answered or dismissed; not called when
   * none was asked. The workbench does not give the focus back to a webview when a quick pick closes: the tree
   * takes it back here.
   */
  questionsClosed?(): void;
}

/** The part of AgentSession the flow uses. */
export interface TreeNavigator {
  getLeafId(): string | null;
  navigateTree(targetId: string, options?: NavigateTreeOptions): Promise<TreeMoveResult>;
}

/**
 * Files that follow the move (src/host/checkpoints/restore-on-switch.ts). The files are restored first and the leaf moved
 * second; a move that does not happen puts the files back, so a failure or cancel of either step leaves both
 * the files and the leaf as they were.
 */
export interface FilesFollow {
  /** Before the leaf moves: asks and restores as the setting says. False: cancelled or failed, nothing changed. */
  beforeMove(targetId: string): Promise<boolean>;
  /** After the move: reports the restore when `moved`, else puts the files back. */
  afterMove(moved: boolean): Promise<void>;
}

/** How a navigation ended: the core's result, or `dismissed` when the user closed a question (nothing changed). */
export type NavigateOutcome = TreeMoveResult | { kind: "dismissed" };

/** Shown when the target is already the leaf. */
export const ALREADY_HERE = "Already at this point.";

/** Whether the summary question is asked: always in `choose` mode, and as the setting says in `ask` mode. */
function asksChoice(mode: NavigateMode, ask: AskSetting): boolean {
  return mode === "choose" || (mode === "ask" && ask === "ask");
}

async function resolveChoice(mode: NavigateMode, ask: AskSetting, ui: NavigateUi): Promise<SummaryChoice | undefined> {
  if (asksChoice(mode, ask)) return ui.pickSummaryChoice();
  return mode === "none" || (mode === "ask" && ask === "never") ? "none" : "summarize";
}

/**
 * Move the session to `targetId`, asking about a summary as `mode` and the setting say, with `files` following
 * the move when given. Never throws: failures become an error message with the leaf unchanged.
 */
export async function runNavigateFlow(
  nav: TreeNavigator,
  ui: NavigateUi,
  targetId: string,
  mode: NavigateMode,
  ask: AskSetting,
  files?: FilesFollow,
): Promise<NavigateOutcome> {
  if (nav.getLeafId() === targetId) return report({ kind: "noop" }, ui);
  const choice = await resolveChoice(mode, ask, ui);
  const focus = choice === "custom" ? await askFocus(ui) : NO_FOCUS;
  if (asksChoice(mode, ask)) ui.questionsClosed?.();
  if (choice === undefined || focus === undefined) return { kind: "dismissed" };
  const { customInstructions } = focus;
  if (files && !(await files.beforeMove(targetId))) return { kind: "dismissed" };
  const summarize = choice !== "none";
  ui.setBusy(true, summarize ? "Summarizing branch…" : "Switching branch…");
  let result: TreeMoveResult;
  try {
    result = summarize
      ? await ui.withProgress("Summarizing the branch you're leaving…", (signal) =>
          nav.navigateTree(targetId, { summarize: true, customInstructions, signal }),
        )
      : await nav.navigateTree(targetId, { summarize: false });
  } catch (e) {
    result = { kind: "failed", error: errorText(e) };
  } finally {
    ui.setBusy(false);
  }
  await files?.afterMove(result.kind === "moved");
  return report(result, ui);
}

/** What a summary focuses on, appended to the default instructions (none: the default instructions alone). */
export interface SummaryFocus {
  readonly customInstructions?: string;
}

/** No focus asked for. */
export const NO_FOCUS: SummaryFocus = {};

/**
 * Asks for a summary's focus (the branch switch's custom prompt, Bring Conclusions Here's focus): undefined when the
 * input box was dismissed; an empty answer means the default instructions alone.
 */
export async function askFocus(ui: Pick<NavigateUi, "inputFocus">): Promise<SummaryFocus | undefined> {
  const focus = await ui.inputFocus();
  return focus === undefined ? undefined : { customInstructions: focus.trim() || undefined };
}

/** Tells the user how a move ended, where it needs telling (a hook's cancel is silent, as in pi). */
function report(result: TreeMoveResult, ui: NavigateUi): TreeMoveResult {
  if (result.kind === "noop") ui.showInfo(ALREADY_HERE);
  if (result.kind === "failed") ui.showError(`Switching branch failed: ${result.error}`);
  return result;
}

/** The status line after a successful move. */
export function movedMessage(outcome: Extract<NavigateOutcome, { kind: "moved" }>): string {
  const base =
    outcome.summaryEntry !== undefined ? "Switched branch; the branch you left was summarized." : "Switched branch.";
  return outcome.editorText !== undefined ? `${base} The selected message is in the chat input.` : base;
}
