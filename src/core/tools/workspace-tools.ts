/** The built-in tool set, with pi's names and argument shapes. */
import { createBashTool } from "./bash-tool.js";
import { createEditTool } from "./edit-tool.js";
import { createFindTool } from "./find-tool.js";
import { createGrepTool } from "./grep-tool.js";
import { createLsTool } from "./ls-tool.js";
import { createReadTool } from "./read-tool.js";
import type { CommandSandbox } from "./sandbox.js";
import { createTodoTool } from "./todo-tool.js";
import type { AgentTool } from "./types.js";
import { createWebFetchTool } from "./web-fetch-tool.js";
import { createWriteTool } from "./write-tool.js";

/** Options of `createWorkspaceTools`. */
export interface WorkspaceToolOptions {
  /** The environment of each bash command (default: the host's without the built-in providers' key variables). */
  commandEnv?: () => NodeJS.ProcessEnv;
  /** Folders outside the workspace `read` may read (the listed skills' folders); default none. */
  readRoots?: () => readonly string[];
  /** Where each bash command runs (sandbox.ts), asked before each; default: as it is. */
  commandSandbox?: () => CommandSandbox | undefined | Promise<CommandSandbox | undefined>;
}

/**
 * read, write, edit, bash, grep, find, ls — all confined to `cwd` — todo (the agent's checklist) and web_fetch. write,
 * edit and bash have `mutates: true`, web_fetch `asks: true`, so the host asks before running them unless the user
 * allowed it.
 */
export function createWorkspaceTools(cwd: string, options: WorkspaceToolOptions = {}): AgentTool[] {
  return [
    createReadTool(cwd, options.readRoots),
    createWriteTool(cwd),
    createEditTool(cwd),
    createBashTool(cwd, options.commandEnv, options.commandSandbox),
    createGrepTool(cwd),
    createFindTool(cwd),
    createLsTool(cwd),
    createTodoTool(),
    createWebFetchTool(),
  ];
}
