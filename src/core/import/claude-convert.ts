/**
 * Claude Code transcript lines → a tree of this project's session entries (pi v3 shapes).
 *
 * - Every line with a uuid is a node; parentUuid links them. Lines this project has no entry for (most system
 *   lines, unknown types) pass through: their children hang off their parent.
 * - An assistant reply is written as several lines sharing `message.id` (one per content block, chained by
 *   parentUuid); consecutive parts merge into one assistant message.
 * - tool_result blocks in "user" lines become toolResult messages; the rest of such a line a user message.
 * - A compact_boundary (parentUuid null, logicalParentUuid set) becomes a compaction entry hung off the logical
 *   parent, and the summary message Claude Code writes after it becomes that compaction's summary.
 * - Sidechains (Task sub-agents) hang off the Task call that started them when it can be found (else they are
 *   roots) and are labelled "sidechain…".
 * - Subagents written to files of their own (see claude-subagents.ts) are converted with the transcript: each
 *   hangs off the Task call that launched it (else is a root) and is labelled "subagent…". Their uuids are looked
 *   up within their own file and their ids seeded with the agent id, so they never clash with the main file's.
 * - Summary lines label the entry named by leafUuid.
 */
import { createHash } from "node:crypto";
import { emptyUsage } from "../messages.js";
import type {
  AssistantMessage,
  ImageContent,
  StopReason,
  TextContent,
  ThinkingContent,
  ToolCall,
} from "../messages.js";
import type {
  CompactionEntry,
  CustomMessageEntry,
  LabelEntry,
  SessionEntry,
  SessionMessageEntry,
} from "../session/types.js";
import { blocksOf, convertAssistantBlock, convertToolResultContent, convertUserBlock } from "./claude-blocks.js";
import {
  matchSubagents,
  TASK_TOOL_NAMES,
  type ClaudeSubagentTranscript,
  type SubagentAttachment,
} from "./claude-subagents.js";
import { mapClaudeToolName } from "./claude-tools.js";
import type { ClaudeLine, ClaudeParseIssue, ClaudeRecord } from "./claude-types.js";

/** Options of {@link convertClaudeRecords}. */
export interface ClaudeConvertOptions {
  /** Rename tools and arguments to pi's (read, edit, …). Default false: show them as Claude Code named them. */
  mapTools?: boolean;
  /** The transcript's subagent files (readClaudeSubagents), converted as branches of the tree. */
  subagents?: readonly ClaudeSubagentTranscript[];
}

/** A transcript as a tree of session entries. */
export interface ConvertedTranscript {
  /** Claude Code's session id (from the lines), if any. */
  sessionId?: string;
  /** Working directory recorded in the lines, if any. */
  cwd?: string;
  /** Title from the summary line of the leaf (or the last summary line about an entry of this file). */
  title?: string;
  /** Entries, every parent before its children; label entries last. */
  entries: SessionEntry[];
  /** Where Claude Code would resume: the last main-chain (non-sidechain) message. */
  leafId: string | null;
  /**
   * Claude uuid → id of the entry holding that line (lines that pass through map to their parent's entry).
   * Subagent lines are included unless their uuid is also a main-file line's.
   */
  idByUuid: Map<string, string | null>;
  /** Ids of entries that start a sidechain (inline ones and subagent files). */
  sidechainRootIds: string[];
  /** Lines that were skipped or repaired, with the reason. */
  issues: ClaudeParseIssue[];
}

/** Name of the custom_message type used for Claude Code's meta lines (caveats, command wrappers). */
export const CLAUDE_META_CUSTOM_TYPE = "claude-code/meta";
const DEFAULT_COMPACTION_SUMMARY = "Conversation compacted";

function mapStopReason(reason: string | null | undefined): StopReason | undefined {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
    case "pause_turn":
    case "refusal":
      return "stop";
    case "tool_use":
      return "toolUse";
    case "max_tokens":
      return "length";
    default:
      return undefined;
  }
}

