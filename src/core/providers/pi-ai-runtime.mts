/**
 * Everything the core calls in `@earendil-works/pi-ai` at run time, in one ES module: pi-ai ships as ES modules
 * only, and its providers load their SDKs in lazy chunks. The extension host bundle (CommonJS) does not include
 * this file: esbuild builds it as a separate ES module bundle with code splitting (`dist/pi-ai/runtime.mjs`), which
 * `loadPiAi()` (pi-ai.ts) imports on first use, so activation reads none of it and a provider's SDK is read with
 * its first request. Tests and tools run it from source the same way.
 */
import { registerLazyBedrockProvider } from "@earendil-works/pi-ai/lazy-bedrock-provider";
import { registerLazyOAuthFlows } from "@earendil-works/pi-ai/lazy-oauth";

export {
  clampThinkingLevel,
  createModels,
  createProvider,
  getSupportedThinkingLevels,
  InMemoryCredentialStore,
  isContextOverflow,
  isRetryableAssistantError,
  envApiKeyAuth,
  createAssistantMessageEventStream,
  calculateCost,
  lazyStream,
  getCurrentSystemPrompt,
  getCurrentTools,
  PI_AI_VERSION,
} from "@earendil-works/pi-ai";
export { builtinProviders } from "@earendil-works/pi-ai/providers/all";
export { anthropicMessagesApi } from "@earendil-works/pi-ai/api/anthropic-messages.lazy";
export { azureOpenAIResponsesApi } from "@earendil-works/pi-ai/api/azure-openai-responses.lazy";
export { bedrockConverseStreamApi } from "@earendil-works/pi-ai/api/bedrock-converse-stream.lazy";
export { googleGenerativeAIApi } from "@earendil-works/pi-ai/api/google-generative-ai.lazy";
export { googleVertexApi } from "@earendil-works/pi-ai/api/google-vertex.lazy";
export { mistralConversationsApi } from "@earendil-works/pi-ai/api/mistral-conversations.lazy";
export { openAICodexResponsesApi } from "@earendil-works/pi-ai/api/openai-codex-responses.lazy";
export { openAICompletionsApi } from "@earendil-works/pi-ai/api/openai-completions.lazy";
export { openAIResponsesApi } from "@earendil-works/pi-ai/api/openai-responses.lazy";
export { piMessagesApi } from "@earendil-works/pi-ai/api/pi-messages.lazy";

// Bedrock's AWS SDK and the OAuth login flows are loaded through imports a bundler cannot follow unless registered
// with literal dynamic imports; registered here, they become lazy chunks of this bundle (pi-ai README, "Bundling").
registerLazyBedrockProvider();
registerLazyOAuthFlows();
