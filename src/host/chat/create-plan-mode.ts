/** Plan mode (docs/chat.md): Toggle Plan Mode and Approve Plan. */
import type { HostServices } from "../common/services.js";
import type { HostActions } from "../tree/actions.js";
import { PlanModeActions } from "./plan-mode-actions.js";

/** The plan mode's actions; `/plan <task>` sends its task as the chat input does. */
export function createPlanMode(s: HostServices, actions: HostActions): PlanModeActions {
  return new PlanModeActions({
    controller: s.controller.get(),
    notify: s.notify,
    send: (text) => actions.submit(text),
  });
}
