/**
 * VS Code's language models (`vscode.lm`: GitHub Copilot's, and those other extensions contribute) as pi-ai
 * providers, one per vendor, made with pi-ai's `createProvider` and registered in the model registry by the host:
 * the core never sees `vscode`. A request goes through `LanguageModelChat.sendRequest` with our tools as
 * `LanguageModelChatTool`s; the reply's parts stream back as pi-ai's events — text, tool calls
 * (`LanguageModelToolCallPart`), thinking where VS Code has `LanguageModelThinkingPart`. VS Code reports no usage:
 * the reply's `usage` is counted with the model's own tokenizer (`countTokens`), so the context meter and
 * compaction work. Replies are stored like any model's, with provider `vscode-<vendor>` and api `vscode-lm`.
 *
 * The first request of an extension to another extension's models may ask the user's consent (VS Code's dialog, or
 * an account prompt); a refusal, a block or a vanished model ends the reply with a message that says what to do.
 */
import type {
  AssistantMessage,
  AssistantMessageEventStream,
  Model,
  Provider,
  SimpleStreamOptions,
  TranscriptContext,
} from "@earendil-works/pi-ai";
import type * as vscode from "vscode";
import type { PiAi } from "../../core/providers/pi-ai.js";
import type { HostProviderOptions } from "../../core/providers/model-registry.js";
import type { ProviderErrorKind } from "../../core/providers/types.js";
import { toLmRequest, type LmApi } from "./lm-messages.js";
import { errorText } from "../../core/error-text.js";
import { emptyUsage } from "../../core/messages.js";

/** The API id of VS Code's models (pi-ai has no such API: the provider below is its only implementation). */
export const LM_API = "vscode-lm";

/** Why VS Code lets us use a model: shown in its consent dialog. */
const JUSTIFICATION = "Agent Tree sends your chat, its files and its tools' results to the model you picked.";

/** VS Code does not say how long a reply may be; the model's own limit applies. */
const DEFAULT_MAX_TOKENS = 16_384;
/** How long the token count may take before the reply ends without it. */
const COUNT_TIMEOUT_MS = 3_000;

/** A `vscode.LanguageModelChat`, with the fields newer VS Codes add (feature-detected). */
export type LmChat = vscode.LanguageModelChat & {
  readonly maxOutputTokens?: number;
  readonly capabilities?: { readonly supportsImageToText?: boolean; readonly supportsToolCalling?: boolean };
};

/** The provider id of a vendor's models: `vscode-<vendor>` (e.g. `vscode-copilot`). */
export function lmProviderId(vendor: string): string {
  const slug = vendor
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return `vscode-${slug || "models"}`;
}

/** One VS Code model as pi-ai's model (no prices: the vendor's subscription pays). */
export function lmModel(chat: LmChat, providerId: string, api: LmApi): Model<typeof LM_API> {
  const images = chat.capabilities?.supportsImageToText === true && api.LanguageModelDataPart !== undefined;
  return {
    id: chat.id,
    name: chat.name || chat.id,
    api: LM_API,
    provider: providerId,
    baseUrl: `vscode-lm:${chat.vendor}`,
    reasoning: false,
    input: images ? ["text", "image"] : ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: chat.maxInputTokens > 0 ? chat.maxInputTokens : 128_000,
    maxTokens: chat.maxOutputTokens && chat.maxOutputTokens > 0 ? chat.maxOutputTokens : DEFAULT_MAX_TOKENS,
  };
}

/** What a vendor's provider is made of. */
export interface LmVendor {
  vendor: string;
  /** How the vendor is named (its extension's `displayName` for the vendor, else the vendor id). */
  displayName: string;
  chats: readonly LmChat[];
}

/** A vendor's provider and how the registry treats its failures. */
export interface LmProvider {
  provider: Provider;
  options: HostProviderOptions;
}

