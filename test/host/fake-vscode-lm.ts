/**
 * VS Code's language-model API (`vscode.lm` and its classes), in memory, for host tests of the provider of VS Code's
 * models: the classes behave as VS Code's do (constructors, `LanguageModelError.code`, cancellation tokens), and a
 * `FakeChat` is one model whose replies a test scripts (parts to stream, an error to throw, a stream that waits).
 */
import type * as vscode from "vscode";
import type { LmApi } from "../../src/host/models/lm-messages.js";
import type { LmChat } from "../../src/host/models/lm-provider.js";

export class TextPart {
  constructor(public value: string) {}
}
export class ToolCallPart {
  constructor(
    public callId: string,
    public name: string,
    public input: object,
  ) {}
}
export class ToolResultPart {
  constructor(
    public callId: string,
    public content: unknown[],
  ) {}
}
export class DataPart {
  constructor(
    public data: Uint8Array,
    public mimeType: string,
  ) {}
  static image(data: Uint8Array, mime: string): DataPart {
    return new DataPart(data, mime);
  }
}
export class ThinkingPart {
  constructor(
    public value: string | string[],
    public id?: string,
  ) {}
}
export enum Role {
  User = 1,
  Assistant = 2,
}
export enum ToolMode {
  Auto = 1,
  Required = 2,
}
export class ChatMessage {
  constructor(
    public role: Role,
    public content: unknown[] | string,
    public name?: string,
  ) {}
}
export class LmError extends Error {
  constructor(
    message: string,
    public readonly code: string,
  ) {
    super(message);
  }
  static NoPermissions(message?: string): LmError {
    return new LmError(message ?? "No permissions", "NoPermissions");
  }
  static Blocked(message?: string): LmError {
    return new LmError(message ?? "Blocked", "Blocked");
  }
  static NotFound(message?: string): LmError {
    return new LmError(message ?? "Not found", "NotFound");
  }
}
export class CancellationTokenSource {
  private readonly state = { cancelled: false, listeners: new Set<() => void>() };
  readonly token: {
    readonly isCancellationRequested: boolean;
    onCancellationRequested(l: () => void): { dispose(): void };
  };
  constructor() {
    const state = this.state;
    this.token = {
      get isCancellationRequested(): boolean {
        return state.cancelled;
      },
      onCancellationRequested: (l) => {
        state.listeners.add(l);
        return { dispose: () => state.listeners.delete(l) };
      },
    };
  }
  cancel(): void {
    if (this.state.cancelled) return;
    this.state.cancelled = true;
    for (const l of this.state.listeners) l();
  }
  dispose(): void {
    this.state.listeners.clear();
  }
}

/** The fake `vscode` classes as the provider takes them; `newer: false` leaves out the classes of newer VS Codes. */
export function fakeLmApi(newer = true): LmApi {
  return {
    LanguageModelChatMessage: ChatMessage as unknown as LmApi["LanguageModelChatMessage"],
    LanguageModelChatMessageRole: Role as unknown as LmApi["LanguageModelChatMessageRole"],
    LanguageModelTextPart: TextPart as unknown as LmApi["LanguageModelTextPart"],
    LanguageModelToolCallPart: ToolCallPart as unknown as LmApi["LanguageModelToolCallPart"],
    LanguageModelToolResultPart: ToolResultPart as unknown as LmApi["LanguageModelToolResultPart"],
    LanguageModelError: LmError as unknown as LmApi["LanguageModelError"],
    LanguageModelChatToolMode: ToolMode as unknown as LmApi["LanguageModelChatToolMode"],
    CancellationTokenSource: CancellationTokenSource as unknown as LmApi["CancellationTokenSource"],
    ...(newer ? { LanguageModelDataPart: DataPart, LanguageModelThinkingPart: ThinkingPart } : {}),
  };
}

/** What one request of a FakeChat does: stream these parts, or throw (before or while streaming), or wait. */
export type Reply =
  unknown[] | { throws: Error } | { parts: unknown[]; thenThrows: Error } | { parts: unknown[]; waitForCancel: true };

/** One request as the chat saw it. */
export interface SeenRequest {
  messages: ChatMessage[];
  options: vscode.LanguageModelChatRequestOptions;
  token: { isCancellationRequested: boolean };
}

/** One model of a vendor, scripted. */
export class FakeChat {
  readonly requests: SeenRequest[] = [];
  readonly counted: string[] = [];
  private readonly replies: Reply[] = [];
  readonly family = "fake";
  readonly version = "1";
  constructor(
    readonly id: string,
    readonly name: string,
    readonly vendor: string,
    readonly maxInputTokens = 64_000,
    readonly capabilities?: { supportsImageToText?: boolean; supportsToolCalling?: boolean },
  ) {}

  reply(...replies: Reply[]): this {
    this.replies.push(...replies);
    return this;
  }

  async sendRequest(
    messages: ChatMessage[],
    options: vscode.LanguageModelChatRequestOptions = {},
    token: { isCancellationRequested: boolean; onCancellationRequested(l: () => void): unknown },
  ): Promise<{ stream: AsyncIterable<unknown>; text: AsyncIterable<string> }> {
    this.requests.push({ messages, options, token });
    const reply = this.replies.shift() ?? [new TextPart(`echo ${this.requests.length}`)];
    if (!Array.isArray(reply) && "throws" in reply) throw reply.throws;
    const parts = Array.isArray(reply) ? reply : reply.parts;
    async function* stream(): AsyncGenerator<unknown> {
      for (const p of parts) {
        await new Promise((r) => setImmediate(r));
        yield p;
      }
      if (!Array.isArray(reply) && "thenThrows" in reply) throw reply.thenThrows;
      if (!Array.isArray(reply) && "waitForCancel" in reply) {
        await new Promise<void>((resolve) => token.onCancellationRequested(() => resolve()));
        const e = new Error("Canceled");
        e.name = "Canceled";
        throw e;
      }
    }
    return { stream: stream(), text: (async function* () {})() };
  }

  async countTokens(text: string): Promise<number> {
    this.counted.push(text);
    // One token per four characters, as tokenizers roughly count English.
    return Math.ceil(text.length / 4);
  }

  asChat(): LmChat {
    return this as unknown as LmChat;
  }
}
