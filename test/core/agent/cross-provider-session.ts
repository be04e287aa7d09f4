/**
 * One session that switches model across four providers and four wires mid-conversation, as a user does with the
 * model picker: Anthropic Messages (thinking and a tool call) → OpenAI Chat Completions → OpenAI Responses (a
 * tool call whose id holds a `|`) → Anthropic again → Gemini. Each through pi-ai's implementation of its API to
 * its fake server. Used by the core test (what each request carried) and the interop test (pi reads the file).
 */
import { AgentSession } from "../../../src/core/agent/agent-session.js";
import type { ModelInfo } from "../../../src/core/providers/types.js";
import type { SessionManager } from "../../../src/core/session/session-manager.js";
import { startFakeAnthropic } from "../../util/fake-anthropic-server.js";
import { startFakeGemini } from "../../util/fake-gemini-server.js";
import { anthropicModel, geminiModel, openAIModel, responsesModel } from "../../util/fake-models.js";
import { startFakeOpenAIResponses } from "../../util/fake-openai-responses-server.js";
import { startFakeOpenAI } from "../../util/fake-openai-server.js";
import type { FakeServer } from "../../util/fake-provider-common.js";
import { fileSession } from "../../util/session-builder.js";
import { readyTestModels } from "../../util/test-models.js";
import { fakeReadTool } from "./helpers.js";

/** The four servers and the models they serve. */
export interface CrossProviderServers {
  anthropic: FakeServer;
  openai: FakeServer;
  responses: FakeServer;
  gemini: FakeServer;
  models: { anthropic: ModelInfo; openai: ModelInfo; responses: ModelInfo; gemini: ModelInfo };
  close(): Promise<void>;
}

/** Starts the four fake servers. */
export async function startCrossProviderServers(): Promise<CrossProviderServers> {
  const [anthropic, openai, responses, gemini] = await Promise.all([
    startFakeAnthropic(),
    startFakeOpenAI(),
    startFakeOpenAIResponses(),
    startFakeGemini(),
  ]);
  return {
    anthropic,
    openai,
    responses,
    gemini,
    models: {
      anthropic: anthropicModel(anthropic, { reasoning: true, maxTokens: 32_000 }),
      openai: openAIModel(openai),
      responses: responsesModel(responses),
      gemini: geminiModel(gemini),
    },
    close: async () => {
      await Promise.all([anthropic.close(), openai.close(), responses.close(), gemini.close()]);
    },
  };
}

/** What the files of the conversation's `read` calls hold. */
export const FILES = { "src/a.ts": "export const A = 1;", "src/b.ts": "export const B = 2;" };

/**
 * Runs the conversation in a new file session in `dir` and returns the session (open) and the agent. Scripts each
 * server's replies first.
 */
export async function crossProviderConversation(
  dir: string,
  s: CrossProviderServers,
): Promise<{ sm: SessionManager; agent: AgentSession }> {
  s.anthropic.enqueue(
    {
      thinking: "The user wants a.ts read",
      signature: "sig-claude-1",
      text: "Reading a.ts.",
      toolCalls: [{ name: "read", args: { path: "src/a.ts" }, id: "toolu_a" }],
    },
    { text: "a.ts exports A." },
  );
  s.openai.enqueue({ text: "Yes, A is 1 (CLAUDE-SAID-A)." });
  s.responses.enqueue(
    { text: "Reading b.ts.", toolCalls: [{ name: "read", args: { path: "src/b.ts" }, id: "call_resp_b" }] },
    { text: "b.ts exports B = 2." },
  );
  s.anthropic.enqueue({ text: "A is 1 and B is 2." });
  s.gemini.enqueue({ text: "Together: A=1, B=2." });
  const sm = await fileSession(dir);
  const agent = new AgentSession({
    sessionManager: sm,
    cwd: sm.getCwd(),
    // Awaited: this runs in `before` hooks, which node:test does not wait for one another.
    modelRegistry: await readyTestModels(),
    getApiKey: async () => "test-key",
    model: s.models.anthropic,
    tools: [fakeReadTool(FILES)],
  });
  agent.setThinkingLevel("low");
  await agent.prompt("What does src/a.ts export?");
  agent.setModel(s.models.openai);
  await agent.prompt("Is that right?");
  agent.setModel(s.models.responses);
  await agent.prompt("Now read src/b.ts");
  agent.setModel(s.models.anthropic);
  await agent.prompt("Sum it up");
  agent.setModel(s.models.gemini);
  await agent.prompt("Once more, shortly");
  return { sm, agent };
}
