/**
 * ChatAnnouncer without a browser: which host messages are news, and the short texts said for them.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ChatMessageDto, HostToWebview } from "../../src/shared/protocol.js";
import { ChatAnnouncer, quote, replyText } from "../../webview/chat/chat-announcer.js";
import { call, chatSnapshot, msg } from "./chat-fixtures.js";

function feed(a: ChatAnnouncer, msgs: HostToWebview[]): string[] {
  return msgs.flatMap((m) => a.onHost(m));
}

const snapshot = (messages: ChatMessageDto[], streaming = false): HostToWebview =>
  chatSnapshot(messages, { streaming });

test("snapshot messages and later versions of them are never news", () => {
  const a = new ChatAnnouncer();
  const old = [msg("u1", "user", "hi"), msg("a1", "assistant", "hello", { stopReason: "error", errorMessage: "x" })];
  assert.deepEqual(
    feed(a, [
      snapshot(old),
      { type: "chat/message", message: msg("a1", "assistant", "hello again") },
      snapshot([...old, msg("s1", "compactionSummary", "summary")]),
      { type: "chat/streaming", streaming: false },
    ]),
    [],
  );
});

test("a reply streamed without a stored replacement is announced when streaming stops, with its last text", () => {
  const a = new ChatAnnouncer();
  const said = feed(a, [
    snapshot([]),
    { type: "chat/streaming", streaming: true },
    { type: "chat/message", message: msg("t1", "assistant", "par") },
    { type: "chat/message", message: msg("t1", "assistant", "partial answer") },
  ]);
  assert.deepEqual(said, []);
  assert.deepEqual(a.onHost({ type: "chat/streaming", streaming: false }), ["Assistant replied: partial answer"]);
  // Its stored copy arriving late is not announced a second time.
  assert.deepEqual(
    a.onHost({ type: "chat/message", message: msg("e1", "assistant", "partial answer"), replaces: "t1" }),
    [],
  );
  assert.deepEqual(a.onHost({ type: "chat/streaming", streaming: false }), []);
});

test("a reply that grew by text deltas is announced with its whole text; a delta that does not fit is dropped", () => {
  const a = new ChatAnnouncer();
  const said = feed(a, [
    snapshot([]),
    { type: "chat/streaming", streaming: true },
    { type: "chat/message", message: msg("t1", "assistant", "par") },
    { type: "chat/messageText", id: "t1", at: 3, append: "tial" },
    { type: "chat/messageText", id: "t1", at: 99, append: " lost" },
    { type: "chat/messageText", id: "t1", at: 7, append: " answer" },
  ]);
  assert.deepEqual(said, []);
  assert.deepEqual(a.onHost({ type: "chat/streaming", streaming: false }), ["Assistant replied: partial answer"]);
});

test("outside a run, a new reply is announced at once and its replacement is not", () => {
  const a = new ChatAnnouncer();
  assert.deepEqual(feed(a, [snapshot([])]), []);
  assert.deepEqual(a.onHost({ type: "chat/message", message: msg("t1", "assistant", "Done") }), [
    "Assistant replied: Done",
  ]);
  assert.deepEqual(a.onHost({ type: "chat/message", message: msg("e1", "assistant", "Done"), replaces: "t1" }), []);
  // A user message seen only as its stored entry is announced once.
  assert.deepEqual(a.onHost({ type: "chat/message", message: msg("u5", "user", "x") }), ["You said: x"]);
  assert.deepEqual(a.onHost({ type: "chat/message", message: msg("u5", "user", "x") }), []);
});

test("approvals are announced once per tool call; successful tool results not at all", () => {
  const a = new ChatAnnouncer();
  const approval: HostToWebview = { type: "chat/approval", toolCallId: "c1", toolName: "write", summary: "a.txt" };
  assert.deepEqual(feed(a, [snapshot([], true), approval, approval, { type: "chat/approvalDone", toolCallId: "c1" }]), [
    "Approval needed: write wants to run a.txt",
  ]);
  assert.deepEqual(
    a.onHost({ type: "chat/message", message: msg("r1", "toolResult", "ok", { toolCallId: "c1", toolName: "write" }) }),
    [],
  );
});

test("reply texts: markdown marks dropped, long text cut at a word, tool-only and aborted replies", () => {
  assert.equal(
    quote("# Title\n\n- **bold** item\n- `code`\n\n```ts\nconst x = 1;\n```"),
    "Title bold item code const x = 1;",
  );
  const long = quote("word ".repeat(100));
  assert.ok(long.endsWith("…") && long.length <= 151, long);
  assert.ok(!long.includes("wor…"), "cut between words");
  assert.equal(replyText(msg("a", "assistant", "", { toolCalls: [call("1", "read", "")] })), "Assistant called read");
  assert.equal(replyText(msg("a", "assistant", "Half", { stopReason: "aborted" })), "Assistant replied: Half. Aborted");
  assert.equal(replyText(msg("a", "assistant", "", { stopReason: "error" })), "Assistant reply failed");
  assert.equal(
    replyText(msg("a", "assistant", "", { stopReason: "error", errorMessage: "401" })),
    "Assistant reply failed: 401",
  );
  assert.equal(replyText(msg("a", "assistant", "", { stopReason: "aborted" })), "Assistant reply aborted");
  assert.equal(replyText(msg("a", "assistant", "")), "Assistant replied.");
});
