/**
 * The entry view (src/core/entries/): one wording per kind. A tree row is worded from the fields the store reads out
 * of a line's bytes; every other view from the parsed entry. For any entry — every kind, texts around the preview's
 * length, tool calls of `todo`, `web_fetch` and MCP tools, attachments, failures — the row the store's byte path
 * gives says what the parsed path gives and what the entry's whole view says.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import fc from "fast-check";
import { entryView, messageView, plainText, type EntryView } from "../../../src/core/entries/entry-view.js";
import {
  BRANCH_RUN_TYPE,
  CHECKPOINT_TYPE,
  IMPORT_TYPE,
  customTypeWord,
} from "../../../src/core/entries/custom-types.js";
import { kindSearchWords, kindTitle, kindWord, TOOL_CALL_WORDS } from "../../../src/core/entries/kind-words.js";
import { rowWords, type RowWords } from "../../../src/core/entries/row-words.js";
import { toolCallSummary, toolResultSubject } from "../../../src/core/entries/tool-summary.js";
import { CHECKPOINT_ENTRY_TYPE } from "../../../src/core/checkpoints/session-link.js";
import { IMPORT_CUSTOM_TYPE } from "../../../src/core/import/claude-session.js";
import { attachmentPhrase, composeUserContent } from "../../../src/core/mentions/user-content.js";
import { BRANCH_RUN_TYPE as RUN_LINE_TYPE } from "../../../src/core/parallel/branch-run-lines.js";
import { treeRowOf } from "../../../src/core/rows/tree-row.js";
import { ARCHIVE_MARKER_TYPE, ENTRY_KINDS, isConversationKind } from "../../../src/core/session/entry-kinds.js";
import { collapseWhitespace, envelopeOf, PREVIEW_MAX } from "../../../src/core/session/preview.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { LEAF_MARKER_TYPE, type SessionEntry } from "../../../src/core/session/types.js";
import { todoResultText } from "../../../src/core/tools/todo-list.js";
import { tempDir } from "../../util/temp-dir.js";
import { SEVEN_TODOS } from "../../util/todo-fixtures.js";

const TS = "2026-01-05T09:00:04.000Z";

function entry(type: string, fields: Record<string, unknown>, id = "e1"): SessionEntry {
  return { type, id, parentId: null, timestamp: TS, ...fields } as unknown as SessionEntry;
}

function message(m: Record<string, unknown>, id = "e1"): SessionEntry {
  return entry("message", { message: { timestamp: 1, ...m } }, id);
}

describe("one wording per kind", () => {
  test("every kind has a word, a title, an icon, and search words that hold its word", () => {
    for (const kind of ENTRY_KINDS) {
      assert.ok(kindWord(kind) !== "" && kindTitle(kind) !== "", kind);
      for (const w of kindWord(kind).split(" ")) assert.ok(kindSearchWords(kind).split(" ").includes(w), kind);
    }
  });

  test("messages: titles, facts, text, tool calls and failures", () => {
    const user = entryView(
      message({ role: "user", content: composeUserContent("look at @a.ts", ['<file name="src/a.ts">\nX\n</file>']) }),
    );
    assert.deepEqual(
      [user.title, user.text, user.attachments],
      ["User", "look at @a.ts", [{ kind: "file", name: "src/a.ts" }]],
    );
    assert.equal(attachmentPhrase(user.attachments![0]), "file src/a.ts");

    const reply = entryView(
      message({
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hmm" },
          { type: "text", text: "Checking." },
          { type: "toolCall", id: "c1", name: "todo", arguments: { todos: SEVEN_TODOS } },
          { type: "toolCall", id: "c2", name: "web_fetch", arguments: { url: "https://example.com/a" } },
          { type: "toolCall", id: "c3", name: "mcp__docs__search", arguments: { query: "rust  lifetimes" } },
        ],
        provider: "anthropic",
        model: "claude",
        usage: { input: 12, output: 3 },
        stopReason: "error",
        errorMessage: "rate limited",
      }),
    );
    assert.equal(reply.title, "Assistant");
    assert.deepEqual(reply.facts, ["anthropic/claude", "12 in / 3 out"]);
    assert.deepEqual(
      reply.toolCalls?.map((c) => c.summary),
      ["todo 3/7", "web_fetch https://example.com/a", "docs/search rust lifetimes"],
    );
    assert.deepEqual(
      [reply.text, reply.thinking, reply.failure, reply.isError],
      ["Checking.", "hmm", "Error: rate limited", true],
    );
    assert.equal(entryView(message({ role: "assistant", content: [], stopReason: "aborted" })).failure, "Aborted");

    const todo = entryView(
      message({
        role: "toolResult",
        toolName: "todo",
        toolCallId: "c1",
        content: [{ type: "text", text: todoResultText(SEVEN_TODOS) }],
      }),
    );
    assert.deepEqual([todo.title, todo.subject, todo.facts], ["Tool result", "todo 3/7", ["todo"]]);
    const mcp = entryView(
      message({
        role: "toolResult",
        toolName: "mcp__docs__search",
        toolCallId: "c3",
        isError: true,
        content: [
          { type: "text", text: "no" },
          { type: "image", mimeType: "image/png", data: "AAAA" },
        ],
      }),
    );
    assert.deepEqual(
      [mcp.subject, mcp.text, mcp.isError, mcp.images?.length],
      ["docs/search", "no\n[image image/png]", true, 1],
    );

    const bash = entryView(
      message({
        role: "bashExecution",
        command: "npm test",
        output: "1 failing",
        exitCode: 1,
        cancelled: false,
        excludeFromContext: true,
      }),
    );
    assert.deepEqual(
      [bash.title, bash.subject, bash.text, bash.facts, bash.note, bash.isError],
      [
        "Bash command",
        "$ npm test",
        "$ npm test\n1 failing\n(exit code 1)",
        ["exit code 1"],
        "Not sent to the model (!!)",
        true,
      ],
    );
    const cancelled = entryView(
      message({ role: "bashExecution", command: "sleep 9", output: "", exitCode: null, cancelled: true }),
    );
    assert.deepEqual([cancelled.facts, cancelled.isError], [["cancelled"], undefined]);
  });

  test("summaries, hook messages, bookkeeping, the project's own extension state, unknown entries", () => {
    const said = (e: SessionEntry): [string, string, string[]] => {
      const v = entryView(e);
      return [v.title, v.text, v.facts];
    };
    assert.deepEqual(said(entry("branch_summary", { fromId: "x", summary: "did it" })), [
      "Branch summary",
      "did it",
      [],
    ]);
    assert.deepEqual(said(entry("compaction", { summary: "older", tokensBefore: 12_345, firstKeptEntryId: "x" })), [
      "Compaction summary",
      "older",
      ["12k tokens before"],
    ]);
    assert.deepEqual(said(entry("custom_message", { customType: "lint", content: "3 warnings", display: false })), [
      "Hook message",
      "3 warnings",
      ["lint"],
    ]);
    assert.equal(
      entryView(entry("custom_message", { customType: "lint", content: "", display: false })).note,
      "Hidden from the chat",
    );
    assert.deepEqual(said(entry("label", { targetId: "abc", label: "bug" })), ["Label", "bug", ["on abc"]]);
    assert.deepEqual(said(entry("label", { targetId: "abc" })), ["Label", "(label cleared)", ["on abc"]]);
    assert.deepEqual(said(entry("model_change", { provider: "openai", modelId: "gpt" })), ["Model", "openai/gpt", []]);
    assert.deepEqual(said(entry("thinking_level_change", { thinkingLevel: "high" })), ["Thinking level", "high", []]);
    assert.deepEqual(said(entry("session_info", { name: "Plan" })), ["Session name", "Plan", []]);
    const checkpoint = { version: 1, moment: "after-tools", folders: [{ changed: 2 }, { changed: 1 }] };
    assert.deepEqual(said(entry("custom", { customType: CHECKPOINT_TYPE, data: checkpoint })), [
      "Checkpoint",
      "3 files changed",
      [],
    ]);
    const run = { version: 1, kind: "explore", state: "failed", groupId: "g", error: "quota" };
    assert.deepEqual(said(entry("custom", { customType: BRANCH_RUN_TYPE, data: run })), [
      "Branch run",
      "Explore branch failed: quota",
      [],
    ]);
    assert.deepEqual(
      said(entry("custom", { customType: ARCHIVE_MARKER_TYPE, data: { targetId: "b1", archived: true } })),
      ["Archive", "Archived the branch at b1", []],
    );
    assert.deepEqual(said(entry("custom", { customType: LEAF_MARKER_TYPE, data: { targetId: "u1" } })), [
      "Leaf move",
      "Moved the leaf to u1",
      [],
    ]);
    assert.deepEqual(said(entry("custom", { customType: "my-ext/state", data: { n: 1 } })), [
      "Extension state",
      'my-ext/state\n{\n  "n": 1\n}',
      ["my-ext/state"],
    ]);
    const future = entryView(entry("future_thing", { x: 1 }));
    assert.deepEqual([future.kind, future.title, future.facts], ["unknown", "Unknown entry", ["future_thing"]]);
    assert.match(future.text, /"x": 1/);
    assert.deepEqual(messageView({ role: "robot", content: "beep" }).facts, ["message (robot)"]);
  });

  test("the project's custom types are their writers' own", () => {
    assert.equal(CHECKPOINT_TYPE, CHECKPOINT_ENTRY_TYPE);
    assert.equal(BRANCH_RUN_TYPE, RUN_LINE_TYPE);
    assert.equal(IMPORT_TYPE, IMPORT_CUSTOM_TYPE);
    for (const t of [CHECKPOINT_TYPE, BRANCH_RUN_TYPE, IMPORT_TYPE, ARCHIVE_MARKER_TYPE, LEAF_MARKER_TYPE])
      assert.ok(customTypeWord(t), t);
  });

  test("hover and Copy Text: a message's text with its calls and failure; bookkeeping as `Title: text (facts)`", () => {
    const reply = message({
      role: "assistant",
      content: [
        { type: "text", text: "Reading." },
        { type: "toolCall", id: "c", name: "read", arguments: { path: "a.ts" } },
      ],
      stopReason: "aborted",
    });
    assert.equal(plainText(entryView(reply)), 'Reading.\n\nread({\n  "path": "a.ts"\n})\n\nAborted');
    assert.equal(plainText(entryView(entry("label", { targetId: "abc", label: "bug" }))), "Label: bug (on abc)");
    assert.equal(plainText(entryView(entry("model_change", { provider: "p", modelId: "m" }))), "Model: p/m");
  });

  test("tool calls in one line: the tool as rows name it and what it acts on", () => {
    assert.equal(toolCallSummary("read", { path: "src/a.ts", offset: 3 }), "read src/a.ts");
    assert.equal(toolCallSummary("bash", { command: "npm   test\n--watch" }), "bash npm test --watch");
    assert.equal(toolCallSummary("todo", { todos: SEVEN_TODOS }), "todo 3/7");
    assert.equal(toolCallSummary("todo", { todos: "nope" }), "todo nope");
    assert.equal(toolCallSummary("mcp__fx__echo", { n: 1 }), "fx/echo");
    assert.equal(toolResultSubject("todo", "Refused"), "todo");
    assert.equal(toolCallSummary("write", { path: "x".repeat(300) }).length, "write ".length + 120);
  });

  test("anything a file may hold has a view, and its plain text", () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (a, m) => {
        for (const v of [entryView(a), entryView({ type: "message", message: m }), messageView(m)]) {
          assert.ok(ENTRY_KINDS.includes(v.kind) && v.title !== "" && typeof v.text === "string");
          assert.equal(typeof plainText(v), "string");
        }
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------- the byte path and the parsed path agree

/** Texts around the preview's length: whitespace runs, quotes, backslashes, accents and surrogate pairs. */
const text = fc
  .array(fc.constantFrom("a", "b", "word ", " ", "  ", "\n", "\t", "é", "😀", "\\", '"', "x\u00a0y"), {
    maxLength: 90,
  })
  .map((parts) => parts.join(""));
