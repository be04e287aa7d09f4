/**
 * Provider-neutral streaming interface. Implementations wrap the official SDKs
 * (`openai` Chat Completions, `@anthropic-ai/sdk` Messages).
 */
import type { AssistantMessage, LlmMessage } from "../messages.js";

/** Which wire protocol a model speaks. */
export type ModelApi = "openai-completions" | "anthropic-messages";

/** A model the registry knows, built in or user defined. */
export interface ModelInfo {
  /** Model id sent to the API, e.g. "gpt-4.1" or "claude-sonnet-4-5". */
  id: string;
  /** Display name. */
  name: string;
  /** Provider key: "openai", "anthropic", "ollama", or a user-defined name. */
  provider: string;
  api: ModelApi;
  /** Overrides the SDK's default endpoint (OpenAI-compatible servers: Ollama, LM Studio, vLLM, OpenRouter). */
  baseUrl?: string;
  /** Total context window in tokens. */
  contextWindow: number;
  /** Maximum output tokens. */
  maxTokens: number;
  /** Supports thinking/reasoning. */
  reasoning?: boolean;
  /** What the model reads, as pi's model registry says: "image" when it takes images (default text only). */
  input?: readonly ("text" | "image")[];
  /** Also takes the "xhigh" thinking level (pi: a model whose level map names xhigh). */
  supportsXhigh?: boolean;
  /** USD per million tokens. */
  cost?: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /** Name of the environment variable holding the key (default per provider). */
  apiKeyEnv?: string;
  /** True for local servers that need no key. */
  noApiKey?: boolean;
}

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

/** Thinking effort; "off" disables thinking. */
export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh";

/** One streaming request. */
export interface StreamRequest {
  model: ModelInfo;
  systemPrompt?: string;
  /**
   * How many leading characters of `systemPrompt` rarely change (the preamble, tools, rules and folder sections):
   * Anthropic gets a prompt-cache breakpoint after them too, so an edited AGENTS.md does not invalidate them.
   */
  systemPromptStableLength?: number;
  messages: LlmMessage[];
  tools?: ToolDefinition[];
  /** Resolved key (from SecretStorage or the environment). Never logged. */
  apiKey?: string;
  signal?: AbortSignal;
  maxTokens?: number;
  thinkingLevel?: ThinkingLevel;
  /** Retries on 429/5xx/network errors (default 3). */
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
 * A user-defined model as the host stores it in settings (JSON-able).
 * Unset limits fall back to conservative defaults.
 */
export interface CustomModelConfig {
  provider: string;
  id: string;
  name?: string;
  baseUrl: string;
  api: ModelApi;
  contextWindow?: number;
  maxTokens?: number;
  noApiKey?: boolean;
  reasoning?: boolean;
  /** `["text", "image"]` for a model that reads images (pi's models.json); default text only. */
  input?: ("text" | "image")[];
  supportsXhigh?: boolean;
  apiKeyEnv?: string;
  cost?: { input: number; output: number; cacheRead: number; cacheWrite: number };
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
