/** Opening sessions from other places: pi's folders and Claude Code transcripts (see docs/core-api.md "Import"). */
export { convertClaudeRecords, CLAUDE_META_CUSTOM_TYPE, type ConvertedTranscript } from "./claude-convert.js";
export { parseClaudeFile, parseClaudeText, type ClaudeParseResult } from "./claude-parse.js";
export {
  claudeProjectDirNames,
  claudeProjectDirs,
  getClaudeDir,
  listClaudeTranscripts,
  type ClaudeTranscriptInfo,
} from "./claude-paths.js";
export {
  claudeTranscriptPathOf,
  convertClaudePathToSession,
  importClaudeTranscript,
  IMPORT_CUSTOM_TYPE,
  openClaudeTranscript,
  type ImportedTranscript,
  type OpenClaudeOptions,
} from "./claude-session.js";
export {
  claudeSubagentDir,
  readClaudeSubagents,
  subagentIdOfFileName,
  type ClaudeSubagentTranscript,
} from "./claude-subagent-files.js";
export { matchSubagents, type SubagentAttachment } from "./claude-subagents.js";
export { mapClaudeToolCall, mapClaudeToolName } from "./claude-tools.js";
export type { ClaudeParseIssue } from "./claude-types.js";
export {
  listAllSessions,
  listPiSessionFolders,
  type AnySessionInfo,
  type ListAllOptions,
  type PiSessionFolder,
  type SessionSource,
} from "./session-sources.js";
