/**
 * Deterministic summarizer that needs no model: it extracts the user's requests, the stated
 * constraints, what the tools did, errors, and the assistant's last conclusions. Used when no model
 * or key is configured (and on request), so branch summaries and compaction never depend on a key.
 */
import { contentText, type AgentMessage } from "../messages.js";
import { truncateMiddle } from "./serialize.js";
import { toolCallHint } from "../entries/tool-summary.js";
import { toolLabel } from "../mcp/mcp-display.js";

/** First line of every extractive summary, so readers (and models) know what they are looking at. */
export const EXTRACTIVE_HEADER = "(Extractive summary: compiled from the conversation without a model.)";

const CONSTRAINT_WORDS =
  /\b(must|mustn't|must not|should|shouldn't|don't|do not|never|always|prefer|avoid|make sure|only use|without)\b/i;

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

function pushUnique(list: string[], item: string, cap: number): void {
  if (list.length < cap && !list.includes(item)) list.push(item);
}

/** A call as the entry view says it (`edit src/cli.ts`, `todo 3/7`), what it acts on set as code. */
function describeToolCall(name: string, args: Record<string, unknown>): string {
  const hint = toolCallHint(name, args);
  return hint === "" ? toolLabel(name) : `${toolLabel(name)} \`${hint}\``;
}

/** Input of {@link extractiveSummary}. */
export interface ExtractiveInput {
  messages: readonly AgentMessage[];
  /** An earlier summary this one extends (iterative compaction). */
  previousSummary?: string;
}

/** A structured summary built only from the messages' text. Same input, same output. */
export function extractiveSummary(input: ExtractiveInput): string {
  const requests: string[] = [];
  const constraints: string[] = [];
  const done: string[] = [];
  const blocked: string[] = [];
  let lastConclusion = "";
  let unanswered: string | undefined;
  let interrupted: string | undefined;

  // Tool calls are only "done" once a non-error result for them is seen.
  const pendingCalls = new Map<string, string>();
  for (const m of input.messages) {
    switch (m.role) {
      case "user":
      case "custom": {
        const text = contentText(m.content).trim();
        if (!text) break;
        if (m.role === "user") pushUnique(requests, oneLine(text, 300), 20);
        for (const sentence of text.split(/(?<=[.!?])\s+|\n+/)) {
          if (CONSTRAINT_WORDS.test(sentence)) pushUnique(constraints, oneLine(sentence, 200), 10);
        }
        unanswered = m.role === "user" ? oneLine(text, 200) : unanswered;
        interrupted = undefined;
        break;
      }
      case "assistant": {
        const text = contentText(m.content).trim();
        if (text) lastConclusion = text;
        for (const c of m.content)
          if (c.type === "toolCall") pendingCalls.set(c.id, describeToolCall(c.name, c.arguments));
        if (m.stopReason === "error") {
          pushUnique(blocked, `model error: ${oneLine(m.errorMessage ?? "unknown error", 200)}`, 10);
          interrupted = unanswered;
        } else if (m.stopReason === "aborted") interrupted = unanswered;
        else unanswered = undefined;
        break;
      }
      case "toolResult": {
        const action = pendingCalls.get(m.toolCallId) ?? m.toolName;
        pendingCalls.delete(m.toolCallId);
        if (m.isError) pushUnique(blocked, `${action} failed: ${oneLine(contentText(m.content), 200)}`, 10);
        else if (m.toolName !== "read") pushUnique(done, action, 30);
        break;
      }
      case "bashExecution":
        pushUnique(done, `user ran \`${oneLine(m.command, 120)}\`${m.exitCode ? ` (exit ${m.exitCode})` : ""}`, 30);
        break;
      case "branchSummary":
      case "compactionSummary":
        break;
    }
  }

  const lines: string[] = [EXTRACTIVE_HEADER, ""];
  if (input.previousSummary) {
    lines.push("## Earlier Context", truncateMiddle(input.previousSummary.trim(), 4000), "");
  }
  const nested = input.messages.filter((m) => m.role === "branchSummary");
  for (const b of nested) lines.push("## Summary of an Abandoned Branch", truncateMiddle(b.summary.trim(), 2000), "");
  lines.push("## Goal", requests[0] ?? "(no user request in this part of the conversation)", "");
  if (requests.length > 1) lines.push("## User Requests", ...requests.map((r) => `- ${r}`), "");
  lines.push(
    "## Constraints & Preferences",
    ...(constraints.length ? constraints.map((c) => `- ${c}`) : ["- (none stated)"]),
    "",
  );
  lines.push("## Progress", "### Done", ...(done.length ? done.map((d) => `- [x] ${d}`) : ["- (no tool actions)"]));
  const inProgress = interrupted ?? unanswered;
  if (inProgress) lines.push("", "### In Progress", `- [ ] ${inProgress}`);
  if (blocked.length) lines.push("", "### Blocked", ...blocked.map((b) => `- ${b}`));
  lines.push("");
  if (lastConclusion) lines.push("## Last Conclusions", truncateMiddle(lastConclusion, 1500), "");
  return lines.join("\n").trimEnd();
}
