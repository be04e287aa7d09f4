/**
 * One request through pi-ai (`Models.streamSimple`), as this extension's stream of events: the conversation goes
 * in as pi-ai's messages (it converts them per API, drops thinking another model wrote, normalises tool-call ids —
 * its cross-provider handoff), the thinking level as pi-ai's `reasoning`, the host's key (if any) as `apiKey`.
 * pi-ai's events come back as ours; a failure gets its kind and a message a user can act on (provider-error.ts),
 * and a retryable failure before anything was streamed is retried with our policy (retry.ts).
 */
import type { AssistantMessageEvent, MutableModels, ProviderEnv } from "@earendil-works/pi-ai";
import type { AssistantMessage, StopReason } from "../messages.js";
import { errorText } from "../error-text.js";
import { prepareMessages } from "./message-prep.js";
import type { PiAi } from "./pi-ai.js";
import { fromPiReply, toPiMessages, toPiTools } from "./pi-messages.js";
import { ProviderError, classifyFailure, redactSecrets } from "./provider-error.js";
import { RequestRecorder } from "./request-recorder.js";
import { RETRY_DEFAULTS, abortableSleep, retryDelay } from "./retry.js";
import type { ProviderErrorKind, StreamEvent, StreamRequest } from "./types.js";
import { emptyUsage } from "../messages.js";

/** What a request needs of its registry. */
export interface StreamDeps {
  models: MutableModels;
  pi: PiAi;
  /** The environment variables a provider reads its key from (for "no key" messages). */
  keyEnvNames(provider: string): readonly string[];
  /** The registry's own environment, when it is not the process's (tests). */
  env?: NodeJS.ProcessEnv;
  /** Secrets of the stored credentials, kept out of error messages. */
  secrets?(): readonly string[];
  /** The kind of a failure as the provider itself knows it (a host provider's own errors; see HostProviderOptions). */
  errorKind?(provider: string, errorMessage: string): ProviderErrorKind | undefined;
}

/** A live partial as ours: pi-ai's "pending" stop reason is not one of ours, and a partial has not stopped yet. */
function partialOf(partial: { stopReason: string }): AssistantMessage {
  const p = partial as Omit<AssistantMessage, "stopReason"> & { stopReason: string };
  return p.stopReason === "pending" || p.stopReason === "deferred"
    ? { ...p, stopReason: "stop" }
    : (p as AssistantMessage & { stopReason: StopReason });
}

function providerEnv(env: NodeJS.ProcessEnv | undefined): ProviderEnv | undefined {
  if (!env) return undefined;
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === "string"));
}

/** The reply a request that failed before pi-ai said anything ends with. */
function emptyReply(request: StreamRequest, message: string): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: request.model.api,
    provider: request.model.provider,
    model: request.model.id,
    usage: emptyUsage(),
    stopReason: "error",
    errorMessage: message,
    timestamp: Date.now(),
  };
}

/**
 * The content of a failed reply with every tool call whose arguments did not arrive whole marked as pi-ai marks
 * arguments that are not JSON: `arguments` empty, `argumentsError` saying what came. A half-received call never
 * looks whole (pi-ai's partial parse would give it plausible arguments). Returns the calls' names too.
 */
function markCutCalls(
  reply: AssistantMessage,
  argText: ReadonlyMap<number, string>,
): { content: AssistantMessage["content"]; cut: string[] } {
  const cut: string[] = [];
  const content = reply.content.map((block, index) => {
    if (block.type !== "toolCall" || !argText.has(index)) return block;
    const text = argText.get(index) ?? "";
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return block;
    } catch {
      // Not whole: marked below.
    }
    cut.push(`"${block.name}"`);
    return { ...block, arguments: {}, argumentsError: `The arguments were cut off after: ${text}` };
  });
  return { content, cut };
}

