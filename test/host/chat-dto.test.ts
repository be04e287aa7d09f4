import { test } from "node:test";
import assert from "node:assert/strict";
import {
  emptyUsage,
  type AgentMessage,
  type AssistantMessage,
  type Usage,
  type UserMessage,
} from "../../src/core/messages.js";
import type { SessionEntry } from "../../src/core/session/types.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { envelopeOf } from "../../src/core/session/preview.js";
import { entryToChat, isChatEntry, messageToDto, usageOf } from "../../src/host/chat/chat-dto.js";
import type { ChatUsage } from "../../src/shared/protocol.js";
import { ChatPath } from "../../src/host/chat/chat-path.js";

const assistant = (over: Partial<AssistantMessage> = {}): AssistantMessage => ({
  role: "assistant",
  content: [
    { type: "thinking", thinking: "hmm" },
    { type: "text", text: "Reading it." },
    { type: "toolCall", id: "c1", name: "read", arguments: { path: "a.ts" } },
  ],
  provider: "openai",
  model: "gpt-4.1",
  usage: { ...emptyUsage(), input: 100, output: 20, totalTokens: 120, cost: { ...emptyUsage().cost, total: 0.5 } },
  stopReason: "toolUse",
  timestamp: 5,
  ...over,
});

test("assistant messages flatten text, thinking, tool calls, model and usage", () => {
  const dto = messageToDto("tmp-1", assistant());
  assert.equal(dto.text, "Reading it.");
  assert.equal(dto.thinking, "hmm");
  assert.deepEqual(dto.toolCalls, [
    { id: "c1", name: "read", label: "read", hint: "a.ts", args: '{\n  "path": "a.ts"\n}' },
  ]);
  assert.deepEqual([dto.title, dto.icon], ["Assistant", "hubot"]);
  assert.equal(dto.model, "openai/gpt-4.1");
  assert.deepEqual(dto.usage, { input: 100, output: 20, cost: 0.5 });
  assert.equal(dto.stopReason, "toolUse");
});

test("a user message's attachments are shown by name, not by their text", () => {
  const dto = messageToDto("u", {
    role: "user",
    content: [
      { type: "text", text: "explain @a.ts" },
      { type: "text", text: '<file name="/w/a.ts">\nSECRET BODY\n</file>' },
      { type: "image", data: "AAAA", mimeType: "image/png" },
    ],
    timestamp: 1,
  });
  assert.equal(dto.text, "explain @a.ts");
  assert.deepEqual(dto.attachments, [
    { kind: "file", name: "/w/a.ts" },
    { kind: "image", name: "image/png" },
  ]);
  assert.equal(messageToDto("v", { role: "user", content: "plain", timestamp: 1 }).attachments, undefined);
});

test("other roles", () => {
  assert.equal(messageToDto("u", { role: "user", content: [{ type: "text", text: "hi" }], timestamp: 1 }).text, "hi");
  const tr = messageToDto("t", {
    role: "toolResult",
    toolCallId: "c1",
    toolName: "read",
    content: [{ type: "text", text: "file" }],
    isError: true,
    timestamp: 2,
  });
  assert.deepEqual(
    [tr.role, tr.toolName, tr.toolCallId, tr.isError, tr.text],
    ["toolResult", "read", "c1", true, "file"],
  );
  const bash = messageToDto("b", {
    role: "bashExecution",
    command: "ls",
    output: "x",
    exitCode: 2,
    cancelled: false,
    truncated: false,
    timestamp: 3,
  });
  assert.equal(bash.text, "$ ls\nx\n(exit code 2)");
});