const nonBlank = text.map((t) => `t${t}`);
const toolName = fc.constantFrom("read", "bash", "todo", "web_fetch", "mcp__docs__search", "edit");
const args = fc.oneof(
  fc.record({ path: text }),
  fc.record({ command: nonBlank }),
  fc.record({ url: fc.constant("https://example.com/page") }),
  fc.constant({ todos: SEVEN_TODOS }),
  fc.constant({}),
);
const call = fc.record({
  type: fc.constant("toolCall"),
  id: fc.string({ maxLength: 4 }),
  name: toolName,
  arguments: args,
});

/** A message entry of every role, shaped as pi writes them. */
const messages = fc.oneof(
  fc.record({ role: fc.constant("user"), content: text }),
  fc.record({ typed: text, file: fc.constantFrom("a.ts", "src/deep/b.md", "folder") }).map(({ typed, file }) => ({
    role: "user",
    content: composeUserContent(typed, [`<file name="${file}">\nbody ${typed}\n</file>`]),
  })),
  fc.record({
    role: fc.constant("assistant"),
    content: fc.oneof(
      fc.tuple(nonBlank, fc.array(call, { maxLength: 2 })).map(([t, c]) => [{ type: "text", text: t }, ...c]),
      fc.array(call, { minLength: 1, maxLength: 3 }),
    ),
    provider: fc.constant("openai"),
    model: fc.constant("gpt"),
    stopReason: fc.constantFrom("stop", "toolUse", "aborted"),
  }),
  fc.record({
    role: fc.constant("assistant"),
    content: fc.constant([]),
    stopReason: fc.constant("error"),
    errorMessage: nonBlank,
  }),
  fc.record({
    role: fc.constant("toolResult"),
    toolCallId: fc.constant("c"),
    toolName,
    content: fc.oneof(
      text.map((t) => [{ type: "text", text: t }]),
      fc.constant([{ type: "text", text: todoResultText(SEVEN_TODOS) }]),
      nonBlank.map((t) => [
        { type: "text", text: t },
        { type: "image", mimeType: "image/png", data: "AAAA" },
      ]),
    ),
    isError: fc.boolean(),
  }),
  fc.record({
    role: fc.constant("bashExecution"),
    command: nonBlank,
    output: text,
    exitCode: fc.constantFrom(0, 1, null),
    cancelled: fc.boolean(),
    truncated: fc.constant(false),
    excludeFromContext: fc.boolean(),
  }),
  fc.record({ role: fc.constant("custom"), customType: fc.constant("hook"), content: text, display: fc.boolean() }),
  fc.record({ role: fc.constant("branchSummary"), summary: text, fromId: fc.constant("x") }),
  fc.record({ role: fc.constant("compactionSummary"), summary: text, tokensBefore: fc.nat() }),
  fc.record({ role: fc.constant("system"), content: text, sections: fc.record({ tools: text, rules: text }) }),
  fc.record({ role: fc.constant("robot"), content: text }),
);

