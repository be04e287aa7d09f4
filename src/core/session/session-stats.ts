/**
 * pi's `/session` figures and `/copy` text, from a session's entries: what pi's AgentSession.getSessionStats and
 * getLastAssistantText compute, so a pi user reads the same numbers here.
 */
import { metaOf } from "./entry-meta.js";
import type { SessionEntry } from "./types.js";

/** Tokens and cost summed over entries. */
export interface UsageSum {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** USD, as the providers reported it. */
  cost: number;
  /** `provider/model` of the replies, in the order first used. */
  models: string[];
}

/**
 * Token use and cost of the entries: replies, and the model calls compactions, branch summaries and `usage`
 * entries record (the entry meta reads them all), with the models of the replies. The export's page and `/session`
 * both count this way.
 */
export function usageOfEntries(entries: readonly SessionEntry[]): UsageSum {
  const sum: UsageSum = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, models: [] };
  const models = new Set<string>();
  for (const e of entries) {
    const { usage, model } = metaOf(e);
    if (!usage) continue;
    sum.input += usage.input;
    sum.output += usage.output;
    sum.cacheRead += usage.cacheRead;
    sum.cacheWrite += usage.cacheWrite;
    sum.cost += usage.cost.total;
    if (model) models.add(`${model.provider}/${model.modelId}`);
  }
  sum.models = [...models];
  return sum;
}

/** pi's session statistics. */
export interface SessionStats {
  userMessages: number;
  assistantMessages: number;
  toolCalls: number;
  toolResults: number;
  /** Every message entry (bash executions and hook messages included, as pi counts them). */
  totalMessages: number;
  usage: UsageSum;
}

/**
 * The statistics of all the entries (history compacted away and other branches included, as pi: what was billed
 * across the session).
 */
export function sessionStats(entries: readonly SessionEntry[]): SessionStats {
  const s: SessionStats = {
    userMessages: 0,
    assistantMessages: 0,
    toolCalls: 0,
    toolResults: 0,
    totalMessages: 0,
    usage: usageOfEntries(entries),
  };
  for (const e of entries) {
    if (e.type !== "message" || !e.message) continue;
    s.totalMessages++;
    const m = e.message;
    if (m.role === "user") s.userMessages++;
    else if (m.role === "toolResult") s.toolResults++;
    else if (m.role === "assistant") {
      s.assistantMessages++;
      if (Array.isArray(m.content)) s.toolCalls += m.content.filter((c) => c.type === "toolCall").length;
    }
  }
  return s;
}

/** What `/session` shows besides the statistics. */
export interface SessionInfoHead {
  name?: string;
  /** Undefined for a session not saved to a file. */
  file?: string;
  id: string;
}

/** pi's `/session` text (its wording and order; pi's cache-warming section has no counterpart here). */
export function formatSessionInfo(head: SessionInfoHead, s: SessionStats): string {
  const n = (x: number): string => x.toLocaleString("en-US");
  const lines = ["Session Info", ""];
  if (head.name) lines.push(`Name: ${head.name}`);
  lines.push(`File: ${head.file ?? "In-memory"}`, `ID: ${head.id}`, "");
  lines.push(
    "Messages",
    `Total: ${s.totalMessages}`,
    `User: ${s.userMessages}`,
    `Assistant: ${s.assistantMessages}`,
    `Tools: ${s.toolCalls} calls, ${s.toolResults} results`,
    "",
  );
  const { input, output, cacheRead, cacheWrite, cost } = s.usage;
  // pi's "Input" is the whole prompt volume; with cache activity it splits it into cached and uncached.
  const prompt = input + cacheRead + cacheWrite;
  lines.push("Tokens", `Input: ${n(prompt)}`);
  if (prompt > 0 && (cacheRead > 0 || cacheWrite > 0)) {
    lines.push(`  Cached: ${n(cacheRead)} (${((cacheRead / prompt) * 100).toFixed(1)}%)`);
    const written = cacheWrite > 0 ? ` (${n(cacheWrite)} written to cache)` : "";
    lines.push(`  Uncached: ${n(input + cacheWrite)}${written}`);
  }
  lines.push(`Output: ${n(output)}`, `Total: ${n(prompt + output)}`);
  if (cost > 0) lines.push("", "Cost", `Total: $${cost.toFixed(3)}`);
  return lines.join("\n");
}

/**
 * The text of the last assistant reply of `messages` (a path's, root first), as pi's `/copy` picks it: a reply
 * without text from a turn that did not end normally (aborted, failed, only calling tools) is skipped; undefined
 * when there is none or its text is empty.
 */
export function lastAssistantText(entries: readonly SessionEntry[]): string | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e?.type !== "message" || e.message?.role !== "assistant") continue;
    const m = e.message;
    const texts = Array.isArray(m.content)
      ? m.content.filter((c): c is { type: "text"; text: string } => c.type === "text")
      : [];
    if (m.stopReason !== "stop" && !texts.some((c) => c.text.trim())) continue;
    return (
      texts
        .map((c) => c.text)
        .join("")
        .trim() || undefined
    );
  }
  return undefined;
}
