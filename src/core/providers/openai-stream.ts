/** Streaming through the official `openai` SDK (Chat Completions); also OpenAI-compatible servers. */
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import type { TextContent, ThinkingContent, ToolCall } from "../messages.js";
import { applyCost, newAssistantMessage, parseToolArguments } from "./assistant-output.js";
import { toOpenAIMessages, toOpenAITools } from "./openai-messages.js";
import { ProviderError, type ErrorContext } from "./provider-error.js";
import { openWithRetry } from "./retry.js";
import { failStream, streamCutError } from "./stream-failure.js";
import type { StreamEvent, StreamRequest } from "./types.js";

/** Default endpoint of the official API. */
export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** Key sent to servers that need none (the SDK insists on some value). */
const NO_KEY = "no-key";

function buildParams(request: StreamRequest): ChatCompletionCreateParamsStreaming {
  const { model } = request;
  const maxTokens = Math.min(request.maxTokens ?? model.maxTokens, model.maxTokens);
  const params: ChatCompletionCreateParamsStreaming = {
    model: model.id,
    messages: toOpenAIMessages(request.systemPrompt, request.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  // The official API deprecated max_tokens; many compatible servers only know max_tokens.
  if (model.provider === "openai" && !model.baseUrl) params.max_completion_tokens = maxTokens;
  else params.max_tokens = maxTokens;
  if (request.tools?.length) params.tools = toOpenAITools(request.tools);
  if (model.reasoning && request.thinkingLevel && request.thinkingLevel !== "off") {
    // "minimal" exists for GPT-5 only; older reasoning models take low/medium/high.
    const level = request.thinkingLevel;
    params.reasoning_effort = level === "minimal" ? (model.id.startsWith("gpt-5") ? "minimal" : "low") : level;
  }
  return params;
}

/** Extra reasoning fields some compatible servers (Ollama, vLLM, OpenRouter, DeepSeek) put in a delta. */
function reasoningDelta(delta: object): string | undefined {
  const d = delta as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof d.reasoning_content === "string" && d.reasoning_content) return d.reasoning_content;
  if (typeof d.reasoning === "string" && d.reasoning) return d.reasoning;
  return undefined;
}

/** Stream one reply. Always ends with exactly one `done` or `error` event. */
export async function* streamOpenAICompletions(
  request: StreamRequest,
  apiKey: string | undefined,
): AsyncGenerator<StreamEvent> {
  const { model, signal } = request;
  const baseUrl = model.baseUrl ?? OPENAI_DEFAULT_BASE_URL;
  const out = newAssistantMessage(model);
  const ctx: ErrorContext = { provider: model.provider, modelId: model.id, baseUrl, apiKey };
  yield { type: "start", partial: out };

  // index in out.content of the block being streamed, per kind / per tool-call index
  let textIdx = -1;
  let thinkingIdx = -1;
  const toolIdx = new Map<number, number>();
  const rawArgs = new Map<number, string>();
  const idIndex = new Map<string, number>();
  let lastToolKey = 0;
  const finalizeToolArgs = (): void => {
    for (const [i, ci] of toolIdx) (out.content[ci] as ToolCall).arguments = parseToolArguments(rawArgs.get(i) ?? "");
  };
  let finish: string | null = null;
  // Calls stream one after another: without a finish reason, the latest one may be missing its tail.
  const cutCalls = (): ToolCall[] => {
    const ci = finish === null ? toolIdx.get(lastToolKey) : undefined;
    return ci === undefined ? [] : [out.content[ci] as ToolCall];
  };

  try {
    if (!apiKey && !model.noApiKey) throw missingKey(request);
    // Loaded on the first call, not with the extension: the SDK costs the extension host ~10 MB it may never need.
    const { default: OpenAI } = await import("openai");
    const client = new OpenAI({ apiKey: apiKey ?? NO_KEY, baseURL: baseUrl, maxRetries: 0, logLevel: "off" });
    const params = buildParams(request);
    const stream = await openWithRetry(request, ctx, () => client.chat.completions.create(params, { signal }));
    try {
      for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
        if (chunk.usage) {
          const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
          out.usage.input = Math.max(0, (chunk.usage.prompt_tokens ?? 0) - cached);
          out.usage.cacheRead = cached;
          out.usage.output = chunk.usage.completion_tokens ?? 0;
          applyCost(out.usage, model);
        }
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const delta = choice.delta ?? {};
        const reasoning = reasoningDelta(delta);
        if (reasoning) {
          if (thinkingIdx < 0) {
            out.content.push({ type: "thinking", thinking: "" });
            thinkingIdx = out.content.length - 1;
          }
          (out.content[thinkingIdx] as ThinkingContent).thinking += reasoning;
          yield { type: "thinking_delta", contentIndex: thinkingIdx, delta: reasoning, partial: out };
        }
        if (typeof delta.content === "string" && delta.content) {
          if (textIdx < 0) {
            out.content.push({ type: "text", text: "" });
            textIdx = out.content.length - 1;
          }
          (out.content[textIdx] as TextContent).text += delta.content;
          yield { type: "text_delta", contentIndex: textIdx, delta: delta.content, partial: out };
        }
        for (const tc of delta.tool_calls ?? []) {
          // Some compatible servers omit `index`; fall back to the id, else the latest call.
          let key =
            typeof tc.index === "number" ? tc.index : tc.id ? (idIndex.get(tc.id) ?? idIndex.size + 1000) : lastToolKey;
          // Some servers reuse index 0 for every complete call; a new id with a name starts a new call.
          const existing = toolIdx.get(key);
          if (
            existing !== undefined &&
            tc.id &&
            tc.function?.name &&
            (out.content[existing] as ToolCall).id !== tc.id
          ) {
            key = idIndex.get(tc.id) ?? 1000 + idIndex.size + toolIdx.size;
          }
          if (tc.id && !idIndex.has(tc.id)) idIndex.set(tc.id, key);
          lastToolKey = key;
          let ci = toolIdx.get(key);
          if (ci === undefined) {
            out.content.push({
              type: "toolCall",
              id: tc.id ?? `call_${key}`,
              name: tc.function?.name ?? "",
              arguments: {},
            });
            ci = out.content.length - 1;
            toolIdx.set(key, ci);
          } else {
            const call = out.content[ci] as ToolCall;
            if (tc.id) call.id = tc.id;
            if (tc.function?.name && !call.name) call.name = tc.function.name;
          }
          const argDelta = tc.function?.arguments ?? "";
          rawArgs.set(key, (rawArgs.get(key) ?? "") + argDelta);
          yield { type: "toolcall_delta", contentIndex: ci, delta: argDelta, partial: out };
        }
        if (choice.finish_reason) finish = choice.finish_reason;
      }
    } catch (e) {
      throw streamCutError(e, ctx, signal);
    }
    finalizeToolArgs();
    if (signal?.aborted) throw new ProviderError("aborted", "Request aborted");
    if (finish === null)
      throw new ProviderError(
        "bad_response",
        `The stream from ${baseUrl} ended before the reply was complete; the partial reply was kept.`,
      );
    out.stopReason =
      finish === "length"
        ? "length"
        : finish === "tool_calls" || finish === "function_call" || toolIdx.size > 0
          ? "toolUse"
          : "stop";
    if (finish === "content_filter") {
      out.stopReason = "error";
      out.errorMessage = "The reply was stopped by the provider's content filter.";
      yield { type: "error", message: out, errorKind: "bad_response" };
      return;
    }
    yield { type: "done", message: out };
  } catch (e) {
    finalizeToolArgs();
    yield failStream(out, e, ctx, signal, cutCalls());
  }
}

function missingKey(request: StreamRequest): ProviderError {
  const env = request.model.apiKeyEnv ?? (request.model.provider === "openai" ? "OPENAI_API_KEY" : undefined);
  return new ProviderError(
    "auth",
    `No API key for ${request.model.provider}: ${env ? `set ${env} or ` : ""}enter a key in the extension (or mark the model "noApiKey" for a local server).`,
  );
}
