/** Model providers: pi-ai's providers and catalog behind one registry, pi's models.json and settings.json, keys. */
export {
  ModelRegistry,
  CUSTOM_MODELS_SETTING,
  issueLines,
  type HostProviderOptions,
  type ModelListing,
  type ModelRegistryOptions,
  type ProviderAuthInfo,
  type ProviderAuthState,
  type ProviderInfo,
} from "./model-registry.js";
export {
  parseCustomModel,
  customModelsConfig,
  defaultKeyEnvName,
  DEFAULT_CUSTOM_CONTEXT_WINDOW,
  DEFAULT_CUSTOM_MAX_TOKENS,
  type CustomModelEntry,
  type CustomModelIssue,
} from "./custom-models.js";
export {
  THINKING_LEVELS,
  THINKING_LEVEL_DESCRIPTIONS,
  clampThinkingLevel,
  isThinkingLevel,
  supportedThinkingLevels,
} from "./thinking-levels.js";
export { loadPiAi, type PiAi } from "./pi-ai.js";
export { keyEnvNames, keyEnvValues, withoutKeys, type KeyEnvSource } from "./api-key.js";
export { credentialSecrets, SecretTrackingStore } from "./credential-secrets.js";
export { NO_KEY_SOURCE } from "./provider-compose.js";
export { ProviderError, redactSecrets } from "./provider-error.js";
export { RETRY_DEFAULTS } from "./retry.js";
export { formatIssue, type ConfigIssue } from "./json-check.js";
export {
  parsePiModelsJson,
  readPiModelsJson,
  type PiModelCost,
  type PiModelDefinition,
  type PiModelOverride,
  type PiModelsConfig,
  type PiProviderConfig,
} from "./pi-models-json.js";
export {
  mergeModelSettings,
  parsePiSettings,
  readPiSettings,
  type EffectiveModelSettings,
  type PiModelSettings,
  type SettingSource,
  type VsCodeModelSettings,
} from "./pi-settings.js";
export { readPiAgentConfig, type PiAgentConfig, type PiAgentPlaces } from "./pi-agent-config.js";
export { resolveModelScope, type ModelScope, type ScopedModel } from "./model-scope.js";
