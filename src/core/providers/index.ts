/** Model providers: registry, streaming through the official SDKs, keys and errors. */
export {
  ModelRegistry,
  parseCustomModel,
  DEFAULT_CUSTOM_CONTEXT_WINDOW,
  DEFAULT_CUSTOM_MAX_TOKENS,
  type CustomModelIssue,
} from "./model-registry.js";
export { BUILTIN_MODELS } from "./builtin-models.js";
export {
  THINKING_LEVELS,
  THINKING_LEVEL_DESCRIPTIONS,
  clampThinkingLevel,
  isThinkingLevel,
  supportedThinkingLevels,
} from "./thinking-levels.js";
export { streamCompletion, completeText } from "./stream-completion.js";
export { resolveApiKey, apiKeyEnvName } from "./api-key.js";
export { ProviderError, redactSecrets } from "./provider-error.js";
export { RETRY_DEFAULTS } from "./retry.js";
