/** Shared set-up of the AgentSession tests: fake-server models, simple tools, agents (sessions: test/util/session-builder.ts). */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { AgentRun } from "../../../src/core/agent/agent-run.js";
import { AgentSession, type AgentSessionOptions } from "../../../src/core/agent/agent-session.js";
import type { AgentEvent } from "../../../src/core/agent/events.js";
import type { ModelInfo } from "../../../src/core/providers/types.js";
import type { SystemMessage } from "../../../src/core/messages.js";
import { InstructionLoader } from "../../../src/core/prompt/instruction-loader.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import type { SessionEntry } from "../../../src/core/session/types.js";
import type { AgentTool } from "../../../src/core/tools/types.js";
import { assistant, fileSession, namedSession, toolResult, user } from "../../util/session-builder.js";
import type { FakeReply, FakeServer } from "../../util/fake-provider-common.js";
import { testModels } from "../../util/test-models.js";

export { anthropicModel, openAIModel } from "../../util/fake-models.js";

/**
 * u1 → a1 ┬→ u2 → a2 (leaf) ; a1 → s1 → s2 (a finished side branch). In memory, cwd /tmp: where the run-registry
 * tests put runs on the leaf's path and off it.
 */
export function sideBranchSession(): { sm: SessionManager; ids: Record<string, string> } {
  return namedSession("/tmp", [
    "u1: start",
    "a1: ok",
    "s1: a side question",
    "s2: a side answer",
    "from a1",
    "u2: go on",
    "a2: going on",
  ]);
}

/** Resolves with `run`'s first entry once it is written. */
export function firstEntryOf(run: AgentRun): Promise<string> {
  return new Promise((resolve) => {
    const off = run.subscribe((e) => {
      if (e.type === "branch_entry") {
        off();
        resolve(e.entryId);
      }
    });
  });
}

/** One way of {@link twoApproaches}: approach A's tool call, its result and the replies ending each branch. */
export interface Approaches {
  /** a2's text and its call on src/a.ts. */
  call: { text: string; name: string; args: Record<string, unknown> };
  /** t2's text. */
  result: string;
  /** a3's text (approach A's conclusion) and a4's (approach B's). */
  a3: string;
  a4: string;
  /** Which branch is written last and so holds the leaf. */
  leaf: "a" | "b";
}

/**
 * u1 "Start the task" → a1 ┬→ u2 "Try approach A and keep the API stable" → a2 (calls c1) → t2 → a3
 *                          └→ u3 "Try approach B" → a4
 * in a file session in `dir`, the branch `leaf` names written last.
 */
export async function twoApproaches(dir: string, o: Approaches) {
  const sm = await fileSession(dir);
  const u1 = sm.appendMessage(user("Start the task"));
  const a1 = sm.appendMessage(assistant("I'll help"));
  const branchA = (): Record<"u2" | "a2" | "t2" | "a3", string> => ({
    u2: sm.appendMessage(user("Try approach A and keep the API stable")),
    a2: sm.appendMessage(assistant(o.call.text, [{ id: "c1", name: o.call.name, args: o.call.args }])),
    t2: sm.appendMessage(toolResult(o.result, o.call.name, "c1")),
    a3: sm.appendMessage(assistant(o.a3)),
  });
  const branchB = (): Record<"u3" | "a4", string> => ({
    u3: sm.appendMessage(user("Try approach B")),
    a4: sm.appendMessage(assistant(o.a4)),
  });
  const first = o.leaf === "a" ? branchB() : branchA();
  sm.branch(a1);
  const second = o.leaf === "a" ? branchA() : branchB();
  return {
    sm,
    ids: { u1, a1, ...first, ...second } as Record<"u1" | "a1" | "u2" | "a2" | "t2" | "a3" | "u3" | "a4", string>,
  };
}

/**
 * A workspace folder `dir/ws` with `agentsMd` as its AGENTS.md (none when undefined), a trusted InstructionLoader
 * over it (user folder `dir/agent`) and a file session for it in `dir/sessions`. `setAgentsMd` rewrites the file
 * and invalidates the loader, as the host's watcher does.
 */
export async function instructionWorkspace(
  dir: string,
  agentsMd?: string,
): Promise<{ ws: string; sm: SessionManager; loader: InstructionLoader; setAgentsMd: (text: string) => void }> {
  const ws = path.join(dir, "ws");
  fs.mkdirSync(ws, { recursive: true });
  if (agentsMd !== undefined) fs.writeFileSync(path.join(ws, "AGENTS.md"), agentsMd);
  const loader = new InstructionLoader({ workspaceFolders: [ws], agentDir: path.join(dir, "agent"), trusted: true });
  const sm = await SessionManager.create(ws, path.join(dir, "sessions"));
  const setAgentsMd = (text: string): void => {
    fs.writeFileSync(path.join(ws, "AGENTS.md"), text);
    loader.invalidate();
  };
  return { ws, sm, loader, setAgentsMd };
}