/** See the file comment. Always ends with exactly one `done` or `error`. */
export async function* streamThroughModels(deps: StreamDeps, request: StreamRequest): AsyncGenerator<StreamEvent> {
  const { model, signal } = request;
  const maxRetries = Math.max(0, request.maxRetries ?? RETRY_DEFAULTS.maxRetries);
  const context = {
    ...(request.systemPrompt ? { systemPrompt: request.systemPrompt } : {}),
    messages: toPiMessages(prepareMessages(request.messages)),
    ...(request.tools?.length ? { tools: toPiTools(request.tools) } : {}),
  };
  const env = providerEnv(deps.env);
  let startSent = false;
  for (let attempt = 0; ; attempt++) {
    const recorder = new RequestRecorder();
    let streamed = false;
    /** The argument text each tool call streamed, by content index. */
    const argText = new Map<number, string>();
    let final: AssistantMessageEvent | undefined;
    /** What a provider threw instead of reporting it as an event (a bug of the provider's). */
    let thrown: string | undefined;
    try {
      const events = deps.models.streamSimple(model, context, {
        // pi-ai's "no reasoning" is no `reasoning` (the caller clamped the level to what the model takes).
        ...(request.thinkingLevel && request.thinkingLevel !== "off" ? { reasoning: request.thinkingLevel } : {}),
        ...(request.apiKey ? { apiKey: request.apiKey } : {}),
        ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
        ...(request.sessionId ? { sessionId: request.sessionId } : {}),
        ...(env ? { env } : {}),
        signal,
        // Our policy retries, visibly (see retry.ts); pi-ai's would retry silently inside.
        maxRetries: 0,
        maxRetryDelayMs: request.maxRetryDelayMs ?? RETRY_DEFAULTS.maxDelayMs,
        fetch: recorder.fetch,
      });
      for await (const ev of events) {
        switch (ev.type) {
          case "start":
            if (!startSent) {
              startSent = true;
              yield { type: "start", partial: partialOf(ev.partial) };
            }
            break;
          case "text_start":
          case "thinking_start":
            // An empty block: it shows with its first delta.
            streamed = true;
            break;
          case "text_delta":
          case "thinking_delta":
            streamed = true;
            yield { type: ev.type, contentIndex: ev.contentIndex, delta: ev.delta, partial: partialOf(ev.partial) };
            break;
          // A tool call shows from its start (its name), before its arguments stream.
          case "toolcall_start":
          case "toolcall_delta": {
            streamed = true;
            argText.set(
              ev.contentIndex,
              (argText.get(ev.contentIndex) ?? "") + (ev.type === "toolcall_delta" ? ev.delta : ""),
            );
            yield {
              type: "toolcall_delta",
              contentIndex: ev.contentIndex,
              delta: ev.type === "toolcall_delta" ? ev.delta : "",
              partial: partialOf(ev.partial),
            };
            break;
          }
          case "toolcall_end":
            break;
          case "done":
          case "error":
            final = ev;
            break;
        }
      }
    } catch (e) {
      // pi-ai's streams report failures as events; a throw here is a bug of a provider, reported like one.
      thrown = errorText(e);
    }
    if (final?.type === "done") {
      yield { type: "done", message: fromPiReply(final.message) };
      return;
    }
    const failed =
      thrown !== undefined
        ? emptyReply(request, thrown)
        : final?.type === "error"
          ? fromPiReply(final.error)
          : emptyReply(request, "The model stream ended without a result");
    const aborted =
      signal?.aborted === true || (thrown === undefined && final?.type === "error" && final.reason === "aborted");
    const ownKind = aborted ? undefined : deps.errorKind?.(model.provider, failed.errorMessage ?? "");
    const failure = ownKind
      ? new ProviderError(
          ownKind,
          redactSecrets(failed.errorMessage ?? "Model call failed", ...(deps.secrets?.() ?? [])),
        )
      : classifyFailure({
          provider: model.provider,
          modelId: model.id,
          baseUrl: model.baseUrl,
          message: failed.errorMessage ?? "Model call failed",
          status: recorder.status,
          headers: recorder.headers,
          networkError: recorder.networkError,
          aborted,
          streamed,
          secrets: [request.apiKey, ...(deps.secrets?.() ?? [])],
          keyEnvNames: deps.keyEnvNames(model.provider),
        });
    if (failure.kind !== "aborted" && !streamed && failure.retryable && attempt < maxRetries) {
      const delayMs = retryDelay(attempt + 1, failure, request);
      request.onRetry?.({ attempt: attempt + 1, delayMs, error: failure.message });
      try {
        await abortableSleep(delayMs, signal);
        continue;
      } catch {
        yield {
          type: "error",
          message: { ...failed, stopReason: "aborted", errorMessage: "Request aborted" },
          errorKind: "aborted",
        };
        return;
      }
    }
    let errorMessage = failure.message;
    const { content, cut } = markCutCalls(failed, argText);
    if (failure.kind !== "aborted" && cut.length > 0)
      errorMessage +=
        cut.length === 1
          ? ` The tool call ${cut[0]} was cut off before its arguments were complete.`
          : ` The tool calls ${cut.join(", ")} were cut off before their arguments were complete.`;
    const message: AssistantMessage = {
      ...failed,
      content,
      stopReason: failure.kind === "aborted" ? "aborted" : "error",
      errorMessage,
    };
    yield { type: "error", message, errorKind: failure.kind };
    return;
  }
}
