/**
 * Public API of the agent core. Pure TypeScript, no `vscode` import; runs under plain Node.
 * Other extensions and hooks call these names: keep them stable.
 */
export * from "./messages.js";
export * from "./session/types.js";
export * from "./providers/types.js";
export * from "./tools/types.js";
export * from "./providers/index.js";
export { SessionManager } from "./session/session-manager.js";
export { SessionInfoReader, type SessionInfoReaderOptions } from "./session/session-info-reader.js";
export { readSessionInfo, type FileFacts, type InfoOutcome } from "./session/session-info.js";
export {
  SessionLockedError,
  SessionLockLostError,
  SessionReadOnlyError,
  SessionFormatError,
  SessionFileTypeError,
  SessionChangedError,
  EntryNotFoundError,
  type LockCondition,
  type LockHolderInfo,
  type LockLossReason,
  type LockedDetails,
  type NonRegularKind,
  SessionIdError,
  ActiveBranchError,
} from "./session/errors.js";
export { ARCHIVE_MARKER_TYPE, archiveMarkerData, type ArchiveMarkerData } from "./session/entry-kinds.js";
export { defaultSessionDir, getAgentDir, sessionFileName } from "./session/paths.js";
export { entryPreview, envelopeOf, normalizePreview, PREVIEW_MAX } from "./session/preview.js";
export { buildContextFromEntries, messageOfEntry } from "./session/context.js";
export * from "./tools/index.js";
export * from "./export/index.js";
export * from "./import/index.js";
export { findSearchTargets } from "./search/search-targets.js";
export { parseSearchQuery, type SearchQuery } from "./search/search-query.js";
export {
  DEFAULT_MAX_HITS,
  SessionSearch,
  type SearchOutcome,
  type SearchRunOptions,
  type SessionSearchOptions,
} from "./search/session-search.js";
export type { SearchBranch, SearchSnippet, SearchStats, SearchTarget, SessionSearchHit } from "./search/types.js";
export {
  buildSessionThreads,
  flattenThreads,
  type SessionThread,
  type ThreadableSession,
  type ThreadRow,
} from "./session/session-threads.js";
export * from "./checkpoints/index.js";
export * from "./agent/events.js";
export * from "./agent/navigate-types.js";
export * from "./hooks/hook-events.js";
export {
  AgentSession,
  DEFAULT_MAX_TURNS,
  type AgentSessionOptions,
  type StartRunOptions,
} from "./agent/agent-session.js";
export {
  AgentRun,
  type AgentRunOptions,
  type RunCheckpoints,
  type RunEvent,
  type RunKind,
  type RunProgress,
  type RunResult,
  type RunState,
  type RunWriter,
} from "./agent/agent-run.js";
export { SessionRuns, type SessionWork, type WorkChange, type WorkKind } from "./agent/session-runs.js";
export type { ForkResult } from "./agent/fork.js";
export { ABORTED_TOOL_RESULT } from "./agent/tool-execution.js";
export * from "./compare/compare-types.js";
export { BranchComparison, MAX_PAGE_TURNS, type CompareSource } from "./compare/compare-branches.js";
export { HookRunner, toUnsubscribe } from "./hooks/hook-runner.js";
export type { HookAPI, HookCommand, HookCommandInfo, HookContext, HookHandler, Unsubscribe } from "./hooks/types.js";
export { CompactionError } from "./compaction/run-compaction.js";
export {
  DEFAULT_BRANCH_SUMMARY_RESERVE_TOKENS,
  DEFAULT_COMPACTION_SETTINGS,
  isContextOverflowError,
  shouldCompact,
  type CompactionSettings,
} from "./compaction/settings.js";
export { estimateContextTokens, estimateTokens as estimateMessageTokens } from "./compaction/tokens.js";
export { prepareCompaction, type PreparedCompaction } from "./compaction/prepare.js";
export { findCutPoint } from "./compaction/cut-point.js";
export { extractiveSummary, EXTRACTIVE_HEADER } from "./summary/extractive.js";
export {
  summarize,
  SummaryAbortedError,
  type CompleteFn,
  type SummaryRequest,
  type SummaryResult,
} from "./summary/summarize.js";
export { serializeConversation } from "./summary/serialize.js";
export { collectFileOps, fileOpsToDetails, formatFileOps } from "./summary/file-ops.js";
export * from "./parallel/index.js";
export * from "./prompt/prompt-options.js";
export {
  DEFAULT_PREAMBLE,
  STABLE_SECTIONS,
  applySectionPatch,
  buildPromptSections,
  diffPromptSections,
  formatSkills,
  toolLine,
  type PromptSections,
} from "./prompt/prompt-sections.js";
export { parseFrontmatter, type Frontmatter } from "./prompt/frontmatter.js";
export {
  CONTEXT_FILE_NAMES,
  DEFAULT_MAX_INSTRUCTION_BYTES,
  readInstructionFile,
  type InstructionIssue,
} from "./prompt/instruction-files.js";
export { scanSkillsDir, readSkill, type SkillScan } from "./prompt/skills.js";
export {
  InstructionLoader,
  loadInstructions,
  type InstructionSources,
  type LoadedInstructions,
} from "./prompt/instruction-loader.js";
export {
  localDate,
  workspacePromptProvider,
  type SystemPromptProvider,
  type WorkspacePromptOptions,
} from "./prompt/workspace-prompt.js";
export { systemMessageAt, systemMessageOfPath, systemPromptAt } from "./prompt/prompt-at-entry.js";
export { promptTextOf } from "./agent/system-prompt-sync.js";