/** Size in bytes of the session file (0 before the first append). */
export function fileSize(sm: SessionManager): number {
  const f = sm.getSessionFile();
  return f && fs.existsSync(f) ? fs.statSync(f).size : 0;
}

/** A `read` tool over an in-memory file map (records its calls). */
export function fakeReadTool(files: Record<string, string>, calls: string[] = []): AgentTool {
  return {
    name: "read",
    description: "Read a file",
    mutates: false,
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    async execute(args) {
      const p = String(args.path);
      calls.push(p);
      const text = files[p];
      return text === undefined
        ? { content: [{ type: "text", text: `No such file: ${p}` }], isError: true }
        : { content: [{ type: "text", text }] };
    },
  };
}

/** A mutating `write` tool over an in-memory file map. */
export function fakeWriteTool(files: Record<string, string>): AgentTool {
  return {
    name: "write",
    description: "Write a file",
    mutates: true,
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, content: { type: "string" } },
      required: ["path", "content"],
    },
    async execute(args) {
      files[String(args.path)] = String(args.content);
      return { content: [{ type: "text", text: `Wrote ${String(args.path)}` }] };
    },
  };
}

/** An AgentSession with a test key, recording its events. */
export function newAgent(
  sm: SessionManager,
  opts: Partial<AgentSessionOptions> = {},
): { agent: AgentSession; events: AgentEvent[] } {
  const agent = new AgentSession({
    sessionManager: sm,
    cwd: sm.getCwd(),
    modelRegistry: testModels(),
    getApiKey: async () => "test-key",
    tools: [],
    ...opts,
  });
  const events: AgentEvent[] = [];
  agent.subscribe((e) => events.push(e));
  return { agent, events };
}

/** The session's messages in file order: `system:<changed sections>`, `user:<text>`, or the role. */
export function transcript(entries: SessionEntry[]): string[] {
  return entries.flatMap((e) => {
    if (e.type !== "message") return [];
    const m = e.message;
    if (m.role === "system") return [`system:${Object.keys(m.sections ?? {}).join(",")}`];
    if (m.role === "user") return [`user:${typeof m.content === "string" ? m.content : "[blocks]"}`];
    return [m.role];
  });
}

/** The system messages recorded in the session, in file order. */
export function systemEntries(sm: SessionManager): SystemMessage[] {
  return sm.getEntries().flatMap((e) => (e.type === "message" && e.message.role === "system" ? [e.message] : []));
}

/** The system message of an OpenAI request body. */
export function sentPrompt(body: Record<string, unknown>): string {
  const messages = body.messages as { role: string; content: string }[];
  assert.equal(messages[0].role, "system", "the request starts with the system prompt");
  return messages[0].content;
}

/** The text of the user turns of an OpenAI request body. */
export function requestText(body: Record<string, unknown>): string {
  return JSON.stringify(body.messages ?? body);
}

/** A file session in `dir` and an agent on `model` whose one tool is a {@link gateTool} (so a test can queue). */
export async function gatedAgent(
  dir: string,
  model: ModelInfo,
): Promise<{ sm: SessionManager; gate: ReturnType<typeof gateTool>; agent: AgentSession; events: AgentEvent[] }> {
  const sm = await fileSession(dir);
  const gate = gateTool();
  return { sm, gate, ...newAgent(sm, { model, tools: [gate.tool] }) };
}

/**
 * Starts `agent` on `prompt` while the fake model first calls the gate's tool, then answers `replies`; resolves once
 * the tool runs (the run waits there, so a test can queue). `finish()` releases the gate and waits for the prompt.
 */
export async function promptAtGate(
  agent: AgentSession,
  gate: ReturnType<typeof gateTool>,
  fake: Pick<FakeServer, "enqueue">,
  prompt: string,
  ...replies: FakeReply[]
): Promise<{ finish(): Promise<void> }> {
  fake.enqueue({ toolCalls: [{ name: gate.tool.name, args: {}, id: "call_w" }] }, ...replies);
  const running = agent.prompt(prompt);
  await gate.started;
  return {
    finish: async () => {
      gate.release();
      await running;
    },
  };
}

/** A tool whose run waits until `release` is called (so a test can queue while it runs). */
export function gateTool(): { tool: AgentTool; started: Promise<void>; release: () => void } {
  let release = (): void => undefined;
  let onStart = (): void => undefined;
  const started = new Promise<void>((r) => (onStart = r));
  const gate = new Promise<void>((r) => (release = r));
  const tool: AgentTool = {
    name: "wait",
    description: "Waits",
    mutates: false,
    parameters: { type: "object", properties: {} },
    async execute() {
      onStart();
      await gate;
      return { content: [{ type: "text", text: "waited" }] };
    },
  };
  return { tool, started, release };
}
