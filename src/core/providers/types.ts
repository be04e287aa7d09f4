/**
 * The provider layer's types. Models, thinking levels and credentials are pi-ai's own types (type imports only:
 * nothing of pi-ai is loaded by them); the request and event types are this extension's seam between the agent
 * loop and pi-ai (registry-stream.ts maps one onto the other).
 */
import type {
  Api,
  CredentialStore as PiCredentialStore,
  Model,
  ModelThinkingLevel,
  Provider as PiProvider,
} from "@earendil-works/pi-ai";
import type { AssistantMessage, LlmMessage } from "../messages.js";

/** Which wire protocol a model speaks: pi-ai's API ids ("openai-completions", "openai-responses", "anthropic-messages", "google-generative-ai", …). */
export type ModelApi = Api;

/**
 * A model as pi-ai describes it (its catalog entry, or one made from models.json or `agentTree.models.custom`):
 * `id`, `name`, `provider`, `api`, `baseUrl`, `reasoning`, `thinkingLevelMap?`, `input` ("text", "image"),
 * `cost` (USD per million tokens), `contextWindow`, `maxTokens`, `compat?`, `headers?`. Plain JSON.
 */
export type ModelInfo = Model<Api>;

/** A pi-ai provider (built in, made with `createProvider`, or the host's own, e.g. VS Code's language models). */
export type Provider = PiProvider;

/** Where stored credentials (API keys entered by the user, OAuth tokens) live: pi-ai's `CredentialStore`. */
export type CredentialStore = PiCredentialStore;

/** JSON schema of a tool's parameters. */
export interface JsonSchemaObject {
  type: "object";
  properties: Record<string, unknown>;
  required?: string[];
  additionalProperties?: boolean;
}

/** A tool as the model is told about it. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchemaObject;
}

/** Thinking effort, pi's levels: "off" disables thinking; "xhigh" and "max" only where a model maps them. */
export type ThinkingLevel = ModelThinkingLevel;

/** One streaming request. */
export interface StreamRequest {
  model: ModelInfo;
  systemPrompt?: string;
  messages: LlmMessage[];
  tools?: ToolDefinition[];
  /**
   * A key the host holds for this model's provider (SecretStorage). It wins over every other source; without it
   * the provider resolves its own credentials (stored credential, environment variable, login). Never logged.
   */
  apiKey?: string;
  signal?: AbortSignal;
  maxTokens?: number;
  thinkingLevel?: ThinkingLevel;
  /** Prompt-cache affinity (pi passes its session id). */
  sessionId?: string;
  /** Retries on 429/5xx/network errors before anything was streamed (default 3). */
  maxRetries?: number;
  /** First backoff delay in ms, doubled per attempt (default 1000). */
  retryBaseDelayMs?: number;
  /** Upper bound of one wait, also caps Retry-After (default 60000). */
  maxRetryDelayMs?: number;
  /** Called before each retry wait so a UI can show "retrying in …". */
  onRetry?: (info: RetryInfo) => void;
}

/** Passed to `StreamRequest.onRetry`. */
export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  /** Human-readable reason (never contains the key). */
  error: string;
}

/** Category of a provider failure (see `ProviderError`). */
export type ProviderErrorKind =
  "auth" | "not_found" | "unreachable" | "rate_limit" | "server" | "bad_response" | "aborted";

/**
 * A user-defined model as the setting `agentTree.models.custom` holds it (JSON). Mapped onto a pi-ai provider
 * (custom-models.ts); unset limits fall back to conservative defaults.
 */
export interface CustomModelConfig {
  provider: string;
  id: string;
  name?: string;
  baseUrl: string;
  /** Any pi-ai API id; "openai" and "anthropic" are aliases of "openai-completions" and "anthropic-messages". */
  api?: string;
  contextWindow?: number;
  maxTokens?: number;
  noApiKey?: boolean;
  reasoning?: boolean;
  /** `["text", "image"]` for a model that reads images (pi's models.json); default text only. */
  input?: ("text" | "image")[];
  /** The model also takes the "xhigh" thinking level. */
  supportsXhigh?: boolean;
  /** Environment variable holding the key (default `<PROVIDER>_API_KEY`). */
  apiKeyEnv?: string;
  cost?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
}

/**
 * Events of one streamed reply. `partial` is the message so far. The stream always ends with
 * exactly one `done` (stopReason stop/length/toolUse) or `error` (stopReason error/aborted).
 */
export type StreamEvent =
  | { type: "start"; partial: AssistantMessage }
  | { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "done"; message: AssistantMessage }
  | { type: "error"; message: AssistantMessage; errorKind?: ProviderErrorKind };
