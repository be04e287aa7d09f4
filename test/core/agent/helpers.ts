/** Shared set-up of the AgentSession tests: fake-server models, simple tools, agents (sessions: test/util/session-builder.ts). */
import fs from "node:fs";
import { after, beforeEach } from "node:test";
import { AgentSession, type AgentSessionOptions } from "../../../src/core/agent/agent-session.js";
import type { AgentEvent } from "../../../src/core/agent/events.js";
import { ModelRegistry } from "../../../src/core/providers/model-registry.js";
import type { ModelInfo } from "../../../src/core/providers/types.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import type { AgentTool } from "../../../src/core/tools/types.js";
import type { FakeServer } from "../../util/fake-provider-common.js";
import { tempDir } from "../../util/temp-dir.js";

/**
 * A fresh temp folder for each test of the enclosing suite (node:test `describe` or file): `dir` is the
 * current test's; each is removed when the next test starts, the last after the suite.
 */
export function tempDirPerTest(): { readonly dir: string } {
  let tmp: ReturnType<typeof tempDir> | undefined;
  beforeEach(() => {
    tmp?.cleanup();
    tmp = tempDir("agent-tree-agent-");
  });
  after(() => tmp?.cleanup());
  return {
    get dir() {
      if (!tmp) throw new Error("the per-test temp folder is only there inside a test");
      return tmp.dir;
    },
  };
}

/** Size in bytes of the session file (0 before the first append). */
export function fileSize(sm: SessionManager): number {
  const f = sm.getSessionFile();
  return f && fs.existsSync(f) ? fs.statSync(f).size : 0;
}

/** A model served by a fake OpenAI server. */
export function openAIModel(fake: Pick<FakeServer, "baseURL">, over: Partial<ModelInfo> = {}): ModelInfo {
  return {
    id: "fake-model",
    name: "Fake",
    provider: "fake-openai",
    api: "openai-completions",
    baseUrl: fake.baseURL,
    contextWindow: 128_000,
    maxTokens: 4096,
    ...over,
  };
}

/** A model served by a fake Anthropic server. */
export function anthropicModel(fake: Pick<FakeServer, "baseURL">, over: Partial<ModelInfo> = {}): ModelInfo {
  return {
    id: "claude-fake",
    name: "Fake Claude",
    provider: "fake-anthropic",
    api: "anthropic-messages",
    baseUrl: fake.baseURL,
    contextWindow: 200_000,
    maxTokens: 4096,
    ...over,
  };
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
    modelRegistry: new ModelRegistry(),
    getApiKey: async () => "test-key",
    tools: [],
    ...opts,
  });
  const events: AgentEvent[] = [];
  agent.subscribe((e) => events.push(e));
  return { agent, events };
}

/** The text of the user turns of an OpenAI request body. */
export function requestText(body: Record<string, unknown>): string {
  return JSON.stringify(body.messages ?? body);
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
