/**
 * Which Task (or Agent) tool call launched each subagent whose transcript is a file of its own
 * (claude-subagent-files.ts reads them, in either layout).
 *
 * The parent transcript names the subagent in up to three places, all read here: the Task tool_result's text
 * ("agentId: <id> (for resuming to continue this agent's work if needed)"), the structured `toolUseResult.agentId`
 * of that result line, and `progress` lines (`data.type` "agent_progress", `data.agentId`, `parentToolUseID`).
 */
import { blocksOf } from "./claude-blocks.js";
import type { ClaudeSubagentTranscript } from "./claude-subagent-files.js";
import type { ClaudeLine, ClaudeRecord } from "./claude-types.js";

/** Where a subagent's branch hangs: the line holding the Task call that launched it. */
export interface SubagentAttachment {
  rec: ClaudeRecord;
  toolUseId: string;
  description?: string;
}

/** Tool names Claude Code has used for launching a subagent. */
export const TASK_TOOL_NAMES: ReadonlySet<string> = new Set(["Task", "Agent"]);

/** How a Task result's text names the subagent (the id is hex in every version seen; allow a bit more). */
const AGENT_ID_IN_TEXT = /\bagentId: ([A-Za-z0-9_-]+)/;

interface TaskCall {
  rec: ClaudeRecord;
  toolUseId: string;
  description?: string;
  prompt?: string;
  order: number;
  time: number;
  /** When the Task's result line was written: a subagent starting after it cannot be this call's. */
  resultTime?: number;
}

/** Unknown times sort last. */
function sortTime(t: number): number {
  return Number.isNaN(t) ? Number.MAX_VALUE : t;
}

function timeOf(d: ClaudeLine): number {
  return typeof d.timestamp === "string" ? Date.parse(d.timestamp) : NaN;
}

