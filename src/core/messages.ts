/**
 * Message shapes stored in `message` entries, exactly as pi writes them: pi-ai's message types (pi-ai 1.6
 * `types.ts`), with the optional fields pi-ai fills in where a provider gives them. Replies are stored as pi-ai
 * returns them, so a field pi-ai adds survives even when it is not named here. Keep field names stable: pi reads
 * these files. src/core/providers/pi-messages.ts checks at compile time that pi-ai's messages fit these types.
 */

/** Plain text block. */
export interface TextContent {
  type: "text";
  text: string;
  /** Provider data that lets the same model continue from this text (OpenAI Responses). */
  textSignature?: string;
}

/** Base64 image block. */
export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
}

/** Model reasoning block (Anthropic thinking; signature kept so it can be replayed). */
export interface ThinkingContent {
  type: "thinking";
  thinking: string;
  thinkingSignature?: string;
  /** Anthropic `redacted_thinking`: the opaque data is in `thinkingSignature`, replayed as-is. */
  redacted?: boolean;
}

/** A tool call made by the assistant. */
export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** Gemini's signature of the reasoning behind the call, replayed to the same model. */
  thoughtSignature?: string;
  /** OpenAI Responses namespace of the tool. */
  namespace?: string;
  /** Set when the arguments the model sent were not a JSON object (`arguments` is then `{}`); says what came. */
  argumentsError?: string;
}

/** Token use and cost (USD) of one assistant message. */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Part of `cacheWrite` written with 1 h retention (Anthropic). */
  cacheWrite1h?: number;
  /** Reasoning tokens, part of `output`, when the provider says. */
  reasoning?: number;
  totalTokens: number;
  cost: {
    input: number;
    output: number;
    cacheRead: number;
    cacheWrite: number;
    total: number;
    /** True when `total` is what the provider billed, not the catalog estimate. */
    totalFromProvider?: boolean;
  };
}

/** Why an assistant message ended. */
export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

/** A message typed by the user. */
export interface UserMessage {
  role: "user";
  content: string | (TextContent | ImageContent)[];
  timestamp: number;
}

/** A model reply. */
export interface AssistantMessage {
  role: "assistant";
  content: (TextContent | ThinkingContent | ToolCall)[];
  /** The wire API (pi-ai's id); absent in some old sessions. */
  api?: string;
  provider: string;
  model: string;
  /** The model the server says answered, when it differs from `model`. */
  responseModel?: string;
  /** The provider's id of the response. */
  responseId?: string;
  /** The thinking level the request asked for, and what the provider was sent for it. */
  thinkingLevel?: string;
  providerThinkingLevel?: string;
  usage: Usage;
  stopReason: StopReason;
  errorMessage?: string;
  /** The provider's own stop reason, when it had one pi-ai did not map. */
  rawStopReason?: string;
  timestamp: number;
  /** Time from the request to the reply's end, ms. */
  durationMs?: number;
}

/** The result of one tool call. */
export interface ToolResultMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextContent | ImageContent)[];
  isError: boolean;
  details?: unknown;
  timestamp: number;
  /** How long the tool ran, ms (pi 1.6). */
  durationMs?: number;
}

/** A shell command the user ran directly (pi's `!cmd`). */
export interface BashExecutionMessage {
  role: "bashExecution";
  command: string;
  output: string;
  exitCode: number | null | undefined;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
  excludeFromContext?: boolean;
  timestamp: number;
}

/** A hook/extension message that reaches the model as a user message. */
export interface CustomMessage {
  role: "custom";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: unknown;
  timestamp: number;
}

/** Produced by buildSessionContext for a branch_summary entry on the path. */
export interface BranchSummaryMessage {
  role: "branchSummary";
  summary: string;
  fromId: string;
  timestamp: number;
}

/** Produced by buildSessionContext for the latest compaction on the path. */
export interface CompactionSummaryMessage {
  role: "compactionSummary";
  summary: string;
  tokensBefore: number;
  timestamp: number;
}

/** A tool as pi 1.5 declares it in a system message (name, description, JSON schema parameters). */
export interface SystemMessageTool {
  name: string;
  description?: string;
  parameters?: unknown;
  [extra: string]: unknown;
}

/**
 * pi 1.5 records its system prompt in the session: a first `system` message holds the prompt (`content`, named
 * `sections`, the tools it declares), later ones patch it (sections replaced by name, `null` removes one; tools
 * added or removed). Kept in the context as pi keeps it; never sent by this extension (see convertToLlm).
 */
export interface SystemMessage {
  role: "system";
  content: string | TextContent[];
  sections?: Record<string, string | null>;
  toolsAdded?: SystemMessageTool[];
  toolsRemoved?: { name: string; [extra: string]: unknown }[];
  timestamp: number;
}

/** Everything the agent keeps in its conversation. */
export type AgentMessage =
  | SystemMessage
  | UserMessage
  | AssistantMessage
  | ToolResultMessage
  | BashExecutionMessage
  | CustomMessage
  | BranchSummaryMessage
  | CompactionSummaryMessage;

/** What a provider is sent: the three roles every LLM API understands. */
export type LlmMessage = UserMessage | AssistantMessage | ToolResultMessage;

/** pi's preamble for branch summaries sent to the model. */
export const BRANCH_SUMMARY_PREFIX =
  "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
