/**
 * Sidechains (Task / Agent sub-agents) in a converted transcript: where each starts and how it is labelled.
 *
 * - Inline sidechains (older Claude Code versions wrote them into the transcript itself) start with a user line
 *   without parentUuid whose text is a Task call's prompt; they hang off that call when it is found (else they
 *   are roots) and are labelled "sidechain…".
 * - Subagents written to files of their own (claude-subagent-files.ts) hang off the Task call that launched them
 *   (matchSubagents; else they are roots) and are labelled "subagent…". Compaction agents (`acompact-…`) hang off
 *   the main-file line their first line names (claude-tree.ts) and are labelled "compaction agent…".
 */
import type { SessionEntry } from "../session/types.js";
import { blocksOf, userTextOf } from "./claude-blocks.js";
import { matchSubagents, TASK_TOOL_NAMES, type SubagentAttachment } from "./claude-subagents.js";
import type { ClaudeSubagentTranscript } from "./claude-subagent-files.js";
import type { ClaudeLine, ClaudeRecord } from "./claude-types.js";

/** Agent id prefix of Claude Code's compaction agents (subagents/agent-acompact-<id>.jsonl). */
const COMPACTION_AGENT_PREFIX = "acompact-";

/** Where sidechains start and their labels; one instance per conversion. */
export class Sidechains {
  /** Task prompt → the assistant line that issued it and its description. */
  private readonly taskByPrompt = new Map<string, { rec: ClaudeRecord; description?: string }>();
  private readonly attachments: Map<string, SubagentAttachment>;
  /** Entry id → the subagent whose file it came from. */
  private readonly agentOfEntry = new Map<string, string>();
  /** Entry id that starts a sidechain → its label, in the order the entries were added. */
  readonly labels = new Map<string, string>();
  /** The subagent whose line is being converted (entries added now belong to it); set by the converter. */
  currentAgent: string | undefined;

  /** @param all Main-file and subagent-file lines, in which Task calls are looked for. */
  constructor(all: readonly ClaudeRecord[], subagents: readonly ClaudeSubagentTranscript[]) {
    this.attachments = subagents.length > 0 ? matchSubagents(all, subagents) : new Map();
  }

  /** Note a line's Task calls (main file only: an inline sidechain answers a main-file call). */
  indexTasks(rec: ClaudeRecord): void {
    const d = rec.data;
    if (d.type !== "assistant" || rec.agent !== undefined) return;
    for (const b of blocksOf(d.message?.content)) {
      if (b.type !== "tool_use" || typeof b.id !== "string" || typeof b.name !== "string") continue;
      const input = b.input as { prompt?: unknown; description?: unknown } | undefined;
      if (TASK_TOOL_NAMES.has(b.name) && input && typeof input.prompt === "string") {
        this.taskByPrompt.set(input.prompt, {
          rec,
          description: typeof input.description === "string" ? input.description : undefined,
        });
      }
    }
  }

  /** The line a parentless line hangs off: its subagent's Task call, or the Task whose prompt it repeats. */
  launcherOf(rec: ClaudeRecord): ClaudeRecord | undefined {
    if (rec.agent !== undefined) return this.attachments.get(rec.agent)?.rec;
    const d = rec.data;
    if (d.isSidechain && d.type === "user") return this.taskByPrompt.get(userTextOf(d))?.rec;
    return undefined;
  }

  /** Called for every entry added: the first entry of a subagent's file on its path starts its branch. */
  noteEntry(entry: SessionEntry): void {
    const agent = this.currentAgent;
    if (agent === undefined) return;
    if (entry.parentId === null || this.agentOfEntry.get(entry.parentId) !== agent)
      this.labels.set(entry.id, this.subagentLabel(agent));
    this.agentOfEntry.set(entry.id, agent);
  }

  /** Called for every user message entry: a main-file sidechain line without parent starts an inline sidechain. */
  noteUserMessage(id: string, rec: ClaudeRecord): void {
    const d = rec.data;
    if (d.isSidechain && !d.parentUuid && rec.agent === undefined) this.labels.set(id, this.sidechainLabel(d));
  }

  private subagentLabel(agent: string): string {
    // Claude Code names the agent that writes a compaction summary `acompact-<id>`; no Task call starts it.
    if (agent.startsWith(COMPACTION_AGENT_PREFIX))
      return `compaction agent ${agent.slice(COMPACTION_AGENT_PREFIX.length)}`;
    const description = this.attachments.get(agent)?.description;
    return description ? `subagent: ${description}` : `subagent ${agent}`;
  }

  private sidechainLabel(d: ClaudeLine): string {
    const task = this.taskByPrompt.get(userTextOf(d));
    return task?.description ? `sidechain: ${task.description}` : "sidechain";
  }
}
