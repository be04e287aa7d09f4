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
export { SessionLockedError, SessionReadOnlyError, SessionFormatError, EntryNotFoundError } from "./session/errors.js";
export { defaultSessionDir, getAgentDir, sessionFileName } from "./session/paths.js";
export { entryPreview, envelopeOf, normalizePreview, PREVIEW_MAX } from "./session/preview.js";
export { buildContextFromEntries, messageOfEntry } from "./session/context.js";
export * from "./tools/index.js";
export * from "./export/index.js";
export * from "./import/index.js";
