/**
 * The chat's window of the path (src/host/chat/chat-path.ts) against a real SessionManager, and, through the
 * webview's own ChatModel, the protocol round trip: whatever the moves, pages and reloads, the chat holds a
 * contiguous run of the path's messages ending at the leaf.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { emptyUsage, type AgentMessage, type AssistantMessage } from "../../src/core/messages.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { isChatEntry, MAX_ENTRY_TEXT } from "../../src/host/chat/chat-dto.js";
import { CHAT_WINDOW, ChatPath, type ChatPathSource, type ChatWindowLimits } from "../../src/host/chat/chat-path.js";
import type { HostToWebview } from "../../src/shared/protocol.js";
import { ChatModel } from "../../webview/chat/chat-model.js";
import { createHarness, ofType } from "./controller-harness.js";

/** A tool output as big as the ones that made the chat slow (10 KB). */
const OUTPUT = "line of tool output\n".repeat(512);

function reply(n: number): AssistantMessage {
  return {
    role: "assistant",
    content: [
      { type: "text", text: `step ${n}` },
      { type: "toolCall", id: `call-${n}`, name: "read", arguments: { path: `f${n}.ts` } },
    ],
    provider: "fake",
    model: "m",
    usage: { ...emptyUsage(), input: 100, output: 10, totalTokens: 110 + n },
    stopReason: "toolUse",
    timestamp: n,
  };
}

/** Appends `count` messages: user, assistant with a tool call, its 10 KB result, and so on. Returns their ids. */
function appendTurns(sm: SessionManager, count: number): string[] {
  const ids: string[] = [];
  for (let n = 0; ids.length < count; n++) {
    const turn: AgentMessage[] = [
      { role: "user", content: `question ${n}`, timestamp: n },
      reply(n),
      {
        role: "toolResult",
        toolCallId: `call-${n}`,
        toolName: "read",
        content: [{ type: "text", text: OUTPUT }],
        isError: false,
        timestamp: n,
      },
    ];
    for (const m of turn) if (ids.length < count) ids.push(sm.appendMessage(m));
  }
  return ids;
}

/** The session as ChatPath reads it, counting the bodies read. */
function counted(sm: SessionManager): ChatPathSource & { bodies: number } {
  const source = {
    bodies: 0,
    getPathEnvelopes: () => sm.getPathEnvelopes(),
    getEntry: (id: string) => {
      source.bodies++;
      return sm.getEntry(id);
    },
    getUsage: (id: string) => sm.getUsage(id),
  };
  return source;
}

/** Ids of the chat messages of the current path. */
function chatIds(sm: SessionManager): string[] {
  return sm
    .getPathEnvelopes()
    .filter(isChatEntry)
    .map((e) => e.id);
}

