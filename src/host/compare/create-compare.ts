/** Compare (docs/compare.md): two paths side by side in a panel, Bring Conclusions Here, Go to Source. */
import type { CheckpointActions } from "../checkpoints/checkpoint-actions.js";
import type { HostServices } from "../common/services.js";
import { CompareActions } from "./compare-actions.js";
import { ComparePanels } from "./compare-panel.js";

/** The panels and the compare actions (a panel's row reveals its entry in the tree through them). */
export function createCompare(
  s: HostServices,
  files: CheckpointActions,
): { compare: CompareActions; panels: ComparePanels } {
  const { log, notify } = s;
  const panels = new ComparePanels(s.context.extensionUri, {
    log,
    reveal: (sessionId, entryId) => void compare.revealInTree(sessionId, entryId),
    files: (session) => files.compareFiles(session),
  });
  s.subscribe(panels);
  const compare = new CompareActions({
    controller: s.controller.get(),
    notify,
    tree: s.views.tree,
    panels,
    files,
    log,
  });
  return { compare, panels };
}