test("a path becomes chat rows with entry ids; hidden hook messages are skipped", () => {
  const ts = "2026-01-01T00:00:00.000Z";
  const path: SessionEntry[] = [
    { type: "message", id: "a", parentId: null, timestamp: ts, message: { role: "user", content: "q", timestamp: 1 } },
    { type: "model_change", id: "m", parentId: "a", timestamp: ts, provider: "openai", modelId: "x" },
    {
      type: "custom_message",
      id: "h",
      parentId: "m",
      timestamp: ts,
      customType: "x",
      content: "secret",
      display: false,
    },
    { type: "branch_summary", id: "s", parentId: "h", timestamp: ts, fromId: "z", summary: "did things" },
    {
      type: "compaction",
      id: "c",
      parentId: "s",
      timestamp: ts,
      summary: "older",
      firstKeptEntryId: "s",
      tokensBefore: 9,
    },
    { type: "message", id: "b", parentId: "c", timestamp: ts, message: assistant() },
  ];
  // The envelope alone says which entries are rows (no body is read for the others).
  assert.deepEqual(
    chatRows(path).map((m) => [m?.id, m?.role]),
    [
      ["a", "user"],
      ["s", "branchSummary"],
      ["c", "compactionSummary"],
      ["b", "assistant"],
    ],
  );
  assert.equal(entryToChat(path[2]), undefined, "a hidden hook message has no row");
});

const ts = "2026-01-01T00:00:00.000Z";

/** The chat rows of a path, as the chat window picks them (by envelope) and draws them. */
function chatRows(path: readonly SessionEntry[]): ReturnType<typeof entryToChat>[] {
  return path.filter((e) => isChatEntry(envelopeOf(e))).map(entryToChat);
}

/** The usage line of a session's path, from its index (as the chat window reads it). */
function usageLine(sm: SessionManager, contextWindow: number): ChatUsage {
  return usageOf(new ChatPath(sm).update().usage, contextWindow);
}

test("usage sums cost and tokens; context is the last good reply", () => {
  const sm = SessionManager.inMemory("/tmp");
  sm.appendMessage(assistant());
  sm.appendMessage(assistant({ usage: { ...emptyUsage(), input: 300, output: 30, totalTokens: 330 } }));
  // An aborted reply counts for tokens and cost, not for the context size.
  sm.appendMessage(
    assistant({ stopReason: "aborted", usage: { ...emptyUsage(), input: 1, output: 1, totalTokens: 2 } }),
  );
  assert.deepEqual(usageLine(sm, 1000), { input: 401, output: 51, cost: 0.5, contextTokens: 330, contextWindow: 1000 });
});

test("pi 1.5's usage entries and the usage of its summaries count; they do not set the context size", () => {
  const cost = (total: number): Usage["cost"] => ({ ...emptyUsage().cost, total });
  const sm = SessionManager.inMemory("/tmp");
  const reply = sm.appendMessage(assistant({ usage: { ...emptyUsage(), input: 300, output: 30, totalTokens: 330 } }));
  sm.appendUsage("cache_warm", "anthropic", "claude", {
    ...emptyUsage(),
    input: 5000,
    output: 1,
    totalTokens: 5001,
    cost: cost(0.25),
  });
  sm.appendCompaction("s", reply, 330, undefined, undefined, {
    ...emptyUsage(),
    input: 40,
    output: 4,
    totalTokens: 44,
    cost: cost(0.125),
  });
  assert.deepEqual(usageLine(sm, 1000), {
    input: 5340,
    output: 35,
    cost: 0.375,
    contextTokens: 330,
    contextWindow: 1000,
  });
});

test("a pi 1.5 system message is no chat row; a message without content is an empty row, not a crash", () => {
  const path: SessionEntry[] = [
    {
      type: "message",
      id: "s",
      parentId: null,
      timestamp: ts,
      message: { role: "system", content: "", sections: { tools: "<tools>read</tools>" }, timestamp: 1 },
    },
    {
      type: "message",
      id: "u",
      parentId: "s",
      timestamp: ts,
      message: { role: "user", content: null, timestamp: 2 } as unknown as UserMessage,
    },
    {
      type: "message",
      id: "a",
      parentId: "u",
      timestamp: ts,
      message: { ...assistant(), content: undefined } as never,
    },
  ];
  assert.deepEqual(
    chatRows(path).map((m) => [m?.id, m?.role, m?.text]),
    [
      ["u", "user", ""],
      ["a", "assistant", ""],
    ],
  );
  assert.equal(messageToDto("s", (path[0] as { message: AgentMessage }).message).text, "<tools>read</tools>");
});