/** Every other entry type, the project's own custom entries among them. */
const others: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.constant("branch_summary"), fromId: fc.constant("x"), summary: text }),
  fc.record({
    type: fc.constant("compaction"),
    summary: text,
    firstKeptEntryId: fc.constant("x"),
    tokensBefore: fc.nat(),
  }),
  fc.record({
    type: fc.constant("custom_message"),
    customType: fc.constant("lint"),
    content: text,
    display: fc.boolean(),
  }),
  fc.record({
    type: fc.constant("label"),
    targetId: fc.constant("e0000000"),
    label: fc.option(nonBlank, { nil: undefined }),
  }),
  fc.record({ type: fc.constant("model_change"), provider: fc.constant("anthropic"), modelId: nonBlank }),
  fc.record({ type: fc.constant("thinking_level_change"), thinkingLevel: fc.constantFrom("off", "high") }),
  fc.record({ type: fc.constant("session_info"), name: text }),
  fc.record({
    type: fc.constant("usage"),
    kind: fc.constant("cache_warm"),
    provider: fc.constant("anthropic"),
    model: fc.constant("claude"),
    usage: fc.constant({ input: 5, output: 1 }),
  }),
  fc.record({
    type: fc.constant("context_edit"),
    targetId: fc.constant("e0000000"),
    replacement: fc.option(fc.record({ content: text }), { nil: null }),
  }),
  fc.record({
    type: fc.constant("custom"),
    customType: fc.constantFrom(CHECKPOINT_TYPE, BRANCH_RUN_TYPE, IMPORT_TYPE, "my-ext/state"),
    data: fc.constant({ version: 1, folders: [], kind: "aside", state: "done", groupId: "g" }),
  }),
  fc.record({ type: fc.constant("future_thing"), note: text }),
);

