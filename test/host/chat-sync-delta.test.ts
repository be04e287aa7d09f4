/**
 * A streamed reply's updates that only add text cross the channel as the added text (`chat/messageText`): through
 * the real ChatSync and the webview's own ChatModel, the chat holds exactly the streamed text after every update,
 * the whole message goes again when anything else changed or the view was sent a snapshot, and a delta that does not
 * fit what the chat holds is refused with a clear reason and loses nothing.
 */
import assert from "node:assert/strict";
import { test, type TestContext } from "node:test";
import fc from "fast-check";
import type { AgentEvent } from "../../src/core/agent/events.js";
import { emptyUsage, type AssistantMessage } from "../../src/core/messages.js";
import { ChatSync } from "../../src/host/chat/chat-sync.js";
import { chatTextDeltaProblem, type ChatMessageDto, type HostToWebview } from "../../src/shared/protocol.js";
import { ChatModel } from "../../webview/chat/chat-model.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { startFakeOpenAI } from "../util/fake-openai-server.js";
import { createHarness, tick } from "./controller-harness.js";

const reply = (text: string, thinking?: string): AssistantMessage => ({
  role: "assistant",
  content: [...(thinking !== undefined ? [{ type: "thinking" as const, thinking }] : []), { type: "text", text }],
  provider: "openai",
  model: "m",
  usage: emptyUsage(),
  stopReason: "stop",
  timestamp: 1,
});

/** A ChatSync whose posts go to a ChatModel; `flush` lets the 50 ms throttle's window pass. */
function wired(t: TestContext): { sync: ChatSync; model: ChatModel; posts: HostToWebview[]; flush(): void } {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const model = new ChatModel();
  model.apply({
    type: "chat/snapshot",
    start: 0,
    keep: false,
    messages: [],
    streaming: true,
    usage: { input: 0, output: 0, cost: 0, contextTokens: 0, contextWindow: 0 },
  });
  const posts: HostToWebview[] = [];
  const sync = new ChatSync(
    (m) => {
      // What the channel does to a message: JSON there and back.
      const copy = JSON.parse(JSON.stringify(m)) as HostToWebview;
      posts.push(copy);
      model.apply(copy);
    },
    { onSettled() {}, onStreaming() {} },
  );
  return { sync, model, posts, flush: () => t.mock.timers.tick(50) };
}

const shownText = (model: ChatModel): string | undefined => model.messages.find((m) => m.role === "assistant")?.text;

test("chunks of any size: the chat holds the streamed text after every update, sent once whole and then as deltas", (t) => {
  fc.assert(
    fc.property(fc.array(fc.string({ unit: "grapheme", maxLength: 40 }), { minLength: 1, maxLength: 40 }), (chunks) => {
      const { sync, model, posts, flush } = wired(t);
      try {
        sync.handle({ type: "agent_start" });
        sync.handle({ type: "message_start", message: reply("") });
        let text = "";
        for (const chunk of chunks) {
          text += chunk;
          sync.handle({ type: "message_update", message: reply(text) });
          flush();
          assert.equal(shownText(model), text);
        }
        const streamed = posts.filter((p) => p.type === "chat/message" || p.type === "chat/messageText");
        assert.equal(streamed[0]?.type, "chat/message");
        assert.ok(
          streamed.slice(1).every((p) => p.type === "chat/messageText"),
          "every later update is a delta",
        );
        const sent = streamed.reduce((n, p) => n + (p.type === "chat/messageText" ? p.append.length : 0), 0);
        assert.equal(sent, text.length, "each character crosses once");
        assert.equal(model.refusedDeltas, 0);
      } finally {
        sync.dispose();
        t.mock.timers.reset();
      }
    }),
    { numRuns: 100, seed: 39 },
  );
});

test("thinking grows by deltas too; any other change (rewritten text, a tool call) sends the whole message", (t) => {
  const { sync, model, posts, flush } = wired(t);
  const step = (m: AssistantMessage): string[] => {
    const before = posts.length;
    sync.handle({ type: "message_update", message: m });
    flush();
    return posts.slice(before).map((p) => (p.type === "chat/messageText" ? `+${p.field ?? "text"}` : p.type));
  };
  sync.handle({ type: "message_start", message: reply("") });
  assert.deepEqual(step(reply("Hello")), ["+text"]);
  assert.deepEqual(step(reply("Help")), ["chat/message"], "text that does not continue the shown one");
  assert.deepEqual(step(reply("Help", "hmm")), ["+thinking"], "thinking appeared");
  assert.deepEqual(step(reply("Help me", "hmm, yes")), ["+thinking", "+text"]);
  const counted = { ...reply("Help me!", "hmm, yes"), usage: { ...emptyUsage(), output: 40 } };
  assert.deepEqual(step(counted), ["+text"], "usage reported with a chunk (the view shows the path's)");
  const withCall: AssistantMessage = {
    ...reply("Help me!", "hmm, yes"),
    content: [...reply("Help me!", "hmm, yes").content, { type: "toolCall", id: "c1", name: "read", arguments: {} }],
  };
  assert.deepEqual(step(withCall), ["chat/message"], "a tool call appeared");
  assert.equal(shownText(model), "Help me!");
  assert.equal(model.messages.at(-1)?.thinking, "hmm, yes");
  assert.equal(model.refusedDeltas, 0);
  sync.dispose();
});

