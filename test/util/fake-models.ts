/**
 * Models of the fake servers (test/util/fake-*-server.ts) and the providers that serve them, as plain data: no
 * test runner hook here, so child processes of tests can use them too (test-models.ts builds registries of them).
 */
import type { ModelInfo } from "../../src/core/providers/types.js";
import type { FakeServer } from "./fake-provider-common.js";

/** Providers of the fake servers; their models get the fake server's URL from the model a test builds. */
export const FAKE_PROVIDERS: readonly { provider: string; api: string }[] = [
  { provider: "fake-openai", api: "openai-completions" },
  { provider: "fake-anthropic", api: "anthropic-messages" },
  { provider: "fake-responses", api: "openai-responses" },
  { provider: "fake-gemini", api: "google-generative-ai" },
];

/** An OpenAI-compatible provider whose key variable is never set: without a key of the test's, it has none. */
export const KEYED_PROVIDER = "fake-keyed";
/** The variable `KEYED_PROVIDER` reads its key from. */
export const KEYED_PROVIDER_ENV = "AGENT_TREE_TEST_NO_SUCH_KEY";

/** `agentTree.models.custom` entries declaring the fake providers (keyless: a test's key, if any, is sent). */
export const FAKE_CUSTOM_MODELS: readonly unknown[] = [
  ...FAKE_PROVIDERS.map(({ provider, api }) => ({
    provider,
    id: `${provider}-placeholder`,
    baseUrl: "http://127.0.0.1:9",
    api,
    noApiKey: true,
  })),
  {
    provider: KEYED_PROVIDER,
    id: `${KEYED_PROVIDER}-placeholder`,
    baseUrl: "http://127.0.0.1:9",
    api: "openai-completions",
    apiKeyEnv: KEYED_PROVIDER_ENV,
  },
];

/** A model served by a fake server: the server's URL, then `over`. */
export type FakeModelOf = (fake: Pick<FakeServer, "baseURL">, over?: Partial<ModelInfo>) => ModelInfo;

/**
 * The models of `api` from `provider` named `id` (shown as `name`, a context window of `contextWindow` tokens, 4,096
 * output tokens), each served by the fake server it is given.
 */
function fakeModelOf(
  api: ModelInfo["api"],
  [provider, id, name, contextWindow]: [provider: string, id: string, name: string, contextWindow: number],
): FakeModelOf {
  return (fake, over = {}) => ({
    id,
    name,
    provider,
    contextWindow,
    api,
    baseUrl: fake.baseURL,
    maxTokens: 4096,
    reasoning: false,
    input: ["text", "image"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    ...over,
  });
}

/** A model served by a fake OpenAI server. */
export const openAIModel = fakeModelOf("openai-completions", ["fake-openai", "fake-model", "Fake", 128_000]);

/** A model served by a fake Anthropic server. */
export const anthropicModel = fakeModelOf("anthropic-messages", [
  "fake-anthropic",
  "claude-fake",
  "Fake Claude",
  200_000,
]);

/** A model served by a fake OpenAI Responses server (test/util/fake-openai-responses-server.ts). */
export const responsesModel = fakeModelOf("openai-responses", [
  "fake-responses",
  "gpt-fake",
  "Fake GPT (Responses)",
  400_000,
]);

/** A model served by a fake Gemini server (test/util/fake-gemini-server.ts). */
export const geminiModel = fakeModelOf("google-generative-ai", [
  "fake-gemini",
  "gemini-fake",
  "Fake Gemini",
  1_000_000,
]);
