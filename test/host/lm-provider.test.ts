/**
 * VS Code's language models as pi-ai providers, against an in-memory `vscode.lm` (fake-vscode-lm.ts), through the
 * real model registry: the conversation goes out as VS Code's messages (system prompt first, tool calls and results as
 * their parts, our tools as LanguageModelChatTools), the reply streams back as text, tool calls and thinking, usage is
 * counted with the model's tokenizer, failures say what to do (consent refused, blocked, gone), and an abort cancels
 * VS Code's request. The listing follows `onDidChangeChatModels`.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { AssistantMessage, LlmMessage } from "../../src/core/messages.js";
import { ModelRegistry } from "../../src/core/providers/model-registry.js";
import type { StreamEvent, StreamRequest } from "../../src/core/providers/types.js";
import { LmModels, type LmSource } from "../../src/host/models/lm-models.js";
import { lmToolCallId } from "../../src/host/models/lm-messages.js";
import { createLmProvider } from "../../src/host/models/lm-provider.js";
import {
  DataPart,
  FakeChat,
  LmError,
  Role,
  TextPart,
  ThinkingPart,
  ToolCallPart,
  ToolResultPart,
  fakeLmApi,
} from "./fake-vscode-lm.js";
import { assistant, toolResult, user } from "../util/session-builder.js";

const TOOLS = [
  {
    name: "read",
    description: "Read a file",
    parameters: { type: "object" as const, properties: { path: { type: "string" } }, required: ["path"] },
  },
];

async function registryWith(chats: FakeChat[], newer = true): Promise<ModelRegistry> {
  const registry = await ModelRegistry.create({ builtins: false, env: {} });
  const byVendor = new Map<string, FakeChat[]>();
  for (const c of chats) byVendor.set(c.vendor, [...(byVendor.get(c.vendor) ?? []), c]);
  registry.setHostProviders(
    [...byVendor].map(([vendor, list]) =>
      createLmProvider(registry.pi, fakeLmApi(newer), {
        vendor,
        displayName: vendor === "copilot" ? "GitHub Copilot" : vendor,
        chats: list.map((c) => c.asChat()),
      }),
    ),
    [],
  );
  await registry.refreshAuth();
  return registry;
}

function request(
  registry: ModelRegistry,
  provider: string,
  id: string,
  messages: LlmMessage[],
  extra: Partial<StreamRequest> = {},
): StreamRequest {
  const model = registry.find(provider, id);
  assert.ok(model, `${provider}/${id} is listed`);
  return { model, messages, systemPrompt: "You are careful.", tools: TOOLS, maxRetries: 0, ...extra };
}

async function events(registry: ModelRegistry, req: StreamRequest): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of registry.stream(req)) out.push(e);
  return out;
}

function final(evs: StreamEvent[]): AssistantMessage {
  const last = evs[evs.length - 1];
  assert.ok(last.type === "done" || last.type === "error");
  return last.message;
}

describe("VS Code's language models as providers", () => {
  let chat: FakeChat;
  let registry: ModelRegistry;
  before(async () => {
    chat = new FakeChat("gpt-4o", "GPT-4o", "copilot", 64_000, { supportsImageToText: true });
    registry = await registryWith([chat, new FakeChat("claude-sonnet-4", "Claude Sonnet 4", "copilot")]);
  });

  it("lists each model under its vendor's provider (vscode-<vendor>), ready, text only unless VS Code says images", () => {
    const p = registry.provider("vscode-copilot");
    assert.equal(p?.name, "GitHub Copilot (VS Code)");
    assert.equal(p?.auth.apiKey?.login, false, "nothing to enter: VS Code holds the sign-in");
    assert.equal(registry.isReady("vscode-copilot"), true);
    const m = registry.find("vscode-copilot", "gpt-4o");
    assert.equal(m?.api, "vscode-lm");
    assert.equal(m?.contextWindow, 64_000);
    assert.deepEqual(m?.input, ["text", "image"]);
    assert.deepEqual(registry.find("vscode-copilot", "claude-sonnet-4")?.input, ["text"]);
    assert.deepEqual(registry.supportedThinkingLevels(m!), ["off"]);
  });

  it("streams a reply: text deltas, usage counted with the model's tokenizer, stored like any model's", async () => {
    chat.reply([new TextPart("Hello"), new TextPart(", world")]);
    const evs = await events(registry, request(registry, "vscode-copilot", "gpt-4o", [user("hi")]));
    assert.deepEqual(
      evs.filter((e) => e.type === "text_delta").map((e) => (e as { delta: string }).delta),
      ["Hello", ", world"],
    );
    const m = final(evs);
    assert.equal(m.stopReason, "stop");
    assert.deepEqual(m.content, [{ type: "text", text: "Hello, world" }]);
    assert.equal(m.provider, "vscode-copilot");
    assert.equal(m.api, "vscode-lm");
    assert.equal(m.model, "gpt-4o");
    assert.ok(m.usage.input > 0 && m.usage.output > 0, JSON.stringify(m.usage));
    assert.equal(m.usage.totalTokens, m.usage.input + m.usage.output);
    assert.equal(m.usage.cost.total, 0);
    // What was counted: everything sent (the system prompt, the user's words, the tool's schema), then the reply.
    assert.ok(
      chat.counted.some((t) => t.includes("You are careful.") && t.includes("hi") && t.includes("Read a file")),
    );
    assert.ok(chat.counted.includes("Hello, world"));
    // The request: the system prompt first as the user's, the tools as LanguageModelChatTools, a justification.
    const sent = chat.requests.at(-1)!;
    assert.equal(sent.messages.length, 1);
    assert.equal(sent.messages[0].role, Role.User);
    assert.deepEqual(
      (sent.messages[0].content as TextPart[]).map((p) => p.value),
      ["You are careful.", "hi"],
    );
    assert.deepEqual(sent.options.tools, [
      { name: "read", description: "Read a file", inputSchema: TOOLS[0].parameters },
    ]);
    assert.match(sent.options.justification ?? "", /Agent Tree/);
  });

  it("a tool call comes back as our tool call; its result goes back as a LanguageModelToolResultPart", async () => {
    chat.reply([new TextPart("Reading."), new ToolCallPart("call_1", "read", { path: "a.txt" })]);
    const first = final(await events(registry, request(registry, "vscode-copilot", "gpt-4o", [user("read a.txt")])));
    assert.equal(first.stopReason, "toolUse");
    assert.deepEqual(first.content[1], { type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.txt" } });
    chat.reply([new TextPart("It says hello.")]);
    const second = final(
      await events(
        registry,
        request(registry, "vscode-copilot", "gpt-4o", [
          user("read a.txt"),
          first,
          toolResult("hello", "read", "call_1"),
          user("and?"),
        ]),
      ),
    );
    assert.deepEqual(second.content, [{ type: "text", text: "It says hello." }]);
    const sent = chat.requests.at(-1)!.messages;
    assert.deepEqual(
      sent.map((m) => m.role),
      [Role.User, Role.Assistant, Role.User],
      "one message per turn: the tool's result and the next words together",
    );
    const [call] = (sent[1].content as unknown[]).filter((p) => p instanceof ToolCallPart) as ToolCallPart[];
    assert.deepEqual(
      { id: call.callId, name: call.name, input: call.input },
      { id: "call_1", name: "read", input: { path: "a.txt" } },
    );
    const [result, words] = sent[2].content as unknown[];
    assert.ok(result instanceof ToolResultPart);
    assert.equal(result.callId, "call_1");
    assert.deepEqual(
      (result.content as TextPart[]).map((p) => p.value),
      ["hello"],
    );
    assert.ok(words instanceof TextPart && words.value === "and?");
  });

  it("another API's tool-call id that VS Code's models refuse is replaced, the same for the call and its result", async () => {
    const responsesId = "call_abc|fc_0123456789abcdef0123456789abcdef0123456789abcdef";
    const earlier: AssistantMessage = {
      ...assistant("", [{ id: responsesId, name: "read", args: { path: "b" } }]),
      provider: "openai",
      api: "openai-responses",
      model: "gpt-5",
    };
    await events(
      registry,
      request(registry, "vscode-copilot", "gpt-4o", [user("x"), earlier, toolResult("out", "read", responsesId)]),
    );
    const sent = chat.requests.at(-1)!.messages;
    const call = (sent[1].content as unknown[])[0] as ToolCallPart;
    const result = (sent[2].content as unknown[])[0] as ToolResultPart;
    assert.match(call.callId, /^[A-Za-z0-9_-]{1,64}$/);
    assert.equal(call.callId, result.callId);
    assert.equal(call.callId, lmToolCallId(responsesId));
  });

  it("images go as data parts where VS Code has them and the model reads them; otherwise as a note", async () => {
    const pic = { type: "image" as const, data: Buffer.from("png-bytes").toString("base64"), mimeType: "image/png" };
    const withImage: LlmMessage = { role: "user", content: [{ type: "text", text: "look" }, pic], timestamp: 1 };
    await events(registry, request(registry, "vscode-copilot", "gpt-4o", [withImage]));
    const part = (chat.requests.at(-1)!.messages[0].content as unknown[])[2];
    assert.ok(part instanceof DataPart);
    assert.equal(part.mimeType, "image/png");
    assert.equal(Buffer.from(part.data).toString(), "png-bytes");
    const claude = new FakeChat("claude-sonnet-4", "Claude Sonnet 4", "copilot");
    const older = await registryWith([claude], false);
    await events(older, request(older, "vscode-copilot", "claude-sonnet-4", [withImage]));
    const note = (claude.requests[0].messages[0].content as unknown[])[2];
    assert.ok(note instanceof TextPart);
    assert.match(note.value, /image\/png.*reads text only/);
  });

  it("thinking parts (where VS Code has them) become thinking, shown as it streams", async () => {
    chat.reply([new ThinkingPart("Let me "), new ThinkingPart(["think."]), new TextPart("Done.")]);
    const evs = await events(registry, request(registry, "vscode-copilot", "gpt-4o", [user("q")]));
    assert.deepEqual(
      evs.filter((e) => e.type === "thinking_delta").map((e) => (e as { delta: string }).delta),
      ["Let me ", "think."],
    );
    assert.deepEqual(final(evs).content, [
      { type: "thinking", thinking: "Let me think." },
      { type: "text", text: "Done." },
    ]);
  });

  it("consent refused: an auth error that says what to do, not retried", async () => {
    chat.reply({ throws: LmError.NoPermissions("Language model 'gpt-4o' cannot be used") });
    const before = chat.requests.length;
    const evs = await events(registry, request(registry, "vscode-copilot", "gpt-4o", [user("q")], { maxRetries: 3 }));
    const last = evs.at(-1)!;
    assert.ok(last.type === "error");
    assert.equal(last.errorKind, "auth");
    assert.match(
      last.message.errorMessage ?? "",
      /VS Code did not allow Agent Tree to use GPT-4o .*allow it when VS Code asks/,
    );
    assert.equal(chat.requests.length - before, 1, "a refusal is not asked again by a retry");
  });

  it("a model VS Code no longer offers, a blocked request, another failure: each with its kind and words", async () => {
    chat.reply({ throws: LmError.NotFound() });
    let last = (await events(registry, request(registry, "vscode-copilot", "gpt-4o", [user("q")]))).at(-1)!;
    assert.ok(last.type === "error");
    assert.equal(last.errorKind, "not_found");
    assert.match(last.message.errorMessage ?? "", /no longer offers GPT-4o.*pick another model/);
    chat.reply({ throws: LmError.Blocked("quota exceeded") });
    last = (await events(registry, request(registry, "vscode-copilot", "gpt-4o", [user("q")]))).at(-1)!;
    assert.ok(last.type === "error");
    assert.equal(last.errorKind, "rate_limit");
    assert.match(last.message.errorMessage ?? "", /blocked the request.*quota exceeded/);
    chat.reply({ parts: [new TextPart("partial ")], thenThrows: new Error("the extension lost its connection") });
    last = (await events(registry, request(registry, "vscode-copilot", "gpt-4o", [user("q")]))).at(-1)!;
    assert.ok(last.type === "error");
    assert.equal(last.errorKind, "bad_response");
    assert.match(
      last.message.errorMessage ?? "",
      /GPT-4o \(GitHub Copilot, through VS Code\): the extension lost its connection/,
    );
    assert.deepEqual(last.message.content, [{ type: "text", text: "partial " }], "what came is kept");
  });

  it("an abort cancels VS Code's request; the reply ends aborted with what came", async () => {
    chat.reply({ parts: [new TextPart("so far")], waitForCancel: true });
    const controller = new AbortController();
    const req = request(registry, "vscode-copilot", "gpt-4o", [user("long")], { signal: controller.signal });
    const seen: StreamEvent[] = [];
    for await (const e of registry.stream(req)) {
      seen.push(e);
      if (e.type === "text_delta") controller.abort();
    }
    const last = seen.at(-1)!;
    assert.ok(last.type === "error");
    assert.equal(last.message.stopReason, "aborted");
    assert.deepEqual(last.message.content, [{ type: "text", text: "so far" }]);
    assert.equal(chat.requests.at(-1)!.token.isCancellationRequested, true, "VS Code's request was cancelled");
  });
});

describe("the listing follows VS Code", () => {
  it("re-reads on onDidChangeChatModels: a new vendor is added, a gone one removed, in one rebuild each", async () => {
    const registry = await ModelRegistry.create({ builtins: false, env: {} });
    let offered: FakeChat[] = [new FakeChat("m1", "Model One", "copilot")];
    let fire: () => void = () => undefined;
    const source: LmSource = {
      selectChatModels: async () => offered.map((c) => c.asChat()),
      onDidChangeChatModels: (l) => {
        fire = l;
        return { dispose: () => undefined };
      },
      vendorName: (v) => (v === "acme" ? "Acme Models" : undefined),
    };
    const log: string[] = [];
    const lm = new LmModels(source, fakeLmApi(), registry, registry.pi, (m) => log.push(m));
    let changes = 0;
    registry.onDidChange(() => changes++);
    await lm.refresh();
    assert.deepEqual(
      registry.byProvider("vscode-copilot").map((m) => m.id),
      ["m1"],
    );
    offered = [new FakeChat("a1", "Acme One", "acme"), new FakeChat("a2", "Acme Two", "acme")];
    changes = 0;
    fire();
    await lm.refresh();
    assert.equal(registry.provider("vscode-copilot"), undefined);
    assert.equal(registry.provider("vscode-acme")?.name, "Acme Models (VS Code)");
    assert.deepEqual(
      registry.byProvider("vscode-acme").map((m) => m.id),
      ["a1", "a2"],
    );
    assert.ok(
      log.some((l) => /2 of 1 vendor/.test(l)),
      log.join("\n"),
    );
    lm.dispose();
  });
});
