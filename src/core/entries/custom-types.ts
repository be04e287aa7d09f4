/**
 * The project's own `custom` entries (extension state pi keeps and leaves out of the context), by customType, with
 * the word a row shows for each. Their writers own the types and their data (src/core/checkpoints/session-link.ts,
 * src/core/parallel/branch-run-lines.ts, src/core/import/claude-session.ts, src/core/session/types.ts and
 * entry-kinds.ts); the strings are repeated here so that this module stays free of Node for the webviews, and
 * test/core/entries/entry-view.test.ts checks they are the writers' own.
 */
import { ARCHIVE_MARKER_TYPE } from "../session/entry-kinds.js";
import { LEAF_MARKER_TYPE } from "../session/types.js";

/** customType of checkpoint links (CHECKPOINT_ENTRY_TYPE). */
export const CHECKPOINT_TYPE = "agent-tree/checkpoint";
/** customType of a parallel branch's run lines (BRANCH_RUN_TYPE). */
export const BRANCH_RUN_TYPE = "agent-tree/branch-run";
/** customType of the line that records a Claude Code import (IMPORT_CUSTOM_TYPE). */
export const IMPORT_TYPE = "agent-tree/import";

/** The word of each of the project's custom types: `[checkpoint]` rather than `[extension state] agent-tree/…`. */
const CUSTOM_TYPE_WORDS: ReadonlyMap<string, string> = new Map([
  [CHECKPOINT_TYPE, "checkpoint"],
  [BRANCH_RUN_TYPE, "branch run"],
  [ARCHIVE_MARKER_TYPE, "archive"],
  [LEAF_MARKER_TYPE, "leaf move"],
  [IMPORT_TYPE, "import"],
]);

/** The word of one of the project's custom types, or undefined for another extension's. */
export function customTypeWord(customType: string): string | undefined {
  return CUSTOM_TYPE_WORDS.get(customType);
}