function isoOrUndefined(ts: unknown): string | undefined {
  if (typeof ts !== "string") return undefined;
  const ms = Date.parse(ts);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** Text of a user line (string content or its text blocks). */
function userText(line: ClaudeLine): string {
  const c = line.message?.content;
  if (typeof c === "string") return c;
  return blocksOf(c)
    .filter((b) => b.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join("\n");
}

/** Key of a line's uuid: subagent files are separate uuid spaces. */
function uuidKey(agent: string | undefined, uuid: string): string {
  return agent === undefined ? uuid : `${agent}\n${uuid}`;
}

/** Builds the tree; one instance per conversion. */
class TranscriptConverter {
  private readonly byUuid = new Map<string, ClaudeRecord>();
  private readonly resolved = new Map<string, string | null>();
  private readonly visiting = new Set<string>();
  private readonly entries: SessionEntry[] = [];
  private readonly entryById = new Map<string, SessionEntry>();
  /** Entry id → Claude message.id, for merging split assistant replies. */
  private readonly claudeMsgIdOf = new Map<string, string>();
  /** Compaction entries still waiting for the summary message that follows the boundary. */
  private readonly openCompactions = new Set<string>();
  private readonly toolNames = new Map<string, string>();
  /** Task prompt → the assistant line that issued it and its description. */
  private readonly taskByPrompt = new Map<string, { rec: ClaudeRecord; description?: string }>();
  private readonly sidechainLabels = new Map<string, string>();
  private readonly issues: ClaudeParseIssue[];
  /** Main-file and subagent-file lines. */
  private readonly all: readonly ClaudeRecord[];
  private readonly attachments: Map<string, SubagentAttachment>;
  private readonly fileOfAgent = new Map<string, string>();
  /** Entry id → the subagent whose file it came from. */
  private readonly agentOfEntry = new Map<string, string>();
  /** The subagent whose line is being converted (entries added now belong to it). */
  private currentAgent: string | undefined;

  constructor(
    private readonly records: readonly ClaudeRecord[],
    issues: readonly ClaudeParseIssue[],
    private readonly mapTools: boolean,
    subagents: readonly ClaudeSubagentTranscript[],
  ) {
    this.issues = [...issues, ...subagents.flatMap((s) => s.issues)];
    this.all = [...records, ...subagents.flatMap((s) => s.records)];
    for (const s of subagents) this.fileOfAgent.set(s.agentId, s.file);
    this.attachments = subagents.length > 0 ? matchSubagents(this.all, subagents) : new Map();
  }

  private issue(rec: ClaudeRecord, reason: string): void {
    const file = rec.agent === undefined ? undefined : this.fileOfAgent.get(rec.agent);
    this.issues.push(file === undefined ? { line: rec.line, reason } : { line: rec.line, reason, file });
  }

  /** Seed of a line's entry ids: the uuid, prefixed with the agent id for subagent lines. */
  private seedOf(rec: ClaudeRecord): string {
    const uuid = rec.data.uuid as string;
    return rec.agent === undefined ? uuid : `agent-${rec.agent}/${uuid}`;
  }

  run(): ConvertedTranscript {
    this.index();
    for (const rec of this.all) if (typeof rec.data.uuid === "string") this.visit(rec);
    const labelTargets = new Map<string, string>();
    let lastSummary: string | undefined;
    for (const rec of this.records) {
      const d = rec.data;
      if (d.type !== "summary") continue;
      if (typeof d.summary !== "string") {
        this.issue(rec, "summary line without summary text");
        continue;
      }
      // Claude Code also copies summaries of earlier sessions into a new file; only ones about this file count.
      const target = typeof d.leafUuid === "string" ? this.resolved.get(d.leafUuid) : undefined;
      if (!target) continue;
      labelTargets.set(target, d.summary);
      lastSummary = d.summary;
    }
    const leafId = this.findLeaf();
    for (const [target, label] of this.sidechainLabels) if (!labelTargets.has(target)) labelTargets.set(target, label);
    for (const [targetId, label] of labelTargets) {
      const target = this.entryById.get(targetId);
      const entry: LabelEntry = {
        type: "label",
        id: this.newId(`label/${targetId}`),
        parentId: targetId,
        timestamp: target?.timestamp ?? new Date(0).toISOString(),
        targetId,
        label,
      };
      this.add(entry);
    }
    return {
      sessionId: this.records.find((r) => typeof r.data.sessionId === "string")?.data.sessionId,
      cwd: this.records.find((r) => typeof r.data.cwd === "string")?.data.cwd,
      title: (leafId !== null ? labelTargets.get(leafId) : undefined) ?? lastSummary,
      entries: this.entries,
      leafId,
      idByUuid: this.exportedIds(),
      sidechainRootIds: [...this.sidechainLabels.keys()],
      // The transcript's issues first, then each subagent file's, each by line.
      issues: this.issues.sort((a, b) => (a.file ?? "").localeCompare(b.file ?? "") || a.line - b.line),
    };
  }

  /** Main-file uuids as they are; a subagent line's uuid unless the main file (or an earlier file) has it. */
  private exportedIds(): Map<string, string | null> {
    const out = new Map<string, string | null>();
    for (const rec of this.all) {
      const uuid = rec.data.uuid;
      if (typeof uuid !== "string" || out.has(uuid)) continue;
      const key = uuidKey(rec.agent, uuid);
      if (this.resolved.has(key)) out.set(uuid, this.resolved.get(key) ?? null);
    }
    return out;
  }

  private index(): void {
    for (const rec of this.all) {
      const d = rec.data;
      if (d.uuid !== undefined && typeof d.uuid !== "string") {
        this.issue(rec, "uuid is not a string; line skipped");
        continue;
      }
      if (typeof d.uuid === "string") {
        const key = uuidKey(rec.agent, d.uuid);
        // Claude Code sometimes repeats a line (resume, retries); the first copy wins.
        if (this.byUuid.has(key)) {
          this.issue(rec, `duplicate uuid ${d.uuid}; later copy ignored`);
          continue;
        }
        this.byUuid.set(key, rec);
      }
      if (d.type !== "assistant") continue;
      for (const b of blocksOf(d.message?.content)) {
        if (b.type !== "tool_use" || typeof b.id !== "string" || typeof b.name !== "string") continue;
        this.toolNames.set(b.id, b.name);
        const input = b.input as { prompt?: unknown; description?: unknown } | undefined;
        if (TASK_TOOL_NAMES.has(b.name) && input && typeof input.prompt === "string" && rec.agent === undefined) {
          this.taskByPrompt.set(input.prompt, {
            rec,
            description: typeof input.description === "string" ? input.description : undefined,
          });
        }
      }
    }
  }

  /**
   * Ids derive from the Claude uuid (plus a suffix for the several entries one line can give), so converting
   * the same transcript twice gives the same ids: an id picked in an opened transcript stays valid for
   * "Continue in a New Session".
   */
  private newId(seed: string): string {
    for (let n = 0; ; n++) {
      const id = createHash("sha256")
        .update(n === 0 ? seed : `${seed}#${n}`)
        .digest("hex")
        .slice(0, 8);
      if (!this.entryById.has(id)) return id;
    }
  }

  private add(entry: SessionEntry): string {
    this.entries.push(entry);
    this.entryById.set(entry.id, entry);
    const agent = this.currentAgent;
    if (agent !== undefined) {
      // The first entry of a subagent's file on its path starts its branch.
      if (entry.parentId === null || this.agentOfEntry.get(entry.parentId) !== agent)
        this.sidechainLabels.set(entry.id, this.subagentLabel(agent));
      this.agentOfEntry.set(entry.id, agent);
    }
    return entry.id;
  }

  private subagentLabel(agent: string): string {
    const description = this.attachments.get(agent)?.description;
    return description ? `subagent: ${description}` : `subagent ${agent}`;
  }

  /** Entry id for a uuid's line, converting it (and its ancestors) first. */
  private visit(rec: ClaudeRecord): string | null {
    const uuid = uuidKey(rec.agent, rec.data.uuid as string);
    if (this.byUuid.get(uuid) !== rec) return this.resolved.get(uuid) ?? null;
    if (this.resolved.has(uuid)) return this.resolved.get(uuid) ?? null;
    if (this.visiting.has(uuid)) {
      this.issue(rec, "parentUuid cycle; line shown as a root");
      return null;
    }
    this.visiting.add(uuid);
    const parentId = this.parentOf(rec);
    this.currentAgent = rec.agent;
    const id = this.convert(rec, parentId);
    this.currentAgent = undefined;
    this.visiting.delete(uuid);
    this.resolved.set(uuid, id);
    return id;
  }

  private parentOf(rec: ClaudeRecord): string | null {
    const d = rec.data;
    let parentUuid = typeof d.parentUuid === "string" ? d.parentUuid : undefined;
    if (
      !parentUuid &&
      d.type === "system" &&
      d.subtype === "compact_boundary" &&
      typeof d.logicalParentUuid === "string"
    )
      parentUuid = d.logicalParentUuid;
    if (!parentUuid && rec.agent !== undefined) {
      const task = this.attachments.get(rec.agent);
      return task ? this.visit(task.rec) : null;
    }
    if (!parentUuid && d.isSidechain && d.type === "user") {
      const task = this.taskByPrompt.get(userText(d));
      if (task) return this.visit(task.rec);
    }
    if (!parentUuid) return null;
    const parent = this.byUuid.get(uuidKey(rec.agent, parentUuid));
    if (!parent) {
      this.issue(rec, `parent ${parentUuid} is not in this transcript; shown as a root`);
      return null;
    }
    return this.visit(parent);
  }

  private timestampOf(rec: ClaudeRecord, parentId: string | null): string {
    return (
      isoOrUndefined(rec.data.timestamp) ??
      (parentId ? this.entryById.get(parentId)?.timestamp : undefined) ??
      new Date(0).toISOString()
    );
  }

  /** Converts one line; returns the id its children hang off. */
  private convert(rec: ClaudeRecord, parentId: string | null): string | null {
    const d = rec.data;
    switch (d.type) {
      case "user":
        return this.convertUser(rec, parentId);
      case "assistant":
        return this.convertAssistant(rec, parentId);
      case "system":
        if (d.subtype === "compact_boundary") return this.convertBoundary(rec, parentId);
        return parentId;
      default:
        return parentId;
    }
  }

  private convertBoundary(rec: ClaudeRecord, parentId: string | null): string {
    const id = this.newId(this.seedOf(rec));
    const entry: CompactionEntry = {
      type: "compaction",
      id,
      parentId,
      timestamp: this.timestampOf(rec, parentId),
      summary: DEFAULT_COMPACTION_SUMMARY,
      // Claude Code keeps nothing from before the boundary: the compaction itself is the first kept entry.
      firstKeptEntryId: id,
      tokensBefore: typeof rec.data.compactMetadata?.preTokens === "number" ? rec.data.compactMetadata.preTokens : 0,
    };
    this.openCompactions.add(id);
    return this.add(entry);
  }

  private convertUser(rec: ClaudeRecord, parentId: string | null): string | null {
    const d = rec.data;
    if (typeof d.message !== "object" || d.message === null) {
      this.issue(rec, "user line without message; passed through");
      return parentId;
    }
    const ts = this.timestampOf(rec, parentId);
    const ms = Date.parse(ts);
    if (d.isCompactSummary && parentId && this.openCompactions.has(parentId)) {
      const compaction = this.entryById.get(parentId) as CompactionEntry;
      compaction.summary = userText(d);
      this.openCompactions.delete(parentId);
      return parentId;
    }
    const uuid = this.seedOf(rec);
    let last = parentId;
    let k = 0;
    const rest: (TextContent | ImageContent)[] = [];
    for (const b of blocksOf(d.message.content)) {
      if (b.type === "tool_result") {
        const toolCallId = typeof b.tool_use_id === "string" ? b.tool_use_id : "";
        const claudeName = this.toolNames.get(toolCallId) ?? "unknown";
        const entry: SessionMessageEntry = {
          type: "message",
          id: this.newId(`${uuid}/result/${k++}`),
          parentId: last,
          timestamp: ts,
          message: {
            role: "toolResult",
            toolCallId,
            toolName: this.mapTools ? mapClaudeToolName(claudeName) : claudeName,
            content: convertToolResultContent(b.content),
            isError: b.is_error === true,
            timestamp: ms,
          },
        };
        last = this.add(entry);
        continue;
      }
      const c = convertUserBlock(b);
      if (c) rest.push(c);
    }
    if (rest.length === 0) return last;
    const content: string | (TextContent | ImageContent)[] =
      typeof d.message.content === "string" ? d.message.content : rest;
    if (d.isMeta) {
      const entry: CustomMessageEntry = {
        type: "custom_message",
        id: this.newId(uuid),
        parentId: last,
        timestamp: ts,
        customType: CLAUDE_META_CUSTOM_TYPE,
        content,
        display: false,
      };
      return this.add(entry);
    }
    const entry: SessionMessageEntry = {
      type: "message",
      id: this.newId(uuid),
      parentId: last,
      timestamp: ts,
      message: { role: "user", content, timestamp: ms },
    };
    const id = this.add(entry);
    if (d.isSidechain && !d.parentUuid && rec.agent === undefined) this.sidechainLabels.set(id, this.sidechainLabel(d));
    return id;
  }

  private sidechainLabel(d: ClaudeLine): string {
    const task = this.taskByPrompt.get(userText(d));
    return task?.description ? `sidechain: ${task.description}` : "sidechain";
  }

  private convertAssistant(rec: ClaudeRecord, parentId: string | null): string | null {
    const d = rec.data;
    const m = d.message;
    if (typeof m !== "object" || m === null) {
      this.issue(rec, "assistant line without message; passed through");
      return parentId;
    }
    const blocks: (TextContent | ThinkingContent | ToolCall)[] = [];
    for (const b of blocksOf(m.content)) {
      const c = convertAssistantBlock(b, this.mapTools);
      if (c) blocks.push(c);
    }
    const claudeId = typeof m.id === "string" ? m.id : undefined;
    const parent = parentId ? this.entryById.get(parentId) : undefined;
    if (claudeId && parent && parentId && this.claudeMsgIdOf.get(parentId) === claudeId && parent.type === "message") {
      const prev = parent.message as AssistantMessage;
      for (const b of blocks) {
        const json = JSON.stringify(b);
        // Some versions rewrite earlier blocks in later parts; keep each block once.
        if (!prev.content.some((p) => JSON.stringify(p) === json)) prev.content.push(b);
      }
      this.applyMeta(prev, d);
      return parentId;
    }
    const ts = this.timestampOf(rec, parentId);
    const message: AssistantMessage = {
      role: "assistant",
      content: blocks,
      api: "anthropic-messages",
      provider: "anthropic",
      model: typeof m.model === "string" ? m.model : "unknown",
      usage: emptyUsage(),
      stopReason: "stop",
      timestamp: Date.parse(ts),
    };
    this.applyMeta(message, d);
    const entry: SessionMessageEntry = {
      type: "message",
      id: this.newId(this.seedOf(rec)),
      parentId,
      timestamp: ts,
      message,
    };
    const id = this.add(entry);
    if (claudeId) this.claudeMsgIdOf.set(id, claudeId);
    return id;
  }

  /** Usage, stop reason and error state from the latest part of a reply. */
  private applyMeta(message: AssistantMessage, d: ClaudeLine): void {
    const u = d.message?.usage;
    if (u && typeof u === "object") {
      const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
      message.usage = {
        ...emptyUsage(),
        input: num(u.input_tokens),
        output: num(u.output_tokens),
        cacheRead: num(u.cache_read_input_tokens),
        cacheWrite: num(u.cache_creation_input_tokens),
      };
      message.usage.totalTokens =
        message.usage.input + message.usage.output + message.usage.cacheRead + message.usage.cacheWrite;
    }
    const mapped = mapStopReason(d.message?.stop_reason);
    message.stopReason = message.content.some((c) => c.type === "toolCall") ? "toolUse" : (mapped ?? "stop");
    if (d.isApiErrorMessage) {
      message.stopReason = "error";
      message.errorMessage = message.content
        .filter((c): c is TextContent => c.type === "text")
        .map((c) => c.text)
        .join("\n");
    }
  }

  private findLeaf(): string | null {
    for (let i = this.records.length - 1; i >= 0; i--) {
      const d = this.records[i].data;
      if (typeof d.uuid !== "string" || d.isSidechain) continue;
      if (d.type !== "user" && d.type !== "assistant" && d.type !== "system") continue;
      const id = this.resolved.get(d.uuid);
      if (id) return id;
    }
    return null;
  }
}

/** Convert parsed transcript lines into session entries. Pure apart from id generation. */
export function convertClaudeRecords(
  records: readonly ClaudeRecord[],
  issues: readonly ClaudeParseIssue[] = [],
  options: ClaudeConvertOptions = {},
): ConvertedTranscript {
  return new TranscriptConverter(records, issues, options.mapTools === true, options.subagents ?? []).run();
}