describe("chat window", () => {
  test("a 2,000-message path opens with the newest messages only, bounded in count and bytes", () => {
    const sm = SessionManager.inMemory("/tmp");
    const ids = appendTurns(sm, 2000);
    const source = counted(sm);
    const update = new ChatPath(source).update();
    assert.equal(update.keep, false);
    assert.equal(update.start + update.messages.length, 2000, "the window ends at the leaf");
    assert.deepEqual(
      update.messages.map((m) => m.id),
      ids.slice(update.start),
    );
    assert.ok(update.messages.length <= CHAT_WINDOW.messages, `${update.messages.length} messages`);
    const bytes = JSON.stringify(update.messages).length;
    assert.ok(bytes <= CHAT_WINDOW.bytes * 1.2, `${bytes} bytes posted`);
    assert.ok(update.messages.length >= 10, "still a useful window");
    // Bodies are read for the window (and the one message that did not fit), not for the whole path.
    assert.ok(source.bodies <= update.messages.length + 1, `${source.bodies} bodies read`);
    // The usage line still covers every reply on the path (from the store's index).
    assert.equal(update.usage.length, Math.ceil(2000 / 3));
    assert.equal(update.usage.at(-1)?.usage.totalTokens, 110 + Math.ceil(2000 / 3) - 1);
  });

  test("after the first update, a move or an append reads the entries it changed, not the whole path", () => {
    const sm = SessionManager.inMemory("/tmp");
    const ids = appendTurns(sm, 3000);
    const asked = { wholePaths: 0, envelopes: 0 };
    const source: ChatPathSource = {
      getPathEnvelopes: () => {
        asked.wholePaths++;
        return sm.getPathEnvelopes();
      },
      getPathChange: (fromId) => {
        const change = sm.getPathChange(fromId);
        asked.envelopes += change?.tail.length ?? 0;
        return change;
      },
      getEntry: (id) => sm.getEntry(id),
      getUsage: (id) => sm.getUsage(id),
      newestOnPath: (test, fromId) => sm.newestOnPath(test, fromId),
    };
    const path = new ChatPath(source);
    path.update();
    assert.equal(asked.envelopes, 3000, "the first update reads the path once");
    for (const [to, tail] of [
      [ids[2990], 0],
      [ids[2996], 6],
    ] as const) {
      asked.envelopes = 0;
      sm.branch(to);
      const update = path.update();
      assert.equal(update.keep, true);
      assert.equal(asked.envelopes, tail, `a move to ${to} reads the entries after the fork`);
    }
    asked.envelopes = 0;
    const appended = appendTurns(sm, 2);
    assert.deepEqual(
      path.update().messages.map((m) => m.id),
      appended,
    );
    assert.equal(asked.envelopes, 2, "an append reads the new entries");
    assert.equal(asked.wholePaths, 0, "no update asked for the whole path's envelopes");
    // What it keeps adds up to what a fresh read of the path gives.
    assert.deepEqual(path.update().usage, new ChatPath(sm).update().usage);
  });

  test("a source that cannot say how its path changed is followed by its whole path", () => {
    const sm = SessionManager.inMemory("/tmp");
    const ids = appendTurns(sm, 30);
    const path = new ChatPath({
      getPathEnvelopes: () => sm.getPathEnvelopes(),
      getPathChange: () => undefined,
      getEntry: (id) => sm.getEntry(id),
      getUsage: (id) => sm.getUsage(id),
    });
    assert.deepEqual(
      path.update().messages.map((m) => m.id),
      ids,
    );
    sm.branch(ids[20]);
    // Read from the root again (sent again, too): what the view holds from `start` on is the new path's.
    const moved = path.update();
    assert.deepEqual(
      moved.messages.map((m) => m.id),
      ids.slice(moved.start, 21),
    );
  });

  test("the controller posts that bounded window and the usage of the whole path", async () => {
    const sm = SessionManager.inMemory("/tmp");
    appendTurns(sm, 2000);
    const h = createHarness();
    await h.controller.attach(sm);
    const [snap] = ofType(h.chat, "chat/snapshot");
    assert.ok(snap.messages.length <= CHAT_WINDOW.messages);
    assert.ok(JSON.stringify(snap).length <= CHAT_WINDOW.bytes * 1.2, `${JSON.stringify(snap).length} bytes`);
    const replies = Math.ceil(2000 / 3);
    assert.equal(snap.usage.input, 100 * replies);
    assert.equal(snap.usage.contextTokens, 110 + replies - 1);
    await h.controller.close();
  });

  test("older pages reach the root in order, each bounded; stale requests get nothing", () => {
    const sm = SessionManager.inMemory("/tmp");
    const ids = appendTurns(sm, 700);
    const path = new ChatPath(sm);
    const first = path.update();
    let start = first.start;
    let held = first.messages.map((m) => m.id);
    assert.equal(path.older(start + 1, ids[start + 1]), undefined, "not the first message held");
    assert.equal(path.older(start, ids[0]), undefined, "another message's id");
    let pages = 0;
    while (start > 0) {
      const page = path.older(start, held[0]);
      assert.ok(page, `a page before ${start}`);
      assert.equal(page.start + page.messages.length, start, "the page ends where the chat begins");
      assert.ok(page.messages.length <= CHAT_WINDOW.messages);
      assert.ok(JSON.stringify(page.messages).length <= CHAT_WINDOW.bytes * 1.2);
      held = [...page.messages.map((m) => m.id), ...held];
      start = page.start;
      pages++;
    }
    assert.ok(pages > 1, "the path took several pages");
    assert.deepEqual(held, ids);
    assert.equal(path.older(0, ids[0]), undefined, "nothing before the root");
  });

  test("a move sends only what changed: nothing for an ancestor, the divergent tail for a sibling branch", () => {
    const sm = SessionManager.inMemory("/tmp");
    const ids = appendTurns(sm, 600);
    const path = new ChatPath(sm);
    const opened = path.update();

    // Back to an ancestor a few messages up: the chat keeps what it holds before it, nothing is sent.
    sm.branch(ids[590]);
    const up = path.update();
    assert.deepEqual([up.keep, up.start, up.messages.length], [true, 591, 0]);

    // A new branch from there: the chat keeps the common part, gets the two new messages.
    const b1 = sm.appendMessage({ role: "user", content: "another way", timestamp: 1 });
    const b2 = sm.appendMessage(reply(9999));
    const branch = path.update();
    assert.deepEqual([branch.keep, branch.start, branch.messages.map((m) => m.id)], [true, 591, [b1, b2]]);

    // Back to the old leaf: the divergent tail (from the fork on) is sent, the common part stays.
    sm.branch(ids[599]);
    const back = path.update();
    assert.equal(back.keep, true);
    assert.equal(back.start, 591);
    assert.deepEqual(
      back.messages.map((m) => m.id),
      ids.slice(591),
    );
    assert.ok(back.start >= opened.start, "nothing older than the first window was sent again");
  });

  test("a move far away, or a reloaded chat, gets a fresh window", () => {
    const sm = SessionManager.inMemory("/tmp");
    const ids = appendTurns(sm, 600);
    const path = new ChatPath(sm);
    path.update();
    // Far back along the path: what the chat holds is no longer near the new leaf.
    sm.branch(ids[100]);
    const far = path.update();
    assert.equal(far.keep, false);
    assert.equal(far.start + far.messages.length, 101);
    assert.equal(far.messages.at(-1)?.id, ids[100]);
    // A long new branch from the root side: its tail is more than a window.
    sm.branch(ids[2]);
    const fresh = appendTurns(sm, 200);
    const long = path.update();
    assert.equal(long.keep, false);
    assert.equal(long.messages.at(-1)?.id, fresh.at(-1));
    // The chat view reloaded: it holds nothing, whatever was sent before.
    path.reset();
    const reloaded = path.update();
    assert.equal(reloaded.keep, false);
    assert.deepEqual(reloaded.messages, long.messages);
  });

  test("message texts are capped; an unreadable entry keeps its place with a note", () => {
    const sm = SessionManager.inMemory("/tmp");
    sm.appendMessage({ role: "user", content: "x".repeat(MAX_ENTRY_TEXT + 500), timestamp: 1 });
    const broken = sm.appendMessage({ role: "user", content: "fine", timestamp: 2 });
    const source: ChatPathSource = {
      getPathEnvelopes: () => sm.getPathEnvelopes(),
      getEntry: (id) => {
        if (id === broken) throw new Error("entry changed on disk");
        return sm.getEntry(id);
      },
      getUsage: (id) => sm.getUsage(id),
    };
    const { messages } = new ChatPath(source).update();
    assert.equal(messages[0].text.length, MAX_ENTRY_TEXT + 2);
    assert.deepEqual(
      [messages[1].id, messages[1].text],
      [broken, "(This entry could not be read: entry changed on disk)"],
    );
  });
});

