/** Review (docs/tools.md): a pending write or edit as a diff with Accept and Reject, and the files a run changed. */
import type { CheckpointService } from "../checkpoints/checkpoint-service.js";
import type { HostServices } from "../common/services.js";
import type { BranchViews } from "../parallel/create-parallel.js";
import { EditReview } from "./edit-review.js";
import { RunChangesView } from "./run-changes-view.js";

/** The edits' diffs (their answers go to the session's approvals) and the run's changed files, in the chat. */
export function createReview(
  s: HostServices,
  store: CheckpointService,
  branches: Pick<BranchViews, "postMainChat">,
): { edits: EditReview; runChanges: RunChangesView } {
  const { cwd, log } = s;
  const runChanges = new RunChangesView({ service: store, postChat: branches.postMainChat, log });
  const edits = new EditReview({
    cwd,
    answer: (id, approved, allInRun) => s.controller.peek()?.approvals?.answer(id, approved, false, allInRun),
    log,
  });
  s.subscribe(edits.register());
  return { edits, runChanges };
}
