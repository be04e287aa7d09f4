/**
 * The system prompt options of a workspace: the loader's instructions (cached), the tools given to the agent,
 * the appended setting, today's date and the platform. AgentSession calls the provider before each model call.
 */
import * as os from "node:os";
import type { InstructionLoader } from "./instruction-loader.js";
import { normalizePromptOptions, type PromptTool, type SystemPromptOptions } from "./prompt-options.js";

/** Gives the prompt options for the tools the agent is about to offer (called before each model call). */
export type SystemPromptProvider = (tools: readonly PromptTool[]) => Promise<SystemPromptOptions>;

/** Options of workspacePromptProvider. */
export interface WorkspacePromptOptions {
  loader: InstructionLoader;
  /** The `agentTree.systemPrompt.append` setting, read each time (a change applies to the next request). */
  append?: () => string;
  /** The clock (tests pin the date). */
  now?: () => Date;
  /** Default: `<os.platform()> <os.arch()>`. */
  platform?: string;
}

/** `YYYY-MM-DD` in local time: the user's today. */
export function localDate(d: Date): string {
  const pad = (n: number): string => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** See the file comment. */
export function workspacePromptProvider(options: WorkspacePromptOptions): SystemPromptProvider {
  const platform = options.platform ?? `${os.platform()} ${os.arch()}`;
  return async (tools) => {
    const loaded = await options.loader.load();
    const { workspaceFolders } = options.loader.getSources();
    const appended = [loaded.appendSystemPrompt ?? "", options.append?.().trim() ?? ""].filter((t) => t !== "");
    return normalizePromptOptions({
      ...(loaded.customPrompt ? { customPrompt: loaded.customPrompt } : {}),
      tools: [...tools],
      appendSystemPrompt: appended.join("\n\n"),
      cwd: workspaceFolders[0] ?? process.cwd(),
      workspaceFolders,
      contextFiles: loaded.contextFiles,
      skills: loaded.skills,
      date: localDate(options.now?.() ?? new Date()),
      platform,
    });
  };
}
