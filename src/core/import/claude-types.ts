/**
 * Shapes of Claude Code transcript lines (`~/.claude/projects/<dir>/<session>.jsonl`), as far as this project
 * reads them. Claude Code writes many more fields; unknown ones are ignored. Everything is optional because the
 * files come from many Claude Code versions and are validated field by field when converted.
 */

/** A content block inside `message.content`. */
export interface ClaudeContentBlock {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  data?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
  source?: { type?: string; media_type?: string; data?: string; url?: string };
}

/** Token counts Claude Code copies from the API response. */
export interface ClaudeUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

/** The `message` object of a user or assistant line. */
export interface ClaudeMessage {
  id?: string;
  role?: string;
  model?: string;
  content?: string | ClaudeContentBlock[];
  stop_reason?: string | null;
  usage?: ClaudeUsage;
}

/** One line of a transcript. */
export interface ClaudeLine {
  type: string;
  uuid?: string;
  parentUuid?: string | null;
  /** compact_boundary lines start a new chain (parentUuid null) and point back here. */
  logicalParentUuid?: string | null;
  isSidechain?: boolean;
  sessionId?: string;
  cwd?: string;
  timestamp?: string;
  message?: ClaudeMessage;
  /** `summary` lines: a title for the conversation ending at leafUuid. */
  summary?: string;
  leafUuid?: string;
  /** `system` lines. */
  content?: string;
  subtype?: string;
  compactMetadata?: { trigger?: string; preTokens?: number };
  isMeta?: boolean;
  isCompactSummary?: boolean;
  isApiErrorMessage?: boolean;
  /** Subagent transcripts (`<session>/subagents/agent-<id>.jsonl`): the subagent's id, on every line. */
  agentId?: string;
  /** User lines holding a tool result: Claude Code's structured copy of it (Task results carry `agentId`). */
  toolUseResult?: unknown;
  /** `progress` lines: what is happening in a running tool (`data.type` "agent_progress" names the agentId). */
  data?: unknown;
  /** `progress` lines: the tool_use id of the Task call a subagent's progress belongs to. */
  parentToolUseID?: string;
}

/** A parsed line with its 1-based line number. */
export interface ClaudeRecord {
  line: number;
  data: ClaudeLine;
  /** Set on lines of a subagent's own file: that subagent's id (from the file name). */
  agent?: string;
}

/** A line that could not be used. */
export interface ClaudeParseIssue {
  /** 1-based line number (0: the whole file). */
  line: number;
  reason: string;
  /** Set for lines of a subagent file: its path relative to the transcript's folder. Absent: the transcript. */
  file?: string;
}