/** See the file comment. */
export function createLmProvider(pi: PiAi, api: LmApi, vendor: LmVendor): LmProvider {
  const id = lmProviderId(vendor.vendor);
  const chats = new Map(vendor.chats.map((c) => [c.id, c]));
  const models = vendor.chats.map((c) => lmModel(c, id, api));
  /** The kind of each failure message this provider wrote (the registry asks, see HostProviderOptions). */
  const kinds = new Map<string, ProviderErrorKind>();
  const remember = (message: string, kind: ProviderErrorKind): string => {
    kinds.set(message, kind);
    if (kinds.size > 50) kinds.delete(kinds.keys().next().value as string);
    return message;
  };
  const streamSimple = (
    model: Model<string>,
    context: TranscriptContext,
    options?: SimpleStreamOptions,
  ): AssistantMessageEventStream => {
    const stream = pi.createAssistantMessageEventStream();
    void run(pi, api, { chat: chats.get(model.id), model, context, options, stream, vendor, remember });
    return stream;
  };
  const provider = pi.createProvider({
    id,
    name: `${vendor.displayName} (VS Code)`,
    baseUrl: `vscode-lm:${vendor.vendor}`,
    // VS Code holds the sign-in (and asks for consent itself): there is nothing to enter here.
    auth: {
      apiKey: {
        name: `${vendor.displayName} in VS Code`,
        check: async () => ({ type: "api_key", source: "VS Code" }),
        resolve: async () => ({ auth: {}, source: "VS Code" }),
      },
    },
    models,
    api: { stream: streamSimple, streamSimple },
  });
  return { provider, options: { errorKind: (message) => kinds.get(message) } };
}

interface RunInput {
  chat: LmChat | undefined;
  model: Model<string>;
  context: TranscriptContext;
  options: SimpleStreamOptions | undefined;
  stream: AssistantMessageEventStream;
  vendor: LmVendor;
  remember(message: string, kind: ProviderErrorKind): string;
}

/** One request: sends it, streams the parts as pi-ai's events, ends with `done` or `error`. Never throws. */
async function run(pi: PiAi, api: LmApi, input: RunInput): Promise<void> {
  const { model, stream, options } = input;
  const output: AssistantMessage = {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: Date.now(),
  };
  const signal = options?.signal;
  const cts = new api.CancellationTokenSource();
  const cancel = (): void => cts.cancel();
  signal?.addEventListener("abort", cancel, { once: true });
  let started = false;
  const start = (): void => {
    if (started) return;
    started = true;
    stream.push({ type: "start", partial: output });
  };
  /** The open text or thinking block, closed when another kind of part comes. */
  let open: { kind: "text" | "thinking"; index: number } | undefined;
  const close = (): void => {
    if (!open) return;
    const block = output.content[open.index];
    if (open.kind === "text" && block?.type === "text")
      stream.push({ type: "text_end", contentIndex: open.index, content: block.text, partial: output });
    if (open.kind === "thinking" && block?.type === "thinking")
      stream.push({ type: "thinking_end", contentIndex: open.index, content: block.thinking, partial: output });
    open = undefined;
  };
  const appendText = (kind: "text" | "thinking", delta: string): void => {
    if (!delta) return;
    if (open?.kind !== kind) {
      close();
      output.content.push(kind === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "" });
      open = { kind, index: output.content.length - 1 };
      stream.push({
        type: kind === "text" ? "text_start" : "thinking_start",
        contentIndex: open.index,
        partial: output,
      });
    }
    const block = output.content[open.index];
    if (block.type === "text") block.text += delta;
    if (block.type === "thinking") block.thinking += delta;
    stream.push({
      type: kind === "text" ? "text_delta" : "thinking_delta",
      contentIndex: open.index,
      delta,
      partial: output,
    });
  };
  const fail = (message: string, aborted: boolean): void => {
    close();
    start();
    output.stopReason = aborted ? "aborted" : "error";
    output.errorMessage = message;
    stream.push({ type: "error", reason: aborted ? "aborted" : "error", error: output });
    stream.end();
  };
  try {
    const chat = input.chat;
    if (!chat) {
      fail(
        input.remember(
          `VS Code no longer offers the model "${model.id}" of ${input.vendor.displayName}: pick another model.`,
          "not_found",
        ),
        false,
      );
      return;
    }
    if (signal?.aborted) return fail("Request aborted", true);
    const request = toLmRequest(api, {
      systemPrompt: pi.getCurrentSystemPrompt(input.context.messages),
      messages: input.context.messages.filter((m) => m.role !== "system"),
      tools: pi.getCurrentTools(input.context.messages),
      images: model.input.includes("image"),
    });
    const response = await chat.sendRequest(
      request.messages,
      {
        justification: JUSTIFICATION,
        ...(request.tools.length > 0 ? { tools: request.tools, toolMode: api.LanguageModelChatToolMode.Auto } : {}),
      },
      cts.token,
    );
    start();
    for await (const part of response.stream) {
      if (part instanceof api.LanguageModelTextPart) {
        appendText("text", part.value);
      } else if (part instanceof api.LanguageModelToolCallPart) {
        close();
        const args = JSON.stringify(part.input ?? {});
        output.content.push({
          type: "toolCall",
          id: part.callId,
          name: part.name,
          arguments: (part.input ?? {}) as Record<string, never>,
        });
        const index = output.content.length - 1;
        stream.push({ type: "toolcall_start", contentIndex: index, partial: output });
        stream.push({ type: "toolcall_delta", contentIndex: index, delta: args, partial: output });
        const call = output.content[index];
        if (call.type === "toolCall")
          stream.push({ type: "toolcall_end", contentIndex: index, toolCall: call, partial: output });
      } else if (api.LanguageModelThinkingPart && part instanceof api.LanguageModelThinkingPart) {
        const value = Array.isArray(part.value) ? part.value.join("") : part.value;
        appendText("thinking", value);
      }
      // Other parts (data, future kinds) carry nothing the conversation keeps.
    }
    if (signal?.aborted) return fail("Request aborted", true);
    close();
    output.usage = await usageOf(chat, request.text, replyText(output), cts.token);
    output.stopReason = output.content.some((c) => c.type === "toolCall") ? "toolUse" : "stop";
    stream.push({ type: "done", reason: output.stopReason, message: output });
    stream.end();
  } catch (e) {
    if (signal?.aborted) return fail("Request aborted", true);
    const { message, kind } = describeFailure(api, e, model, input.vendor);
    fail(input.remember(message, kind), false);
  } finally {
    signal?.removeEventListener("abort", cancel);
    cts.dispose();
  }
}

