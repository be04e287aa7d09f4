/**
 * A pi-ai conversation as VS Code's language-model messages (`vscode.LanguageModelChatMessage`), for the provider of
 * VS Code's models (lm-provider.ts). VS Code's API has two roles: the system prompt goes first as a user message
 * (extensions may not send system messages without a proposed API); each assistant reply becomes an assistant
 * message of text and `LanguageModelToolCallPart`s (thinking stays out: no model takes another's thinking back);
 * each tool result a `LanguageModelToolResultPart` in a user message. Neighbouring messages of one role are joined
 * (tool results, then the user's next words), as the models behind VS Code expect one turn per role. Images go as
 * `LanguageModelDataPart`s where VS Code has them (1.105+) and the model reads images, else as a note.
 */
import { createHash } from "node:crypto";
import type { Message, Tool, ToolCall } from "@earendil-works/pi-ai";
import type * as vscode from "vscode";

/** `vscode.LanguageModelDataPart` (VS Code 1.105+): feature-detected, absent in older VS Codes. */
export interface DataPartClass {
  image(data: Uint8Array, mime: string): object;
}

/** `vscode.LanguageModelThinkingPart` (a proposed API of VS Code): present where the build exposes the class. */
export interface ThinkingPartClass {
  new (value: string | string[], id?: string): { value: string | string[]; id?: string };
}

/** The part of the `vscode` module the provider uses: the real module in the extension, a fake in tests. */
export interface LmApi {
  LanguageModelChatMessage: typeof vscode.LanguageModelChatMessage;
  LanguageModelChatMessageRole: typeof vscode.LanguageModelChatMessageRole;
  LanguageModelTextPart: typeof vscode.LanguageModelTextPart;
  LanguageModelToolCallPart: typeof vscode.LanguageModelToolCallPart;
  LanguageModelToolResultPart: typeof vscode.LanguageModelToolResultPart;
  LanguageModelError: typeof vscode.LanguageModelError;
  LanguageModelChatToolMode: typeof vscode.LanguageModelChatToolMode;
  CancellationTokenSource: typeof vscode.CancellationTokenSource;
  LanguageModelDataPart?: DataPartClass;
  LanguageModelThinkingPart?: ThinkingPartClass;
}

/** The `vscode` module's language-model classes, the newer ones only where this VS Code has them. */
export function lmApiOf(vs: typeof vscode): LmApi {
  const newer = vs as unknown as {
    LanguageModelDataPart?: DataPartClass;
    LanguageModelThinkingPart?: ThinkingPartClass;
  };
  return {
    LanguageModelChatMessage: vs.LanguageModelChatMessage,
    LanguageModelChatMessageRole: vs.LanguageModelChatMessageRole,
    LanguageModelTextPart: vs.LanguageModelTextPart,
    LanguageModelToolCallPart: vs.LanguageModelToolCallPart,
    LanguageModelToolResultPart: vs.LanguageModelToolResultPart,
    LanguageModelError: vs.LanguageModelError,
    LanguageModelChatToolMode: vs.LanguageModelChatToolMode,
    CancellationTokenSource: vs.CancellationTokenSource,
    ...(typeof newer.LanguageModelDataPart?.image === "function"
      ? { LanguageModelDataPart: newer.LanguageModelDataPart }
      : {}),
    ...(typeof newer.LanguageModelThinkingPart === "function"
      ? { LanguageModelThinkingPart: newer.LanguageModelThinkingPart }
      : {}),
  };
}

/** What a converted request holds. */
export interface LmRequest {
  messages: vscode.LanguageModelChatMessage[];
  tools: vscode.LanguageModelChatTool[];
  /** Everything sent, as text: counted with the model's tokenizer for the reply's usage. */
  text: string;
}

/**
 * A tool-call id every model behind VS Code takes: letters, digits, `_` and `-`, at most 64 characters. Another
 * API's id that does not fit (OpenAI Responses' `call_…|fc_…`) is replaced by a stable one, the same for the call
 * and its result.
 */
export function lmToolCallId(id: string): string {
  if (/^[A-Za-z0-9_-]{1,64}$/.test(id)) return id;
  return `call_${createHash("sha256").update(id).digest("hex").slice(0, 40)}`;
}

type Part = vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart | vscode.LanguageModelToolResultPart;

/** The conversation (pi-ai's messages after the system messages were replayed) as VS Code's messages. */
export function toLmRequest(
  api: LmApi,
  input: { systemPrompt: string; messages: readonly Message[]; tools: readonly Tool[]; images: boolean },
): LmRequest {
  const out: { role: "user" | "assistant"; parts: Part[] }[] = [];
  const texts: string[] = [];
  const push = (role: "user" | "assistant", parts: Part[]): void => {
    if (parts.length === 0) return;
    const last = out[out.length - 1];
    if (last?.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  };
  const text = (value: string): vscode.LanguageModelTextPart => {
    texts.push(value);
    return new api.LanguageModelTextPart(value);
  };
  const image = (data: string, mimeType: string): Part => {
    if (input.images && api.LanguageModelDataPart)
      return api.LanguageModelDataPart.image(Buffer.from(data, "base64"), mimeType) as unknown as Part;
    return text(`[An image (${mimeType}) was attached here; this model reads text only.]`);
  };
  if (input.systemPrompt.trim()) push("user", [text(input.systemPrompt)]);
  for (const m of input.messages) {
    if (m.role === "user") {
      const content = typeof m.content === "string" ? [{ type: "text" as const, text: m.content }] : m.content;
      push(
        "user",
        content.flatMap((c) => (c.type === "text" ? (c.text ? [text(c.text)] : []) : [image(c.data, c.mimeType)])),
      );
    } else if (m.role === "assistant") {
      push(
        "assistant",
        m.content.flatMap((c): Part[] => {
          if (c.type === "text") return c.text ? [text(c.text)] : [];
          if (c.type === "toolCall") return [toolCallPart(api, c, texts)];
          return [];
        }),
      );
    } else if (m.role === "toolResult") {
      const content = m.content.map((c) => (c.type === "text" ? text(c.text) : image(c.data, c.mimeType)));
      if (content.length === 0) content.push(text(m.isError ? "(the tool failed without output)" : "(no output)"));
      // Results come before anything else of the user's turn.
      const part = new api.LanguageModelToolResultPart(lmToolCallId(m.toolCallId), content);
      const last = out[out.length - 1];
      if (last?.role === "user") {
        const firstOther = last.parts.findIndex((p) => !(p instanceof api.LanguageModelToolResultPart));
        last.parts.splice(firstOther < 0 ? last.parts.length : firstOther, 0, part);
      } else push("user", [part]);
    }
  }
  const tools = input.tools.map((t) => {
    texts.push(t.name, t.description, JSON.stringify(t.parameters));
    return { name: t.name, description: t.description, inputSchema: t.parameters };
  });
  const messages = out.map((m) =>
    m.role === "user"
      ? new api.LanguageModelChatMessage(api.LanguageModelChatMessageRole.User, m.parts)
      : new api.LanguageModelChatMessage(api.LanguageModelChatMessageRole.Assistant, m.parts),
  );
  return { messages, tools, text: texts.join("\n") };
}

function toolCallPart(api: LmApi, call: ToolCall, texts: string[]): vscode.LanguageModelToolCallPart {
  texts.push(call.name, JSON.stringify(call.arguments));
  return new api.LanguageModelToolCallPart(lmToolCallId(call.id), call.name, call.arguments as object);
}
