/**
 * The chat input's text and mentions from the host have one owner (src/host/chat-input/chat-input-handoff.ts): a
 * ready chat gets them at once; a chat that is not ready gets, when it says `ready`, the last text and the mentions
 * added after it — state, not a queue of messages.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ChatInputHandoff, MAX_HELD_MENTIONS } from "../../src/host/chat-input/chat-input-handoff.js";
import type { HostToWebview, MentionDto } from "../../src/shared/protocol.js";

/** A chat view that drops what it is posted while not ready (as AgentWebviewView does). */
function chatView(): {
  isReady: boolean;
  got: HostToWebview[];
  focused: number;
  post(msg: HostToWebview): void;
  focus(): void;
} {
  const view = {
    isReady: false,
    got: [] as HostToWebview[],
    focused: 0,
    post(msg: HostToWebview): void {
      if (view.isReady) view.got.push(msg);
    },
    focus(): void {
      view.focused++;
    },
  };
  return view;
}

const mention = (path: string): MentionDto => ({ label: `@${path}`, path, root: "/w" });

test("a chat that is not ready gets the last text, then the mentions added after it, once it says ready", () => {
  const view = chatView();
  const input = new ChatInputHandoff(view);
  input.setText("an older text");
  input.addMention(mention("gone.ts"));
  input.setText("the fork's user message");
  input.addMention(mention("a.ts"));
  input.addMention(mention("b.ts"));
  assert.deepEqual(view.got, []);
  view.isReady = true;
  input.viewReady();
  assert.deepEqual(view.got, [
    { type: "chat/setInput", text: "the fork's user message" },
    { type: "chat/addMention", mention: mention("a.ts") },
    { type: "chat/addMention", mention: mention("b.ts") },
  ]);
  view.got.length = 0;
  input.viewReady();
  assert.deepEqual(view.got, [], "given once: a later reload of the view does not put it back");
});

test("a ready chat gets text and mentions at once, and nothing is held for its next ready", () => {
  const view = chatView();
  view.isReady = true;
  const input = new ChatInputHandoff(view);
  input.addMention(mention("a.ts"));
  input.setText("hello");
  assert.deepEqual(view.got, [
    { type: "chat/addMention", mention: mention("a.ts") },
    { type: "chat/setInput", text: "hello" },
  ]);
  view.got.length = 0;
  input.viewReady();
  assert.deepEqual(view.got, []);
});

test("text given while ready replaces what was held from before", () => {
  const view = chatView();
  const input = new ChatInputHandoff(view);
  input.setText("held");
  input.addMention(mention("held.ts"));
  view.isReady = true;
  input.setText("newer");
  input.viewReady();
  assert.deepEqual(view.got, [{ type: "chat/setInput", text: "newer" }]);
});

test("held mentions are bounded", () => {
  const view = chatView();
  const input = new ChatInputHandoff(view);
  for (let i = 0; i < MAX_HELD_MENTIONS + 20; i++) input.addMention(mention(`f${i}.ts`));
  view.isReady = true;
  input.viewReady();
  assert.equal(view.got.length, MAX_HELD_MENTIONS);
  assert.deepEqual(view.got[0], { type: "chat/addMention", mention: mention("f0.ts") });
});

test("text put into the input (a user message selected in the tree, a fork) brings the focus to the chat view", () => {
  const view = chatView();
  view.isReady = true;
  const input = new ChatInputHandoff(view);
  input.setText("edit me and send again");
  assert.equal(view.focused, 1, "the workbench focus goes to the chat view, whose box takes it");
  input.addMention(mention("a.ts"));
  assert.equal(view.focused, 1, "a mention leaves the focus where it is");
});