/** What the reply said, as text to count: its text, thinking and tool calls. */
function replyText(reply: AssistantMessage): string {
  return reply.content
    .map((c) =>
      c.type === "text" ? c.text : c.type === "thinking" ? c.thinking : `${c.name} ${JSON.stringify(c.arguments)}`,
    )
    .join("\n");
}

/** The reply's usage, counted with the model's tokenizer (0 where counting fails or takes too long). */
async function usageOf(
  chat: LmChat,
  sent: string,
  received: string,
  token: vscode.CancellationToken,
): Promise<AssistantMessage["usage"]> {
  const count = async (text: string): Promise<number> => {
    if (!text) return 0;
    let timer: NodeJS.Timeout | undefined;
    try {
      const n = await Promise.race([
        Promise.resolve(chat.countTokens(text, token)),
        new Promise<number>((resolve) => (timer = setTimeout(() => resolve(0), COUNT_TIMEOUT_MS))),
      ]);
      return Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
    } catch {
      return 0;
    } finally {
      clearTimeout(timer);
    }
  };
  const [input, output] = await Promise.all([count(sent), count(received)]);
  return {
    input,
    output,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: input + output,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

/** A failure of `sendRequest` or of its stream, as a message a user can act on, and its kind when we know it. */
export function describeFailure(
  api: LmApi,
  e: unknown,
  model: Pick<Model<string>, "id" | "name">,
  vendor: Pick<LmVendor, "displayName">,
): { message: string; kind: ProviderErrorKind } {
  const what = `${model.name} (${vendor.displayName}, through VS Code)`;
  const said = errorText(e);
  // `code` is the name of LanguageModelError's factory (`LanguageModelError.NoPermissions.name`, …), as VS Code's docs
  // compare it; an error revived from another extension host may not be an instance of this one's class.
  const code = e instanceof api.LanguageModelError ? e.code : (e as { code?: unknown } | undefined)?.code;
  if (code === "NoPermissions")
    return {
      kind: "auth",
      message:
        `VS Code did not allow Agent Tree to use ${what}: access was refused. Send again and allow it when VS Code ` +
        `asks, or pick another model.`,
    };
  if (code === "Blocked")
    return {
      kind: "rate_limit",
      message: `VS Code blocked the request to ${what} (a quota or a limit): ${said}`,
    };
  if (code === "NotFound")
    return { kind: "not_found", message: `VS Code no longer offers ${what}: pick another model.` };
  const cause = e instanceof Error && e.cause instanceof Error ? ` (${e.cause.message})` : "";
  // Whatever else the model's extension reports is shown as it said it (not guessed at from its words).
  return { kind: "bad_response", message: `${what}: ${said}${cause}` };
}
