/**
 * Shared set-up of the subagent tests: who a request is from, a reply script for a parent and its subagents, and a
 * run of them killed mid-way.
 */
import path from "node:path";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import type { FakeReply, FakeRequestBody } from "../../util/fake-provider-common.js";
import { runBranchesAndKill } from "../parallel/crash-helpers.js";

interface WireMessage {
  role?: string;
  content?: unknown;
}

function messagesOf(body: FakeRequestBody): WireMessage[] {
  return Array.isArray(body.messages) ? (body.messages as WireMessage[]) : [];
}

function textOf(content: unknown): string {
  return typeof content === "string" ? content : JSON.stringify(content ?? "");
}

/** The text of the request's first user message: whose conversation it is. */
export function firstUserText(body: FakeRequestBody): string {
  return textOf(messagesOf(body).find((m) => m.role === "user")?.content);
}

/** The role of the request's last message. */
export function lastRole(body: FakeRequestBody): string | undefined {
  return messagesOf(body).at(-1)?.role;
}

/** The text of the request's last message. */
export function lastText(body: FakeRequestBody): string {
  return textOf(messagesOf(body).at(-1)?.content);
}

/** The names of the tools the request offers. */
export function toolNames(body: FakeRequestBody): string[] {
  const tools = Array.isArray(body.tools) ? (body.tools as { function?: { name?: string } }[]) : [];
  return tools.map((t) => t.function?.name ?? "");
}

/**
 * Replies for a parent whose first message starts with "PARENT" and subagents whose prompt starts with "SUB":
 * the parent's first request calls `subagent` once per prompt of `calls`, its request after the results answers
 * "parent done"; a subagent answers `sub answer: <its prompt>` (after `subDelayMs` per chunk), or first calls the
 * tool `subTool` when given.
 */
export function parentAndSubagents(options: {
  calls: { prompt: string; readOnly?: boolean }[];
  subDelayMs?: number;
  subChunks?: number;
  subTool?: { name: string; args: Record<string, unknown> };
}): (body: FakeRequestBody) => FakeReply {
  return (body) => {
    const first = firstUserText(body);
    if (first.startsWith("PARENT")) {
      if (lastRole(body) === "tool") return { text: "parent done" };
      return {
        text: "Delegating.",
        toolCalls: options.calls.map((c) => ({
          name: "subagent",
          args: { prompt: c.prompt, ...(c.readOnly !== undefined ? { readOnly: c.readOnly } : {}) },
        })),
      };
    }
    if (options.subTool && lastRole(body) === "user")
      return { text: "Using a tool.", toolCalls: [{ name: options.subTool.name, args: options.subTool.args }] };
    return {
      text: `sub answer: ${first}`,
      ...(options.subChunks !== undefined ? { chunks: options.subChunks } : {}),
      ...(options.subDelayMs !== undefined ? { chunkDelayMs: options.subDelayMs } : {}),
    };
  };
}

/**
 * Replies of subagent-crash-child.ts: the parent calls two writing subagents; each writes a file, then streams a
 * long answer slowly, so a kill lands while both stream.
 */
export function subagentCrashReplies(body: FakeRequestBody): FakeReply {
  const first = firstUserText(body);
  if (first.startsWith("PARENT")) {
    if (lastRole(body) === "tool") return { text: "parent done" };
    return {
      text: "Two subagents.",
      toolCalls: [
        { name: "subagent", args: { prompt: "SUB one" } },
        { name: "subagent", args: { prompt: "SUB two" } },
      ],
    };
  }
  if (lastRole(body) === "tool") return { text: "a long answer ".repeat(200), chunks: 200, chunkDelayMs: 50 };
  return { text: "writing", toolCalls: [{ name: "write", args: { path: `${first.slice(4)}.txt`, content: "x" } }] };
}

/** Entries the crash child acknowledges before both subagents stream: the parent's 2, each subagent's 3. */
export const SUBAGENT_CRASH_ACKS = 8;

/**
 * A session file in `dir` whose parent (subagent-crash-child.ts, against the fake server at `baseURL` answering with
 * subagentCrashReplies) ran two subagents until {@link SUBAGENT_CRASH_ACKS} entries were written, then was killed:
 * the file and the acknowledged entry ids, in order.
 */
export async function killSubagentsMidRun(dir: string, baseURL: string): Promise<{ file: string; acked: string[] }> {
  const sm = await SessionManager.create(dir, dir);
  sm.appendMessage({ role: "user", content: "PARENT before", timestamp: 1 });
  const file = sm.getSessionFile() as string;
  await sm.close();
  const child = path.join(__dirname, "subagent-crash-child.ts");
  return { file, acked: await runBranchesAndKill(file, baseURL, dir, SUBAGENT_CRASH_ACKS, child) };
}
