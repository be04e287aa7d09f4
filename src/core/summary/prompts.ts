/**
 * Prompts of the summarizer model: pi's structured sections (Goal / Constraints & Preferences / Progress / Key
 * Decisions / Next Steps), for branch summaries, first compactions and iterative compaction updates
 * (docs/branch-summaries.md).
 */

/** System prompt of every summary request. */
export const SUMMARIZATION_SYSTEM_PROMPT =
  "You are a context summarization assistant. You read a transcript of a conversation between a user and an " +
  "AI coding assistant and write a structured summary that another assistant will use to continue the work. " +
  "Do not continue the conversation and do not answer questions in it; only summarize it.";

const SECTIONS = `Use this format:

## Goal
[What the user is trying to accomplish]

## Constraints & Preferences
- [Requirements, conventions or preferences the user stated]

## Progress
### Done
- [x] [Completed work]

### In Progress
- [ ] [Work that was started but not finished]

### Blocked
- [Problems that stopped progress, if any]

## Key Decisions
- **[Decision]**: [Why it was made]

## Next Steps
1. [What should happen next]

Keep it concise. Keep exact file paths, function names, commands and error messages.`;

/** Default instructions for a branch summary. */
export const BRANCH_SUMMARY_INSTRUCTIONS = `The transcript above is a branch of the conversation that the user is leaving to try something else. Summarize what was attempted and learned on it, so it can be taken into account on the new branch.

${SECTIONS}`;

/** Default instructions for a first compaction. */
export const COMPACTION_INSTRUCTIONS = `The transcript above is the older part of a long conversation. It will be replaced by your summary; the most recent messages stay as they are. Summarize it so the work can continue without it.

${SECTIONS}`;

/** Default instructions when an earlier compaction summary exists and must be brought up to date. */
export const COMPACTION_UPDATE_INSTRUCTIONS = `The <previous-summary> summarizes the conversation before the transcript above. Update it with the transcript: keep everything in it that still holds, move finished items to Done, add new decisions, constraints, progress and next steps, and drop what the transcript shows is obsolete. Answer with the complete updated summary, not a diff.

${SECTIONS}`;

/** Applies the user's custom instructions: appended as "Additional focus", or replacing the defaults. */
export function buildInstructions(base: string, customInstructions?: string, replaceInstructions?: boolean): string {
  const custom = customInstructions?.trim();
  if (!custom) return base;
  if (replaceInstructions) return custom;
  return `${base}\n\nAdditional focus: ${custom}`;
}

/** The user message of a summary request. */
export function buildSummaryUserPrompt(transcript: string, instructions: string, previousSummary?: string): string {
  let prompt = `<conversation>\n${transcript}\n</conversation>\n\n`;
  if (previousSummary) prompt += `<previous-summary>\n${previousSummary}\n</previous-summary>\n\n`;
  return prompt + instructions;
}
