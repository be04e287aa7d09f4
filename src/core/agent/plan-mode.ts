/**
 * Plan mode (docs/chat.md): while it is on, the agent is offered only tools that change nothing (read, grep, find,
 * ls, todo, an MCP server's tools marked `readOnlyHint`, web_fetch) and its system prompt tells it to research and
 * propose a plan; Approve Plan turns it off and asks the agent to carry the plan out with all its tools.
 *
 * The mode is no state of its own: it is recorded on the branch as a `custom` entry pi ignores
 * (`{"customType":"agent-tree/plan-mode","data":{"enabled":true}}`), and the mode at a point is the newest such
 * line on the path from the root to it. So a reload shows it again, a branch switch shows the other branch's, and a
 * fork keeps it. Pure (no Node): the host and tests read it too.
 */
import { PLAN_MODE_TYPE, planModeData } from "../session/entry-kinds.js";
import { searchEnvelopes, type PathSearch, type PathTest } from "../session/path-search.js";
import type { AgentTool } from "../tools/types.js";

export { PLAN_MODE_TYPE } from "../session/entry-kinds.js";

/** The system prompt section plan mode adds (recorded with the prompt, so pi replays the same instructions). */
export const PLAN_MODE_SECTION = "plan_mode";

/** What the model is told while plan mode is on. */
export const PLAN_MODE_INSTRUCTIONS = `Plan mode is on. The user wants a plan before anything is changed.
- Research first: read the relevant files, search the code, and ask the user about anything unclear.
- Do not change anything: you only have tools that read. Do not write or edit files, and do not try to run commands.
- Then answer with the plan: what you found, the steps you would take (the files to change and how), the risks, and how you would check the result. Be concrete and concise.
- The user approves the plan (then you carry it out with all your tools) or asks you to keep planning.`;

/** The user message Approve Plan sends after plan mode is turned off. */
export const CARRY_OUT_PLAN_TEXT = "Carry out the plan above.";

/** Tools plan mode offers besides those that change nothing: web_fetch reads the web (and still asks first). */
const READING_TOOLS: ReadonlySet<string> = new Set(["web_fetch"]);

/**
 * True for a tool plan mode offers: one that changes nothing (`mutates: false`), an MCP server's tool marked
 * read-only (`readOnly`, as Ask Aside takes them), or a tool that only reads (web_fetch).
 */
export function isPlanModeTool(tool: AgentTool): boolean {
  if (!tool.mutates || READING_TOOLS.has(tool.name)) return true;
  return (tool as AgentTool & { readOnly?: unknown }).readOnly === true;
}

/** The tools plan mode offers of `tools`, in their order (write, edit, bash and other tools that change things go). */
export function planModeTools(tools: readonly AgentTool[]): AgentTool[] {
  return tools.filter(isPlanModeTool);
}

/** What planModeOnPath reads: a path's envelopes and an entry's body. */
export interface PlanModePathSource {
  /** Envelopes root → leaf (no bodies read). */
  envelopes: readonly PlanModeEnvelope[];
  /** The entry's body (read only for plan-mode lines). */
  entry(id: string): unknown;
}

/** The fields of an envelope plan mode reads. */
export interface PlanModeEnvelope {
  id: string;
  type: string;
  preview: string;
  role?: string;
  toolCallsOnly?: boolean;
  failed?: boolean;
}

/** Plan mode at the end of a path. */
export interface PlanModeState {
  enabled: boolean;
  /**
   * The plan to approve: the path's last message is an answer of the agent with text, given while plan mode was on
   * (the plan-mode line is older than it); its entry id. Absent when plan mode is off or the agent has not answered.
   */
  planId?: string;
}

/** A valid plan-mode line: its envelope names it (its preview), so only those bodies are read. */
const isValidPlanModeLine: PathTest<PlanModeEnvelope> = (env, entry) => {
  if (env.type !== "custom" || !env.preview.startsWith(PLAN_MODE_TYPE)) return false;
  const body = entry();
  return isPlanModeLine(body) && planModeData(body.data) !== undefined;
};

/** A message. */
const isMessage: PathTest<PlanModeEnvelope> = (env) => env.type === "message";

/**
 * The mode at the end of a path: the newest valid plan-mode line on it says; off without one. A line whose body
 * cannot be read is passed over.
 */
export function planModeState(source: PlanModePathSource): PlanModeState {
  return planModeIn(searchEnvelopes(source.envelopes, (id) => source.entry(id)));
}

/**
 * planModeState at the end of the path `search` searches (a SessionManager: its leaf, from the answers its index
 * keeps, so a move or an append costs only the part of the path it changed).
 */
export function planModeIn(search: PathSearch<PlanModeEnvelope>): PlanModeState {
  const line = search.newestOnPath(isValidPlanModeLine);
  if (!line) return { enabled: false };
  let body: unknown;
  try {
    body = search.getEntry(line.id);
  } catch {
    return { enabled: false };
  }
  const data = isPlanModeLine(body) ? planModeData(body.data) : undefined;
  if (!data?.enabled) return { enabled: false };
  // The path's last message, when it is an answer with text given after the line (the line's own path ends
  // with another last message).
  const last = search.newestOnPath(isMessage);
  const answered =
    last !== undefined &&
    last.role === "assistant" &&
    last.toolCallsOnly !== true &&
    last.failed !== true &&
    search.newestOnPath(isMessage, line.id)?.id !== last.id;
  return answered ? { enabled: true, planId: last.id } : { enabled: true };
}

/** True when plan mode is on at the end of the path (planModeState). */
export function planModeOnPath(source: PlanModePathSource): boolean {
  return planModeState(source).enabled;
}

function isPlanModeLine(body: unknown): body is { type: "custom"; customType: string; data: unknown } {
  if (typeof body !== "object" || body === null) return false;
  const b = body as Record<string, unknown>;
  return b.type === "custom" && b.customType === PLAN_MODE_TYPE;
}
