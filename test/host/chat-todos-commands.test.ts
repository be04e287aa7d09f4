/**
 * The chat's todo checklist and the commands the user types, through the host: the snapshot carries the path's todo
 * list (a branch switch shows that branch's), a stored todo call updates it, a streamed one does not; a `!command`
 * shows its output while it runs, then its stored entry, and the chat offers Abort meanwhile.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { emptyUsage, type AssistantMessage } from "../../src/core/messages.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import type { TodoItem } from "../../src/core/tools/todo-list.js";
import { ChatSync } from "../../src/host/chat/chat-sync.js";
import type { HostToWebview } from "../../src/shared/protocol.js";
import { ChatModel } from "../../webview/chat/chat-model.js";
import { toolResult, user } from "../util/session-builder.js";
import { createHarness, ofType } from "./controller-harness.js";

function todoCall(id: string, todos: TodoItem[], text = ""): AssistantMessage {
  return {
    role: "assistant",
    content: [
      ...(text ? [{ type: "text" as const, text }] : []),
      { type: "toolCall", id, name: "todo", arguments: { todos } },
    ],
    provider: "fake",
    model: "m",
    usage: emptyUsage(),
    stopReason: "toolUse",
    timestamp: 2,
  };
}

const A: TodoItem[] = [
  { content: "Write the loader", status: "completed" },
  { content: "Test it", status: "in_progress" },
];
const B: TodoItem[] = [{ content: "Try YAML", status: "pending" }];

describe("the chat's todo list", () => {
  test("the snapshot holds the path's list: a branch switch shows that branch's, a path without one none", async () => {
    const sm = SessionManager.inMemory("/w");
    const u1 = sm.appendMessage(user("start"));
    sm.appendMessage(todoCall("c1", A, "Planning."));
    const tipA = sm.appendMessage(toolResult("1/2 completed.", "todo", "c1"));
    sm.branch(u1);
    sm.appendMessage(todoCall("c2", B));
    sm.appendMessage(toolResult("0/1 completed.", "todo", "c2"));
    const h = createHarness();
    await h.controller.attach(sm);
    const view = new ChatModel();
    const snapshots = () => ofType(h.chat, "chat/snapshot");
    for (const m of h.chat) view.apply(m);
    assert.deepEqual(snapshots().at(-1)?.todos, B);
    assert.deepEqual(view.todos, B);

    sm.branch(tipA);
    h.controller.pushChat();
    assert.deepEqual(snapshots().at(-1)?.todos, A, "branch A's list");
    view.apply(snapshots().at(-1) as HostToWebview);
    assert.deepEqual(view.todos, A);

    sm.branch(u1);
    h.controller.pushChat();
    assert.equal(snapshots().at(-1)?.todos, undefined, "no todo call on this path");
    view.apply(snapshots().at(-1) as HostToWebview);
    assert.equal(view.todos, undefined);
    await h.controller.close();
  });

  test("a stored todo call updates the list; a streamed one (half a list, maybe) does not", () => {
    const posts: HostToWebview[] = [];
    const sync = new ChatSync((m) => posts.push(m), { onSettled: () => undefined, onStreaming: () => undefined }, 0);
    const view = new ChatModel();
    sync.handle({ type: "agent_start" });
    sync.handle({ type: "message_start", message: todoCall("c1", []) });
    sync.handle({ type: "message_update", message: todoCall("c1", [A[0]]) });
    sync.dispose();
    const streamed = ofType(posts, "chat/message").at(-1);
    assert.equal(streamed?.message.todos, undefined, "a streaming message carries no list");
    sync.handle({ type: "message_end", message: todoCall("c1", A), entryId: "a1" });
    for (const m of posts) view.apply(m);
    assert.deepEqual(view.todos, A);
  });
});

describe("a command the user types", () => {
  test("ChatSync: its output while it runs, then the stored entry in its place; streaming meanwhile", () => {
    const posts: HostToWebview[] = [];
    const seen: string[] = [];
    const sync = new ChatSync(
      (m) => posts.push(m),
      { onSettled: () => seen.push("settled"), onStreaming: (s) => seen.push(`streaming:${s}`) },
      0,
    );
    const message = {
      role: "bashExecution" as const,
      command: "npm test",
      output: "ok",
      exitCode: 0,
      cancelled: false,
      truncated: false,
      timestamp: 5,
      excludeFromContext: true,
    };
    sync.handle({ type: "bash_execution_start", command: "npm test", excludeFromContext: true });
    sync.handle({ type: "bash_execution_update", command: "npm test", output: "running…" });
    sync.handle({ type: "bash_execution_end", message });
    sync.handle({ type: "message_end", message, entryId: "b1" });
    const shown = posts.flatMap((p) =>
      p.type === "chat/message"
        ? [
            `${p.message.id}${p.replaces ? "<" + p.replaces : ""}:${p.message.text}${p.message.running ? " [running]" : ""}${p.message.excludedFromContext ? " [!!]" : ""}`,
          ]
        : p.type === "chat/messageText"
          ? [`${p.id}+${p.append}`]
          : [],
    );
    assert.deepEqual(shown, [
      "pending-1:$ npm test\n [running] [!!]",
      // Only the output added since: the rest of the row is as it was.
      "pending-1+running…",
      "pending-1:$ npm test\nok [!!]",
      "b1<pending-1:$ npm test\nok [!!]",
    ]);
    assert.deepEqual(seen, ["streaming:true", "streaming:false", "settled"]);
  });

  test("the controller runs it in the workspace and records it; the snapshot says the chat is idle again", async () => {
    const sm = SessionManager.inMemory(process.cwd());
    const h = createHarness();
    await h.controller.attach(sm);
    const running = h.controller.runUserCommand({ command: "echo hi; sleep 0.2", excludeFromContext: false });
    await running;
    const entries = sm.getEntries();
    assert.equal(entries.length, 1);
    const e = entries[0];
    assert.ok(e.type === "message" && e.message.role === "bashExecution");
    assert.equal(e.message.output, "hi");
    const messages = ofType(h.chat, "chat/message");
    assert.equal(messages.at(-1)?.message.id, e.id);
    assert.equal(messages.at(-1)?.message.text, "$ echo hi; sleep 0.2\nhi");
    assert.deepEqual(
      ofType(h.chat, "chat/streaming").map((p) => p.streaming),
      [true, false],
    );
    const last = ofType(h.chat, "chat/snapshot").at(-1);
    assert.equal(last?.streaming, false);
    assert.deepEqual(
      last?.messages.map((m) => m.id),
      [e.id],
    );
    await h.controller.close();
  });

  test("a read-only session refuses it with the reason, and nothing runs", async () => {
    const sm = SessionManager.inMemory(process.cwd());
    const h = createHarness();
    await h.controller.attach(sm, "locked");
    Object.defineProperty(sm, "isReadOnly", { value: () => true });
    await assert.rejects(
      h.controller.runUserCommand({ command: "echo hi", excludeFromContext: false }),
      /read-only|another/i,
    );
    assert.equal(ofType(h.chat, "chat/streaming").length, 0);
    await h.controller.close();
  });
});
