import { test } from "node:test";
import assert from "node:assert/strict";
import { emptyUsage, type AssistantMessage } from "../../src/core/messages.js";
import { ChatSync } from "../../src/host/chat/chat-sync.js";
import type { HostToWebview } from "../../src/shared/protocol.js";

const reply = (text: string): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  provider: "openai",
  model: "m",
  usage: emptyUsage(),
  stopReason: "stop",
  timestamp: 1,
});

test("a turn streams under temporary ids that the stored entries replace", () => {
  const posts: HostToWebview[] = [];
  const seen: string[] = [];
  const sync = new ChatSync(
    (m) => posts.push(m),
    {
      onSettled: () => seen.push("settled"),
      onStreaming: (s) => seen.push(`streaming:${s}`),
    },
    60_000,
  );
  const user = { role: "user" as const, content: "hi", timestamp: 1 };
  sync.handle({ type: "agent_start" });
  sync.handle({ type: "message_start", message: user });
  sync.handle({ type: "message_end", message: user, entryId: "u1" });
  sync.handle({ type: "message_start", message: reply("") });
  sync.handle({ type: "message_update", message: reply("Hel") });
  sync.handle({ type: "message_update", message: reply("Hello") });
  sync.handle({ type: "message_end", message: reply("Hello!"), entryId: "a1" });
  sync.handle({ type: "agent_end", messages: [] });
  sync.dispose();

  const summary = posts.map((p) =>
    p.type === "chat/message" ? `${p.message.id}${p.replaces ? "<" + p.replaces : ""}:${p.message.text}` : p.type,
  );
  assert.deepEqual(summary, [
    "chat/streaming",
    "pending-1:hi",
    "u1<pending-1:hi",
    "pending-2:",
    "a1<pending-2:Hello!",
    "chat/streaming",
  ]);
  assert.deepEqual(seen, ["streaming:true", "streaming:false", "settled"]);
});

test("pending streaming text is flushed before the run ends without a stored reply", () => {
  const posts: HostToWebview[] = [];
  const sync = new ChatSync((m) => posts.push(m), { onSettled() {}, onStreaming() {} }, 60_000);
  sync.handle({ type: "message_update", message: reply("partial") });
  sync.handle({ type: "agent_end", messages: [] });
  const texts = posts.flatMap((p) => (p.type === "chat/message" ? [p.message.text] : []));
  assert.deepEqual(texts, ["partial"]);
});

test("errors, retries and compactions become status lines", () => {
  const posts: HostToWebview[] = [];
  let settled = 0;
  const sync = new ChatSync((m) => posts.push(m), { onSettled: () => settled++, onStreaming() {} });
  sync.handle({ type: "error", error: "401 Unauthorized", source: "model" });
  sync.handle({ type: "retry", attempt: 2, delayMs: 1500, error: "429" });
  sync.handle({ type: "compaction_end", error: "too small" });
  assert.deepEqual(
    posts.map((p) => (p.type === "status" ? `${p.kind}:${p.text}` : p.type)),
    ["error:401 Unauthorized", "info:Retrying in 2 s (attempt 2): 429", "error:Compaction failed: too small"],
  );
  assert.equal(settled, 1);
});

test("a model failure's status line is cleared when the next run starts (the failed reply's row stays)", () => {
  const posts: HostToWebview[] = [];
  const sync = new ChatSync((m) => posts.push(m), { onSettled() {}, onStreaming() {} }, 60_000);
  sync.handle({ type: "agent_start" });
  sync.handle({ type: "error", error: "Connection lost mid-reply", source: "model" });
  sync.handle({ type: "agent_end", messages: [] });
  sync.handle({ type: "agent_start" });
  sync.handle({ type: "agent_end", messages: [] });
  sync.handle({ type: "agent_start" });
  assert.deepEqual(
    posts.flatMap((p) => (p.type === "status" ? [`${p.kind}:${p.text}`] : [])),
    ["error:Connection lost mid-reply", "info:"],
    "one clearing line, for the one error",
  );
});

test("the user's message shows when submitted; the system prompt recorded before it is no row", () => {
  const posts: HostToWebview[] = [];
  const sync = new ChatSync((m) => posts.push(m), { onSettled() {}, onStreaming() {} }, 60_000);
  const user = { role: "user" as const, content: "hi", timestamp: 1 };
  const system = { role: "system" as const, content: "", sections: { preamble: "You help." }, timestamp: 1 };
  // AgentSession's order: the user's message starts, the prompt's patch is recorded, then the user's message.
  sync.handle({ type: "message_start", message: user });
  sync.handle({ type: "message_start", message: system });
  sync.handle({ type: "message_end", message: system, entryId: "s1" });
  sync.handle({ type: "message_end", message: user, entryId: "u1" });
  sync.dispose();
  const summary = posts.map((p) =>
    p.type === "chat/message" ? `${p.message.id}${p.replaces ? "<" + p.replaces : ""}:${p.message.text}` : p.type,
  );
  assert.deepEqual(summary, ["pending-1:hi", "u1<pending-1:hi"]);
});
