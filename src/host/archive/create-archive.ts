/** Archived branches (docs/archive.md): archive, unarchive, delete permanently. */
import type { HostServices } from "../common/services.js";
import type { HostActions } from "../tree/actions.js";
import { ArchiveActions } from "./archive-actions.js";

/** The branch actions; the leaf moves out of a branch first through the tree's actions. */
export function createArchive(s: HostServices, actions: HostActions): ArchiveActions {
  return new ArchiveActions({ controller: s.controller.get(), actions, notify: s.notify });
}