/** Text of a string-or-blocks value (tool_result content, user content). */
function textOf(content: unknown): string {
  return blocksOf(content)
    .filter((b) => b.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join("\n");
}

function collectTaskCalls(records: readonly ClaudeRecord[]): Map<string, TaskCall> {
  const calls = new Map<string, TaskCall>();
  for (const rec of records) {
    if (rec.data.type !== "assistant") continue;
    for (const b of blocksOf(rec.data.message?.content)) {
      if (b.type !== "tool_use" || typeof b.id !== "string" || typeof b.name !== "string") continue;
      // Split replies may repeat earlier blocks in later lines: the first line holding the call wins.
      if (!TASK_TOOL_NAMES.has(b.name) || calls.has(b.id)) continue;
      const input = (typeof b.input === "object" && b.input !== null ? b.input : {}) as Record<string, unknown>;
      calls.set(b.id, {
        rec,
        toolUseId: b.id,
        description: typeof input.description === "string" ? input.description : undefined,
        prompt: typeof input.prompt === "string" ? input.prompt : undefined,
        order: calls.size,
        time: timeOf(rec.data),
      });
    }
  }
  return calls;
}

/** Task call id → agent ids the transcript names for it, in the order found. */
function namedAgents(records: readonly ClaudeRecord[], calls: Map<string, TaskCall>): [string, string][] {
  const named: [string, string][] = [];
  for (const rec of records) {
    const d = rec.data;
    if (d.type === "progress" && typeof d.parentToolUseID === "string" && calls.has(d.parentToolUseID)) {
      const data = d.data as { type?: unknown; agentId?: unknown } | undefined;
      if (data?.type === "agent_progress" && typeof data.agentId === "string")
        named.push([d.parentToolUseID, data.agentId]);
      continue;
    }
    if (d.type !== "user") continue;
    const results = blocksOf(d.message?.content).filter(
      (b) => b.type === "tool_result" && typeof b.tool_use_id === "string" && calls.has(b.tool_use_id),
    );
    for (const b of results) {
      const call = calls.get(b.tool_use_id as string) as TaskCall;
      if (call.resultTime === undefined) call.resultTime = timeOf(d);
      const inText = AGENT_ID_IN_TEXT.exec(textOf(b.content));
      if (inText) named.push([call.toolUseId, inText[1]]);
      // toolUseResult describes the line's only result; with several results it is ambiguous.
      const structured = (d.toolUseResult as { agentId?: unknown } | undefined)?.agentId;
      if (results.length === 1 && typeof structured === "string") named.push([call.toolUseId, structured]);
    }
  }
  return named;
}

/** First timestamp and root prompt of a subagent file. */
function startOf(s: ClaudeSubagentTranscript): { time: number; prompt?: string } {
  const first = s.records.find((r) => !Number.isNaN(timeOf(r.data)));
  const root = s.records.find((r) => r.data.type === "user" && !r.data.parentUuid);
  return { time: first ? timeOf(first.data) : NaN, prompt: root ? textOf(root.data.message?.content) : undefined };
}

/**
 * Which Task call launched each subagent: the one whose result (or progress) names its agentId; else the one
 * whose prompt is the subagent's first message; else, in time order, the first unclaimed Task call made before
 * the subagent started whose result (if any) came after that. Subagents matched by none are absent.
 * Task calls are looked for in every file given, so a subagent launched by another subagent hangs off it.
 */
export function matchSubagents(
  records: readonly ClaudeRecord[],
  subagents: readonly ClaudeSubagentTranscript[],
): Map<string, SubagentAttachment> {
  const calls = collectTaskCalls(records);
  const agents = new Set(subagents.map((s) => s.agentId));
  const byAgent = new Map<string, TaskCall>();
  const claimed = new Set<string>();
  const claim = (agentId: string, call: TaskCall): void => {
    byAgent.set(agentId, call);
    claimed.add(call.toolUseId);
  };
  for (const [toolUseId, agentId] of namedAgents(records, calls)) {
    const call = calls.get(toolUseId) as TaskCall;
    if (!agents.has(agentId) || byAgent.has(agentId) || claimed.has(toolUseId) || call.rec.agent === agentId) continue;
    claim(agentId, call);
  }
  // Older versions wrote sidechains into the transcript itself; the Task calls those answer are taken.
  for (const r of records) {
    const d = r.data;
    if (r.agent !== undefined || !d.isSidechain || d.type !== "user" || d.parentUuid) continue;
    const prompt = textOf(d.message?.content);
    for (const c of calls.values()) if (c.prompt === prompt) claimed.add(c.toolUseId);
  }
  // Only a file with a parentless line needs a launcher: a compaction agent's lines hang off the main file.
  const open = subagents
    .filter((s) => !byAgent.has(s.agentId) && s.records.some((r) => r.data.type === "user" && !r.data.parentUuid))
    .map((s) => ({ agentId: s.agentId, ...startOf(s) }))
    .sort((a, b) => sortTime(a.time) - sortTime(b.time));
  // A subagent never hangs off a Task call in its own file.
  const usable = (c: TaskCall, agentId: string): boolean => !claimed.has(c.toolUseId) && c.rec.agent !== agentId;
  const ordered = [...calls.values()];
  for (const s of open) {
    const call = ordered.find((c) => usable(c, s.agentId) && s.prompt !== undefined && c.prompt === s.prompt);
    if (call) claim(s.agentId, call);
  }
  for (const s of open) {
    if (byAgent.has(s.agentId) || Number.isNaN(s.time)) continue;
    const call = ordered.find(
      (c) =>
        usable(c, s.agentId) &&
        c.time <= s.time &&
        (c.resultTime === undefined || Number.isNaN(c.resultTime) || c.resultTime >= s.time),
    );
    if (call) claim(s.agentId, call);
  }
  const out = new Map<string, SubagentAttachment>();
  for (const [agentId, c] of byAgent)
    out.set(agentId, { rec: c.rec, toolUseId: c.toolUseId, description: c.description });
  return out;
}