/** pi's preamble for compaction summaries sent to the model. */
export const COMPACTION_SUMMARY_PREFIX =
  "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
/** Closes either summary preamble. */
export const SUMMARY_SUFFIX = "\n</summary>";

/** An empty usage record. */
export function emptyUsage(): Usage {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

/** The usage of a call that read `input` tokens and wrote `output`, nothing cached and nothing charged. */
export function tokenUsage(input: number, output: number): Usage {
  return { ...emptyUsage(), input, output, totalTokens: input + output };
}

/**
 * A message as pi 1.5 reads it from a session file, whose lines are not validated: a `content` that is null or
 * missing becomes empty ("" for system messages, [] for user, assistant and tool results), so nothing downstream
 * has to guard every access. Other messages are returned as they are.
 */
export function repairMessage(m: AgentMessage): AgentMessage {
  const content = (m as { content?: unknown }).content;
  if (content !== null && content !== undefined) return m;
  if (m.role === "system") return { ...m, content: "" };
  if (m.role === "user" || m.role === "assistant" || m.role === "toolResult") return { ...m, content: [] };
  return m;
}

/**
 * The system prompt in force after a run of messages, as pi 1.5 replays it (pi-ai getCurrentSystemMessage): the
 * texts of every system message joined by blank lines, sections patched by name, the tools added and not
 * removed since. Undefined when the messages hold no system message. A compaction keeps it (`systemMessage`),
 * since the messages it summarizes are gone from the context.
 */
export function currentSystemMessage(messages: readonly AgentMessage[]): SystemMessage | undefined {
  const texts: string[] = [];
  const sections = new Map<string, string>();
  const tools = new Map<string, SystemMessageTool>();
  let timestamp: number | undefined;
  for (const m of messages) {
    if (m.role !== "system") continue;
    timestamp ??= m.timestamp;
    const text = contentText(m.content);
    if (text.length > 0) texts.push(text);
    for (const [name, value] of Object.entries(m.sections ?? {})) {
      if (value === null) sections.delete(name);
      else sections.set(name, value);
    }
    for (const tool of m.toolsRemoved ?? []) tools.delete(tool.name);
    for (const tool of m.toolsAdded ?? []) tools.set(tool.name, tool);
  }
  if (timestamp === undefined && tools.size === 0) return undefined;
  return {
    role: "system",
    content: texts.join("\n\n"),
    ...(sections.size > 0 ? { sections: Object.fromEntries(sections) } : {}),
    ...(tools.size > 0 ? { toolsAdded: [...tools.values()] } : {}),
    timestamp: timestamp ?? 0,
  };
}

/** A system message as one prompt text: its content, then its sections (pi-ai getSystemMessageText). */
export function systemPromptText(m: SystemMessage): string {
  const parts = [contentText(m.content)];
  for (const text of Object.values(m.sections ?? {})) if (text !== null) parts.push(text);
  return parts.filter((p) => p.length > 0).join("\n\n");
}

/** A summary as the model reads it: one user text block, `summary` between `prefix` and the suffix. */
function summaryAsUser(prefix: string, summary: string, timestamp: number): UserMessage {
  return { role: "user", content: [{ type: "text", text: prefix + summary + SUMMARY_SUFFIX }], timestamp };
}

/**
 * Turn agent messages into what the model sees: summaries and custom messages become user
 * messages (with pi's preambles), bash executions become user text, the rest passes through.
 * System messages (the recorded prompt) are left out: AgentSession sends the prompt they replay to as the
 * request's system prompt (src/core/agent/system-prompt-sync.ts), after recording this extension's own sections.
 */
export function convertToLlm(messages: readonly AgentMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  for (const m of messages) {
    switch (m.role) {
      case "system":
        break;
      case "user":
      case "assistant":
      case "toolResult":
        out.push(m);
        break;
      case "custom":
        out.push({ role: "user", content: m.content, timestamp: m.timestamp });
        break;
      case "branchSummary":
        out.push(summaryAsUser(BRANCH_SUMMARY_PREFIX, m.summary, m.timestamp));
        break;
      case "compactionSummary":
        out.push(summaryAsUser(COMPACTION_SUMMARY_PREFIX, m.summary, m.timestamp));
        break;
      case "bashExecution": {
        if (m.excludeFromContext) break;
        let text = `Ran \`${m.command}\`\n`;
        text += m.output ? "```\n" + m.output + "\n```" : "(no output)";
        if (m.cancelled) text += "\n\n(command cancelled)";
        else if (m.exitCode !== null && m.exitCode !== undefined && m.exitCode !== 0)
          text += `\n\nCommand exited with code ${m.exitCode}`;
        if (m.truncated && m.fullOutputPath) text += `\n\n[Output truncated. Full output: ${m.fullOutputPath}]`;
        out.push({ role: "user", content: [{ type: "text", text }], timestamp: m.timestamp });
        break;
      }
      default: {
        const never: never = m;
        void never;
      }
    }
  }
  return out;
}

/** The text of a message's content, text blocks joined by `separator` (newlines by default). */
export function contentText(content: string | readonly { type: string; text?: string }[], separator = "\n"): string {
  if (typeof content === "string") return content;
  return content
    .filter((c) => c.type === "text" && typeof c.text === "string")
    .map((c) => c.text)
    .join(separator);
}
