/** Workspace tools. */
export { createWorkspaceTools } from "./workspace-tools.js";
export { createReadTool } from "./read-tool.js";
export { createWriteTool } from "./write-tool.js";
export { createEditTool } from "./edit-tool.js";
export { FileChangedSinceReviewError, MAX_REVIEWS, type ReviewedFile } from "./reviewed-file.js";
export { createBashTool } from "./bash-tool.js";
export { createGrepTool } from "./grep-tool.js";
export { createFindTool } from "./find-tool.js";
export { createLsTool } from "./ls-tool.js";
export { createTodoTool } from "./todo-tool.js";
export { createWebFetchTool } from "./web-fetch-tool.js";
export { resolveInWorkspace, OutsideWorkspaceError } from "./path-guard.js";
export { globToRegExp, globMatch } from "./glob.js";
export { findSandbox, type CommandSandbox, type SandboxPolicy, type SandboxProbe } from "./sandbox.js";
