/** Facts about the Claude Code transcripts in test/fixtures/claude that more than one import test checks. */
import { join } from "node:path";

/** The folder of the Claude Code transcript fixtures. */
export const FIXTURES = join(__dirname, "../../fixtures/claude");

/**
 * The roles of the messages on branching-tools.jsonl's leaf branch (the one that ends after Glob), from the first
 * prompt down; the transcript's meta line sits above them as a hidden custom message.
 */
export const BRANCHING_TOOLS_LEAF_ROLES = [
  "user",
  "assistant",
  "toolResult",
  "assistant",
  "toolResult",
  "user",
  "assistant",
  "toolResult",
  "assistant",
] as const;