describe("chat window round trip (host ChatPath ↔ webview ChatModel)", () => {
  /** Small limits, so a few hundred entries take many windows and pages. */
  const LIMITS: ChatWindowLimits = { messages: 6, bytes: 40_000 };

  type Step = { kind: "move"; to: number } | { kind: "page" } | { kind: "append" } | { kind: "reload" };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant("move" as const), to: fc.nat() }),
    fc.constant({ kind: "page" as const }),
    fc.constant({ kind: "page" as const }),
    fc.constant({ kind: "append" as const }),
    fc.constant({ kind: "reload" as const }),
  );

  test("the chat always holds a contiguous run of the path's messages ending at the leaf", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), fc.nat({ max: 3 }), (steps, sizeSeed) => {
        const sm = SessionManager.inMemory("/tmp");
        const ids = appendTurns(sm, 60 + sizeSeed * 40);
        // Side branches, so moves also go across branches.
        sm.branch(ids[20]);
        ids.push(...appendTurns(sm, 30));
        sm.branch(ids[45]);
        ids.push(...appendTurns(sm, 12));
        const path = new ChatPath(sm, LIMITS);
        let model = new ChatModel();
        const apply = (msg: HostToWebview): void => void model.apply(msg);
        const snapshot = (): void => {
          const u = path.update();
          // What a move keeps of the last path (ChatPath.follow) adds up to what a fresh read of the path gives.
          assert.deepEqual(u.usage, new ChatPath(sm, LIMITS).update().usage, "the path's usage records");
          apply({ type: "chat/snapshot", start: u.start, keep: u.keep, messages: u.messages, streaming: false, usage });
        };
        snapshot();
        for (const s of steps) {
          if (s.kind === "move") sm.branch(ids[s.to % ids.length]);
          if (s.kind === "append") ids.push(...appendTurns(sm, 2));
          if (s.kind === "reload") {
            model = new ChatModel();
            path.reset();
          }
          if (s.kind === "page") {
            const request = model.requestOlder();
            if (request) {
              // Nothing is in flight here, so no request is stale: every one gets its page.
              const page = path.older(request.before, request.beforeId);
              assert.ok(page, `a page before ${request.before}`);
              apply({ type: "chat/older", requestId: request.requestId, ...page });
            } else assert.equal(model.start, 0, "a chat that does not start at the root asks for more");
          } else snapshot();
          const expected = chatIds(sm);
          assert.ok(model.start >= 0);
          assert.deepEqual(
            model.messages.map((m) => m.id),
            expected.slice(model.start),
            `after ${s.kind}: the chat holds path[${model.start}…]`,
          );
        }
      }),
      { numRuns: 60 },
    );
  });
});

const usage = { input: 0, output: 0, cost: 0, contextTokens: 0, contextWindow: 0 };
