/** Export: the session or a branch as one HTML file (README, "Commands"). */
import type { HostServices } from "../common/services.js";
import type { HostActions } from "../tree/actions.js";
import { ExportActions } from "./export-actions.js";

/** Export Session / Branch as HTML (a branch picked through the tree's node picker). */
export function createExport(s: HostServices, actions: HostActions): ExportActions {
  return new ExportActions(s.controller.get(), actions, s.notify, s.context.extensionUri);
}
