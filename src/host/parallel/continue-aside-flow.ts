/**
 * **Continue as Branch** in the editor (docs/parallel.md): the aside of a row — the chat's aside, its notification,
 * a tree row's menu — becomes an ordinary branch. Its operation's guards ran first (a move's: the main agent idle,
 * nothing running at the row, so a running aside is refused there, the files free) and it holds the leaf. The move
 * is a click's (HostActions.navigate: the summary question for the branch left, the files following), then the core
 * settles the aside (src/core/parallel/continue-aside.ts: the agent's whole loadout recorded at the leaf, the aside
 * marked continued). Reports through the Notifier; never throws. Pure: no `vscode` import.
 */
import { asideToContinue, settleContinuedAside } from "../../core/parallel/continue-aside.js";
import type { Notify } from "../common/notifier.js";
import type { SessionController } from "../session/session-controller.js";
import type { HostActions } from "../tree/actions.js";

/** What Continue as Branch needs from the rest of the host. */
export interface ContinueAsideDeps {
  controller: Pick<SessionController, "requireSession">;
  /** The move of a click on a row, with its questions. */
  navigation: Pick<HostActions, "navigate">;
  notify: Pick<Notify, "warn" | "status" | "error">;
  /** The first entries of the branches the session runs now. */
  liveBranchIds(): ReadonlySet<string>;
}

/** Said once the aside was continued. */
export const CONTINUED_TEXT =
  "Continued the aside as a branch: the leaf is on its answer and the agent has all its tools.";

/** See the file comment: `entryId` is any row of the aside (its question: the chat's aside). */
export async function continueAsideFlow(d: ContinueAsideDeps, entryId: string): Promise<void> {
  const { sm, agent } = d.controller.requireSession();
  const aside = asideToContinue(sm, entryId, d.liveBranchIds());
  if ("refusal" in aside) return d.notify.warn(aside.refusal);
  // Already there (a click on the answer before): no move, no question.
  if (sm.getLeafId() !== aside.answerId) await d.navigation.navigate(aside.answerId, "ask");
  // The move said why it did not happen (dismissed, cancelled, failed); nothing is continued then.
  if (!sm.getPathEnvelopes().some((e) => e.id === aside.answerId)) return;
  try {
    await settleContinuedAside(agent, aside);
  } catch (e) {
    return d.notify.error("Continue as Branch", e);
  }
  d.notify.status(CONTINUED_TEXT);
}
