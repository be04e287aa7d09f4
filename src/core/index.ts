/**
 * Public API of the agent core. Pure TypeScript, no `vscode` import; runs under plain Node.
 * Other extensions and hooks call these names: keep them stable.
 */
export * from "./messages.js";
export * from "./session/types.js";
export * from "./providers/types.js";
export * from "./tools/types.js";