const entries = fc.array(
  fc.oneof(
    messages.map((m) => ({ type: "message", message: { timestamp: 1, ...m } })),
    others,
  ),
  { minLength: 1, maxLength: 40 },
);

/** The first PREVIEW_MAX characters of a text as one line: the store's preview rule. */
function line(t: string): string {
  return collapseWhitespace(t, PREVIEW_MAX);
}

/**
 * What the row of an entry must say, given its whole view: its kind's word (a todo list its progress, the project's
 * own custom entries theirs), then the start of what the view says.
 */
function checkRowSaysView(
  row: RowWords,
  tokens: number | undefined,
  v: EntryView,
  parsed: Record<string, unknown>,
): void {
  const where = JSON.stringify(parsed).slice(0, 300);
  if (v.kind === "unknown") {
    assert.equal(row.role, `[${kindWord("unknown")}]`, where);
    return;
  }
  if (v.kind === "custom" && customTypeWord(v.subject ?? "") !== undefined) {
    assert.deepEqual(row, { role: `[${v.title.toLowerCase()}]`, text: "" }, where);
    return;
  }
  if (v.kind === "toolResult" && v.subject?.startsWith("todo ") === true) {
    assert.equal(`${row.role} ${row.text}`, v.subject, where);
    return;
  }
  assert.ok(row.role.includes(kindWord(v.kind)), `${row.role} names ${v.kind}: ${where}`);
  if (v.kind === "assistant" && v.text.trim() === "" && v.toolCalls) {
    const labels = v.toolCalls.map((c) => c.label).join(", ");
    assert.equal(row.text, `[${TOOL_CALL_WORDS.word}s: ${labels}]`, where);
  } else if (v.kind === "assistant" && v.text.trim() === "") {
    assert.ok(line(v.failure ?? "").endsWith(row.text), where);
  } else if (v.kind === "compaction" && tokens !== undefined) {
    assert.equal(row.text, v.subject, where);
  } else if (v.kind === "bashExecution" || v.kind === "custom") {
    assert.equal(row.text, line(v.subject ?? ""), where);
  } else if (v.kind === "user" && v.attachments) {
    const name = v.attachments[0].name.split("/").pop() ?? "";
    const shown = line(v.text);
    if (shown.length < 150)
      assert.equal(row.text, `${shown} [${attachmentPhrase({ ...v.attachments[0], name })}]`.trim(), where);
    else assert.ok(row.text.startsWith(shown.slice(0, 100)), where);
  } else if (v.images) {
    // A tool result's images are named after its text: the row shows the text's start.
    assert.ok(line(v.text).startsWith(row.text) && row.text !== "", where);
  } else {
    assert.equal(row.text, line(v.text), where);
  }
}

