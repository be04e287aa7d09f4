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
  envelopes: readonly {
    id: string;
    type: string;
    preview: string;
    role?: string;
    toolCallsOnly?: boolean;
    failed?: boolean;
  }[];
  /** The entry's body (read only for plan-mode lines). */
  entry(id: string): unknown;
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

/**
 * The mode at the end of a path: the newest valid plan-mode line on it says; off without one. A line's envelope
 * names it (its preview), so only those bodies are read; a line whose body cannot be read is passed over.
 */
export function planModeState(source: PlanModePathSource): PlanModeState {
  const { envelopes } = source;
  /** The last message of the path, when it is an answer with text (undefined once another message was seen). */
  let answer: string | undefined;
  let seenMessage = false;
  for (let i = envelopes.length - 1; i >= 0; i--) {
    const env = envelopes[i];
    if (env.type === "message") {
      if (!seenMessage && env.role === "assistant" && env.toolCallsOnly !== true && env.failed !== true)
        answer = env.id;
      seenMessage = true;
      continue;
    }
    if (env.type !== "custom" || !env.preview.startsWith(PLAN_MODE_TYPE)) continue;
    let body: unknown;
    try {
      body = source.entry(env.id);
    } catch {
      continue;
    }
    const data = isPlanModeLine(body) ? planModeData(body.data) : undefined;
    if (!data) continue;
    return data.enabled && answer !== undefined ? { enabled: true, planId: answer } : { enabled: data.enabled };
  }
  return { enabled: false };
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