test("after the view was sent a snapshot (which drops the streamed reply) the next update goes whole", (t) => {
  const { sync, model, posts, flush } = wired(t);
  sync.handle({ type: "message_start", message: reply("") });
  sync.handle({ type: "message_update", message: reply("One") });
  flush();
  model.apply({ type: "chat/snapshot", start: 0, keep: true, messages: [], streaming: true, usage: model.usage });
  sync.resendStreamed();
  sync.handle({ type: "message_update", message: reply("One two") });
  flush();
  assert.equal(posts.at(-1)?.type, "chat/message");
  assert.equal(shownText(model), "One two");
  assert.equal(model.refusedDeltas, 0);
  sync.dispose();
});

test("a command's output grows as deltas while it is whole, and goes whole once its tail is cut", (t) => {
  const { sync, model, posts, flush } = wired(t);
  const events: AgentEvent[] = [
    { type: "bash_execution_start", command: "make", excludeFromContext: false },
    { type: "bash_execution_update", command: "make", output: "line 1" },
    { type: "bash_execution_update", command: "make", output: "line 1\nline 2" },
    { type: "bash_execution_update", command: "make", output: "[Output truncated: …]\nline 2\nline 3" },
  ];
  for (const e of events) {
    sync.handle(e);
    flush();
  }
  assert.deepEqual(
    posts.filter((p) => p.type.startsWith("chat/message")).map((p) => p.type),
    ["chat/message", "chat/messageText", "chat/messageText", "chat/message"],
  );
  assert.equal(model.messages.at(-1)?.text.endsWith("line 3"), true);
  sync.dispose();
});

test("a delta that does not fit what the chat holds is refused with its reason, and the message stays as it was", (t) => {
  const { sync, model, flush } = wired(t);
  sync.handle({ type: "message_start", message: reply("") });
  sync.handle({ type: "message_update", message: reply("Kept") });
  flush();
  const id = (model.messages.at(-1) as ChatMessageDto).id;
  const errors: string[] = [];
  t.mock.method(console, "error", (s: string) => errors.push(s));
  const bad: unknown[] = [
    { type: "chat/messageText", id: "nobody", at: 0, append: "x" },
    { type: "chat/messageText", id, at: 2, append: "x" },
    { type: "chat/messageText", id, at: 9, append: "x" },
    { type: "chat/messageText", id, at: 4, append: 7 },
    { type: "chat/messageText", id, at: -1, append: "x" },
    { type: "chat/messageText", id, field: "usage", at: 0, append: "x" },
    { type: "chat/messageText", id, field: "thinking", at: 1, append: "x" },
    { type: "chat/messageText", at: 4, append: "x" },
  ];
  for (const b of bad) model.apply(b as HostToWebview);
  assert.equal(shownText(model), "Kept");
  assert.equal(model.refusedDeltas, bad.length);
  assert.deepEqual(errors, [
    "Agent Tree: refused chat/messageText for nobody: the chat holds no such message",
    `Agent Tree: refused chat/messageText for ${id}: it continues 2 characters of text, the chat holds 4`,
    `Agent Tree: refused chat/messageText for ${id}: it continues 9 characters of text, the chat holds 4`,
    `Agent Tree: refused chat/messageText for ${id}: \`append\` is not text`,
    `Agent Tree: refused chat/messageText for ${id}: \`at\` is not a character offset`,
    `Agent Tree: refused chat/messageText for ${id}: \`field\` "usage" is neither the text nor the thinking`,
    `Agent Tree: refused chat/messageText for ${id}: it continues 1 characters of thinking, the chat holds 0`,
    "Agent Tree: refused chat/messageText without a message id",
  ]);
  // The next whole message (here the stored entry) puts it right.
  sync.handle({ type: "message_end", message: reply("Kept and done"), entryId: "a1" });
  assert.equal(shownText(model), "Kept and done");
  assert.equal(
    chatTextDeltaProblem(model.messages.at(-1), { type: "chat/messageText", id: "a1", at: 13, append: "" }),
    undefined,
  );
  sync.dispose();
});

test("a chat view reloaded while a reply streams (a snapshot) gets the reply whole again, then its deltas", async () => {
  const fake = await startFakeOpenAI();
  try {
    const text = Array.from({ length: 30 }, (_, i) => `Word${i}`).join(" ");
    fake.enqueue({ text, chunks: 30, chunkDelayMs: 25 });
    const h = createHarness({ fakeBaseURL: fake.baseURL });
    await h.controller.attach(SessionManager.inMemory("/tmp"));
    const run = h.controller.agent!.prompt("go");
    // Reload once the view got a delta of the reply (bounded: the reply takes about 750 ms).
    for (let i = 0; i < 200 && !h.chat.some((m) => m.type === "chat/messageText"); i++)
      await new Promise((ok) => setTimeout(ok, 10));
    const reloadAt = h.chat.length;
    assert.ok(reloadAt > 0 && h.chat.some((m) => m.type === "chat/messageText"), "a delta was sent before the reload");
    h.controller.chatViewLoaded();
    await run;
    await tick();
    const after = h.chat.slice(reloadAt).filter((m) => m.type === "chat/message" || m.type === "chat/messageText");
    assert.equal(after[0]?.type, "chat/message", "the first update after the snapshot is whole");
    // The view as the webview builds it from every post, reload included: nothing refused, the reply whole.
    const model = new ChatModel();
    for (const m of h.chat) model.apply(JSON.parse(JSON.stringify(m)) as HostToWebview);
    assert.equal(model.refusedDeltas, 0);
    assert.equal(model.messages.at(-1)?.text, text);
    await h.controller.close();
  } finally {
    await fake.close();
  }
});
