/**
 * One Claude Code line → this project's session entries (pi v3 shapes). Where the line hangs is decided by
 * claude-tree.ts before it gets here.
 *
 * - An assistant reply is written as several lines sharing `message.id` (one per content block, chained by
 *   parentUuid); consecutive parts merge into one assistant message.
 * - tool_result blocks in "user" lines become toolResult messages; the rest of such a line a user message.
 * - A compact_boundary becomes a compaction entry, and the summary message Claude Code writes after it becomes
 *   that compaction's summary.
 * - Lines this project has no entry for (most system lines, unknown types) pass through: their children hang off
 *   their parent.
 */
import { emptyUsage } from "../messages.js";
import type {
  AssistantMessage,
  ImageContent,
  StopReason,
  TextContent,
  ThinkingContent,
  ToolCall,
} from "../messages.js";
import type { CompactionEntry, CustomMessageEntry, SessionMessageEntry } from "../session/types.js";
import {
  blocksOf,
  convertAssistantBlock,
  convertToolResultContent,
  convertUserBlock,
  userTextOf,
} from "./claude-blocks.js";
import { mapClaudeToolName } from "./claude-tools.js";
import { seedOf, type EntryStore, type IssueReporter } from "./claude-tree.js";
import type { ClaudeLine, ClaudeRecord } from "./claude-types.js";

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

/** Converts lines into entries of one store; one instance per conversion. */
export class MessageConverter {
  /** Entry id → Claude message.id, for merging split assistant replies. */
  private readonly claudeMsgIdOf = new Map<string, string>();
  /** Compaction entries still waiting for the summary message that follows the boundary. */
  private readonly openCompactions = new Set<string>();
  /** tool_use id → Claude tool name, so a result (which names only the id) gets its tool's name. */
  private readonly toolNames = new Map<string, string>();

  /**
   * @param mapTools Rename tools and arguments to pi's.
   * @param onUserMessage Called with each user message entry added (sidechain labelling needs them).
   */
  constructor(
    private readonly store: EntryStore,
    private readonly issue: IssueReporter,
    private readonly mapTools: boolean,
    private readonly onUserMessage: (id: string, rec: ClaudeRecord) => void,
  ) {}

  /** Note a line's tool calls; every line is indexed before any is converted (results may precede calls). */
  indexTools(rec: ClaudeRecord): void {
    const d = rec.data;
    if (d.type !== "assistant") return;
    for (const b of blocksOf(d.message?.content))
      if (b.type === "tool_use" && typeof b.id === "string" && typeof b.name === "string")
        this.toolNames.set(b.id, b.name);
  }

  /** Converts one line; returns the id its children hang off. */
  convert(rec: ClaudeRecord, parentId: string | null): string | null {
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

  private timestampOf(rec: ClaudeRecord, parentId: string | null): string {
    return (
      isoOrUndefined(rec.data.timestamp) ??
      (parentId ? this.store.get(parentId)?.timestamp : undefined) ??
      new Date(0).toISOString()
    );
  }

  private convertBoundary(rec: ClaudeRecord, parentId: string | null): string {
    const id = this.store.newId(seedOf(rec));
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
    return this.store.add(entry);
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
      const compaction = this.store.get(parentId) as CompactionEntry;
      compaction.summary = userTextOf(d);
      this.openCompactions.delete(parentId);
      return parentId;
    }
    const uuid = seedOf(rec);
    let last = parentId;
    let k = 0;
    const rest: (TextContent | ImageContent)[] = [];
    for (const b of blocksOf(d.message.content)) {
      if (b.type === "tool_result") {
        const toolCallId = typeof b.tool_use_id === "string" ? b.tool_use_id : "";
        const claudeName = this.toolNames.get(toolCallId) ?? "unknown";
        const entry: SessionMessageEntry = {
          type: "message",
          id: this.store.newId(`${uuid}/result/${k++}`),
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
        last = this.store.add(entry);
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
        id: this.store.newId(uuid),
        parentId: last,
        timestamp: ts,
        customType: CLAUDE_META_CUSTOM_TYPE,
        content,
        display: false,
      };
      return this.store.add(entry);
    }
    const entry: SessionMessageEntry = {
      type: "message",
      id: this.store.newId(uuid),
      parentId: last,
      timestamp: ts,
      message: { role: "user", content, timestamp: ms },
    };
    const id = this.store.add(entry);
    this.onUserMessage(id, rec);
    return id;
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
    const parent = parentId ? this.store.get(parentId) : undefined;
    if (claudeId && parent && parentId && this.claudeMsgIdOf.get(parentId) === claudeId && parent.type === "message") {
      const prev = parent.message as AssistantMessage;
      for (const b of blocks) {
        const json = JSON.stringify(b);
        // Some versions rewrite earlier blocks in later parts; keep each block once.
        if (!prev.content.some((p) => JSON.stringify(p) === json)) prev.content.push(b);
      }
      applyMeta(prev, d);
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
    applyMeta(message, d);
    const entry: SessionMessageEntry = {
      type: "message",
      id: this.store.newId(seedOf(rec)),
      parentId,
      timestamp: ts,
      message,
    };
    const id = this.store.add(entry);
    if (claudeId) this.claudeMsgIdOf.set(id, claudeId);
    return id;
  }
}

/** Usage, stop reason and error state from the latest part of a reply. */
function applyMeta(message: AssistantMessage, d: ClaudeLine): void {
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