test("a row read from the store's bytes says what the parsed entry's view says", async () => {
  const { dir, cleanup } = tempDir();
  try {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(entries, async (list) => {
        const file = path.join(dir, `s${run++}.jsonl`);
        const header = { type: "session", version: 3, id: "s", timestamp: TS, cwd: dir };
        const lines = list.map((e, i) =>
          JSON.stringify({
            ...e,
            id: `e${String(i).padStart(7, "0")}`,
            parentId: i === 0 ? null : `e${String(i - 1).padStart(7, "0")}`,
            timestamp: TS,
          }),
        );
        fs.writeFileSync(file, [JSON.stringify(header), ...lines].join("\n") + "\n");
        const sm = await SessionManager.open(file, { readOnly: true });
        try {
          for (const l of lines) {
            const parsed = JSON.parse(l) as SessionEntry;
            const env = sm.getEnvelope(parsed.id);
            assert.ok(env, parsed.id);
            const fromBytes = rowWords(treeRowOf(env));
            assert.deepEqual(fromBytes, rowWords(treeRowOf(envelopeOf(parsed))), l.slice(0, 300));
            const v = entryView(parsed);
            assert.equal(treeRowOf(env).kind, v.kind);
            checkRowSaysView(fromBytes, env.tokens, v, parsed as unknown as Record<string, unknown>);
            // The search and the summaries list what the tree's default filter shows.
            assert.equal(isConversationKind(v.kind), isConversationKind(treeRowOf(env).kind));
          }
        } finally {
          await sm.close();
        }
      }),
      { numRuns: 60 },
    );
  } finally {
    cleanup();
  }
});
