/**
 * Ask Aside (docs/parallel.md): a question asked from the current leaf on a side branch whose tools may only read
 * (read, grep, find, ls), while the user's own agent may be running. The aside starts under the leaf as it is when
 * asked and never moves it; the main branch's later messages become its siblings, so the aside sits off the active
 * path and never enters the main branch's context.
 */
import { createFindTool, createGrepTool, createLsTool, createReadTool } from "../tools/index.js";
import type { AgentTool } from "../tools/types.js";
import { runBranch, type BranchOutcome, type BranchRunOptions } from "./branch-run.js";

/** The tools an aside may use. */
export const ASIDE_TOOL_NAMES = ["read", "grep", "find", "ls"] as const;

/** read, grep, find and ls, confined to `cwd`. */
export function readOnlyTools(cwd: string): AgentTool[] {
  return [createReadTool(cwd), createGrepTool(cwd), createFindTool(cwd), createLsTool(cwd)];
}

/** What an aside needs: a branch run's options without the parts an aside decides itself. */
export type AskAsideOptions = Omit<BranchRunOptions, "parentId" | "prompt" | "kind" | "tools" | "copy" | "groupId"> & {
  question: string;
  /** Default: a new id. */
  groupId?: string;
  /** Read-only tools beside the four built-in ones (an MCP server's tools marked `readOnlyHint`). */
  extraTools?: readonly AgentTool[];
};

/**
 * Runs the aside to its end from the leaf as it is now (see the file comment). Rejects only for an empty
 * question; failures end the aside as `failed`, as a branch run does.
 */
export function askAside(options: AskAsideOptions): Promise<BranchOutcome> {
  const question = options.question.trim();
  if (question === "") return Promise.reject(new Error("Ask Aside needs a question"));
  const { question: _q, groupId, extraTools, ...rest } = options;
  void _q;
  return runBranch({
    ...rest,
    parentId: options.session.sessionManager.getLeafId(),
    prompt: question,
    kind: "aside",
    groupId: groupId ?? `aside-${Date.now().toString(36)}`,
    tools: [...readOnlyTools(options.cwd), ...(extraTools ?? [])],
  });
}
