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
export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high";

/** One streaming request. */
export interface StreamRequest {
  model: ModelInfo;
  systemPrompt?: string;
  messages: LlmMessage[];
  tools?: ToolDefinition[];
  /** Resolved key (from SecretStorage or the environment). Never logged. */
  apiKey?: string;
  signal?: AbortSignal;
  maxTokens?: number;
  thinkingLevel?: ThinkingLevel;
  /** Retries on 429/5xx/network errors (default 3). */
  maxRetries?: number;
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
  | { type: "error"; message: AssistantMessage };
