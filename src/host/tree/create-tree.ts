/** The tree's actions (docs/tree-navigation.md): moves, labels, forks, the node picker, sending a prompt. */
import type { CheckpointActions } from "../checkpoints/checkpoint-actions.js";
import type { HostServices } from "../common/services.js";
import type { SessionOpener } from "../session/session-opener.js";
import { HostActions } from "./actions.js";

/** The tree's actions; a move's files follow through the file actions. */
export function createTree(s: HostServices, d: { opener: SessionOpener; files: CheckpointActions }): HostActions {
  return new HostActions({
    controller: s.controller.get(),
    opener: d.opener,
    tree: s.views.tree,
    input: s.views.input,
    log: s.log,
    notify: s.notify,
    filesFollow: () => d.files.filesFollow(),
  });
}
