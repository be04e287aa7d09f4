/**
 * Every view of an entry is a projection of its one view (src/core/entries/entry-view.ts): the chat row, the hover
 * and Copy Text, the session search, the compare view's items and the summaries' transcript say the same title and
 * text for the same entry, whatever its kind.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { entryView, messageView, plainText } from "../../src/core/entries/entry-view.js";
import { itemsOfEntry } from "../../src/core/compare/items.js";
import { entrySearchFields } from "../../src/core/search/entry-text.js";
import { isConversationKind } from "../../src/core/session/entry-kinds.js";
import { serializeMessage } from "../../src/core/summary/serialize.js";
import type { AgentMessage } from "../../src/core/messages.js";
import type { SessionEntry } from "../../src/core/session/types.js";
import { entryFullText, entryToChat } from "../../src/host/chat/chat-dto.js";

const TS = "2026-01-05T09:00:04.000Z";

function message(m: Record<string, unknown>): SessionEntry {
  return { type: "message", id: "m", parentId: null, timestamp: TS, message: { timestamp: 1, ...m } } as SessionEntry;
}

const ENTRIES: SessionEntry[] = [
  message({ role: "user", content: "Add a --verbose flag" }),
  message({
    role: "assistant",
    content: [
      { type: "text", text: "Reading the CLI." },
      { type: "toolCall", id: "c1", name: "web_fetch", arguments: { url: "https://example.com/cli" } },
    ],
    provider: "openai",
    model: "gpt",
    stopReason: "error",
    errorMessage: "overloaded",
  }),
  message({ role: "toolResult", toolCallId: "c1", toolName: "web_fetch", content: [{ type: "text", text: "<html>" }] }),
  message({
    role: "bashExecution",
    command: "npm test",
    output: "ok",
    exitCode: 2,
    cancelled: false,
    truncated: false,
  }),
  message({ role: "custom", customType: "lint", content: "3 warnings", display: true }),
  { type: "custom_message", id: "h", parentId: null, timestamp: TS, customType: "lint", content: "hi", display: true },
  { type: "branch_summary", id: "b", parentId: null, timestamp: TS, fromId: "x", summary: "Tried B" },
  {
    type: "compaction",
    id: "c",
    parentId: null,
    timestamp: TS,
    summary: "Older",
    firstKeptEntryId: "x",
    tokensBefore: 9000,
  },
  { type: "model_change", id: "mc", parentId: null, timestamp: TS, provider: "openai", modelId: "gpt" },
  { type: "label", id: "l", parentId: null, timestamp: TS, targetId: "m", label: "bug" },
];

test("the chat, hover, search, compare and summaries say what the entry view says", () => {
  for (const e of ENTRIES) {
    const v = entryView(e);
    const where = `${e.type} ${v.kind}`;
    assert.equal(entryFullText(e), plainText(v), where);
    const chat = entryToChat(e);
    if (chat)
      assert.deepEqual([chat.title, chat.icon, chat.text, chat.failure], [v.title, v.icon, v.text, v.failure], where);
    const items = itemsOfEntry(e);
    if (isConversationKind(v.kind) || v.kind === "model_change") assert.equal(items[0]?.item.kind, v.kind, where);
    else assert.deepEqual(items, [], where);
    const search = entrySearchFields(e);
    if (isConversationKind(v.kind)) assert.ok(search?.text.startsWith(v.text) && search.kind === v.kind, where);
    else assert.equal(search, undefined, where);
    if (e.type === "message") {
      const line = serializeMessage(e.message as AgentMessage);
      assert.ok(line.startsWith(`[${messageView(e.message).title}`), `${where}: ${line}`);
    }
  }
});

test("the words the projections share, as they read", () => {
  const [, reply, result, bash, hook] = ENTRIES;
  const chat = entryToChat(reply)!;
  assert.deepEqual(
    chat.toolCalls?.map((c) => [c.label, c.hint]),
    [["web_fetch", "https://example.com/cli"]],
  );
  assert.equal(chat.failure, "Error: overloaded");
  assert.equal(itemsOfEntry(reply)[0].item.text, "Reading the CLI.\n\n[Error: overloaded]");
  assert.equal(
    serializeMessage((reply as { message: AgentMessage }).message)
      .split("\n")
      .pop(),
    "[Assistant]: Error: overloaded",
  );
  assert.equal(serializeMessage((result as { message: AgentMessage }).message), "[Tool result: web_fetch]: <html>");
  assert.equal(entryToChat(bash)?.text, "$ npm test\nok\n(exit code 2)");
  assert.equal(itemsOfEntry(bash)[0].item.title, "$ npm test");
  assert.equal(
    serializeMessage((bash as { message: AgentMessage }).message),
    "[Bash command (error)]: $ npm test\nok\n(exit code 2)",
  );
  assert.equal(serializeMessage((hook as { message: AgentMessage }).message), "[Hook message: lint]: 3 warnings");
  assert.deepEqual([entryToChat(hook)?.title, entryToChat(hook)?.facts], ["Hook message", ["lint"]]);
  assert.equal(entryFullText(ENTRIES[8]), "Model: openai/gpt");
});
