/** Streaming through the official `@anthropic-ai/sdk` (Messages API), with tool use and thinking. */
import type { MessageCreateParamsStreaming, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import type { TextContent, ThinkingContent, ToolCall } from "../messages.js";
import { toAnthropicMessages, toAnthropicTools, withCacheBreakpoints } from "./anthropic-messages.js";
import { applyCost, newAssistantMessage, parseToolArguments } from "./assistant-output.js";
import { ProviderError, type ErrorContext } from "./provider-error.js";
import { openWithRetry } from "./retry.js";
import { failStream, streamCutError } from "./stream-failure.js";
import type { StreamEvent, StreamRequest, ThinkingLevel } from "./types.js";

/** Default endpoint of the official API. */
export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";

/** Thinking budget per level, in tokens (1024 is the API's minimum). */
const THINKING_BUDGET: Record<Exclude<ThinkingLevel, "off">, number> = {
  minimal: 1024,
  low: 4096,
  medium: 10_240,
  high: 32_768,
  xhigh: 65_536,
};

function buildParams(request: StreamRequest): MessageCreateParamsStreaming {
  const { model } = request;
  let maxTokens = Math.min(request.maxTokens ?? model.maxTokens, model.maxTokens);
  const params: MessageCreateParamsStreaming = {
    model: model.id,
    max_tokens: maxTokens,
    messages: toAnthropicMessages(request.messages, model),
    stream: true,
  };
  if (model.provider === "anthropic") {
    // Cache control is an Anthropic feature; compatible proxies may reject the field.
    const cached = withCacheBreakpoints(request.systemPrompt, params.messages, request.systemPromptStableLength);
    params.messages = cached.messages;
    if (cached.system) params.system = cached.system;
  } else if (request.systemPrompt) params.system = request.systemPrompt;
  if (request.tools?.length) params.tools = toAnthropicTools(request.tools);
  if (model.reasoning && request.thinkingLevel && request.thinkingLevel !== "off") {
    // The budget must stay below max_tokens; leave room for the answer itself.
    let budget = THINKING_BUDGET[request.thinkingLevel];
    if (budget + 1024 > model.maxTokens) budget = Math.max(1024, model.maxTokens - 1024);
    maxTokens = Math.min(model.maxTokens, Math.max(maxTokens, budget + 1024));
    params.max_tokens = maxTokens;
    params.thinking = { type: "enabled", budget_tokens: budget };
  }
  return params;
}

function mapStopReason(reason: string | null): "stop" | "length" | "toolUse" | "error" {
  switch (reason) {
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "toolUse";
    case "refusal":
      return "error";
    default:
      return "stop";
  }
}

/** Stream one reply. Always ends with exactly one `done` or `error` event. */
export async function* streamAnthropicMessages(
  request: StreamRequest,
  apiKey: string | undefined,
): AsyncGenerator<StreamEvent> {
  const { model, signal } = request;
  const baseUrl = model.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL;
  const out = newAssistantMessage(model);
  const ctx: ErrorContext = { provider: model.provider, modelId: model.id, baseUrl, apiKey };
  yield { type: "start", partial: out };

  // API block index → index in out.content (server tool blocks etc. are skipped)
  const blockIdx = new Map<number, number>();
  const rawArgs = new Map<number, string>();
  const finalizeToolArgs = (): void => {
    for (const [ci, raw] of rawArgs) (out.content[ci] as ToolCall).arguments = parseToolArguments(raw);
  };
  // tool_use blocks started but not yet stopped (content index): their arguments may be missing a tail.
  const openCalls = new Set<number>();

  try {
    if (!apiKey && !model.noApiKey) {
      const env = model.apiKeyEnv ?? (model.provider === "anthropic" ? "ANTHROPIC_API_KEY" : undefined);
      throw new ProviderError(
        "auth",
        `No API key for ${model.provider}: ${env ? `set ${env} or ` : ""}enter a key in the extension.`,
      );
    }
    // Loaded on the first call, not with the extension: the SDK costs the extension host ~10 MB it may never need.
    const { default: Anthropic } = await import("@anthropic-ai/sdk");
    const client = new Anthropic({ apiKey: apiKey ?? "no-key", baseURL: baseUrl, maxRetries: 0, logLevel: "off" });
    const params = buildParams(request);
    const stream = await openWithRetry(request, ctx, () => client.messages.create(params, { signal }));
    let stopReason: string | null | undefined;
    let sawStop = false;
    try {
      for await (const ev of stream as AsyncIterable<RawMessageStreamEvent>) {
        switch (ev.type) {
          case "message_start": {
            const u = ev.message.usage;
            out.usage.input = u.input_tokens ?? 0;
            out.usage.output = u.output_tokens ?? 0;
            out.usage.cacheRead = u.cache_read_input_tokens ?? 0;
            out.usage.cacheWrite = u.cache_creation_input_tokens ?? 0;
            applyCost(out.usage, model);
            break;
          }
          case "content_block_start": {
            const b = ev.content_block;
            if (b.type === "text") out.content.push({ type: "text", text: b.text ?? "" });
            else if (b.type === "thinking")
              out.content.push({
                type: "thinking",
                thinking: b.thinking ?? "",
                thinkingSignature: b.signature || undefined,
              });
            else if (b.type === "redacted_thinking")
              // Kept (with its opaque data as the signature) so the turn can be replayed intact.
              out.content.push({
                type: "thinking",
                thinking: "[redacted thinking]",
                thinkingSignature: b.data,
                redacted: true,
              });
            else if (b.type === "tool_use") {
              out.content.push({ type: "toolCall", id: b.id, name: b.name, arguments: {} });
              rawArgs.set(out.content.length - 1, "");
              openCalls.add(out.content.length - 1);
            } else break;
            blockIdx.set(ev.index, out.content.length - 1);
            break;
          }
          case "content_block_delta": {
            const ci = blockIdx.get(ev.index);
            if (ci === undefined) break;
            const d = ev.delta;
            if (d.type === "text_delta") {
              (out.content[ci] as TextContent).text += d.text;
              yield { type: "text_delta", contentIndex: ci, delta: d.text, partial: out };
            } else if (d.type === "thinking_delta") {
              (out.content[ci] as ThinkingContent).thinking += d.thinking;
              yield { type: "thinking_delta", contentIndex: ci, delta: d.thinking, partial: out };
            } else if (d.type === "signature_delta") {
              const t = out.content[ci] as ThinkingContent;
              t.thinkingSignature = (t.thinkingSignature ?? "") + d.signature;
            } else if (d.type === "input_json_delta") {
              rawArgs.set(ci, (rawArgs.get(ci) ?? "") + d.partial_json);
              yield { type: "toolcall_delta", contentIndex: ci, delta: d.partial_json, partial: out };
            }
            break;
          }
          case "content_block_stop": {
            const ci = blockIdx.get(ev.index);
            if (ci !== undefined) openCalls.delete(ci);
            break;
          }
          case "message_delta": {
            stopReason = ev.delta.stop_reason;
            const u = ev.usage;
            if (u.input_tokens != null) out.usage.input = u.input_tokens;
            if (u.cache_read_input_tokens != null) out.usage.cacheRead = u.cache_read_input_tokens;
            if (u.cache_creation_input_tokens != null) out.usage.cacheWrite = u.cache_creation_input_tokens;
            out.usage.output = u.output_tokens ?? out.usage.output;
            applyCost(out.usage, model);
            break;
          }
          case "message_stop":
            sawStop = true;
            break;
          default:
            break;
        }
      }
    } catch (e) {
      throw streamCutError(e, ctx, signal);
    }
    finalizeToolArgs();
    if (signal?.aborted) throw new ProviderError("aborted", "Request aborted");
    if (!sawStop)
      throw new ProviderError(
        "bad_response",
        `The stream from ${baseUrl} ended before the reply was complete; the partial reply was kept.`,
      );
    out.stopReason = mapStopReason(stopReason ?? null);
    if (out.stopReason === "error") {
      out.errorMessage = "The model refused to answer.";
      yield { type: "error", message: out, errorKind: "bad_response" };
      return;
    }
    yield { type: "done", message: out };
  } catch (e) {
    finalizeToolArgs();
    yield failStream(
      out,
      e,
      ctx,
      signal,
      [...openCalls].map((ci) => out.content[ci] as ToolCall),
    );
  }
}
