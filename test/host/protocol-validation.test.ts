import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import {
  COMPARE_PARSERS,
  parseEntryContextArg,
  validateCompareMessage,
  validateWebviewMessage,
  WEBVIEW_PARSERS,
  type MessageParsers,
} from "../../src/host/views/protocol-validation.js";
import {
  MAX_WEBVIEW_TEXT,
  TREE_KEY_COMMANDS,
  type CompareToHost,
  type WebviewToHost,
} from "../../src/shared/protocol.js";

const ctx = { hasEntry: (id: string) => id === "a1b2c3d4" || id === "ffff0000" };

function ok(raw: unknown): unknown {
  const r = validateWebviewMessage(raw, ctx);
  assert.equal(r.ok, true, r.ok ? "" : r.reason);
  return r.ok ? r.message : undefined;
}

function bad(raw: unknown, reason: RegExp): void {
  const r = validateWebviewMessage(raw, ctx);
  assert.equal(r.ok, false, `expected refusal of ${JSON.stringify(raw)?.slice(0, 100)}`);
  if (!r.ok) assert.match(r.reason, reason);
}

test("accepts every valid message type and returns only known fields", () => {
  assert.deepEqual(ok({ type: "ready", view: "tree", extra: 1 }), { type: "ready", view: "tree" });
  assert.deepEqual(ok({ type: "ready", view: "chat" }), { type: "ready", view: "chat" });
  assert.deepEqual(ok({ type: "tree/navigate", entryId: "a1b2c3d4" }), { type: "tree/navigate", entryId: "a1b2c3d4" });
  for (const mode of ["ask", "summarize", "none"]) {
    assert.deepEqual(ok({ type: "tree/navigate", entryId: "a1b2c3d4", mode }), {
      type: "tree/navigate",
      entryId: "a1b2c3d4",
      mode,
    });
  }
  assert.deepEqual(ok({ type: "tree/requestText", requestId: 7, entryId: "ffff0000" }), {
    type: "tree/requestText",
    requestId: 7,
    entryId: "ffff0000",
  });
  for (const show of [true, false]) {
    assert.deepEqual(ok({ type: "tree/showArchived", show, extra: 1 }), { type: "tree/showArchived", show });
  }
  for (const command of TREE_KEY_COMMANDS) {
    assert.deepEqual(ok({ type: "tree/action", command, entryId: "a1b2c3d4" }), {
      type: "tree/action",
      command,
      entryId: "a1b2c3d4",
    });
  }
  assert.deepEqual(ok({ type: "chat/submit", text: "hello" }), { type: "chat/submit", text: "hello" });
  assert.deepEqual(ok({ type: "chat/requestOlder", requestId: 3, before: 120, beforeId: "ffff0000", x: 1 }), {
    type: "chat/requestOlder",
    requestId: 3,
    before: 120,
    beforeId: "ffff0000",
  });
  assert.deepEqual(ok({ type: "chat/abort", junk: [1] }), { type: "chat/abort" });
  assert.deepEqual(ok({ type: "chat/approve", toolCallId: "call_1", approved: false }), {
    type: "chat/approve",
    toolCallId: "call_1",
    approved: false,
  });
  assert.deepEqual(ok({ type: "chat/approve", toolCallId: "call_1", approved: true, always: true }), {
    type: "chat/approve",
    toolCallId: "call_1",
    approved: true,
    always: true,
  });
  assert.deepEqual(ok({ type: "chat/approve", toolCallId: "call_1", approved: true, inWorkspace: true }), {
    type: "chat/approve",
    toolCallId: "call_1",
    approved: true,
    inWorkspace: true,
  });
  assert.deepEqual(ok({ type: "chat/selectModel", key: "openai/gpt-4.1" }), {
    type: "chat/selectModel",
    key: "openai/gpt-4.1",
  });
  for (const action of ["stop", "back", "switch"])
    assert.deepEqual(ok({ type: "chat/watchAction", action, extra: 1 }), { type: "chat/watchAction", action });
  for (const command of ["newSession", "openSession", "compact", "setApiKey", "selectModel", "exportHtml"]) {
    assert.deepEqual(ok({ type: "command", command }), { type: "command", command });
  }
});

test("refuses non-objects", () => {
  for (const raw of [null, undefined, 3, "ready", [], true]) bad(raw, /not an object/);
});

test("refuses unknown or missing types", () => {
  bad({}, /"type" must be a string/);
  bad({ type: 5 }, /"type" must be a string/);
  bad({ type: "tree/delete", entryId: "a1b2c3d4" }, /unknown message type "tree\/delete"/);
  bad({ type: "__proto__" }, /unknown message type/);
  bad({ type: "x".repeat(10_000) }, /unknown message type/);
});

test("refuses unknown entry ids", () => {
  bad({ type: "tree/navigate", entryId: "deadbeef" }, /unknown entry id "deadbeef"/);
  bad({ type: "tree/requestText", requestId: 1, entryId: "nope" }, /unknown entry id/);
  bad({ type: "tree/action", command: "agentTree.copyText", entryId: "zzz" }, /unknown entry id/);
  bad({ type: "tree/navigate", entryId: "" }, /empty/);
  bad({ type: "tree/navigate", entryId: "a".repeat(300) }, /too long/);
});

test("refuses wrong field types", () => {
  bad({ type: "ready", view: "panel" }, /"view" must be one of tree, chat/);
  bad({ type: "ready" }, /"view" must be one of/);
  bad({ type: "tree/navigate", entryId: 42 }, /"entryId" must be a string/);
  bad({ type: "tree/navigate", entryId: "a1b2c3d4", mode: "always" }, /"mode" must be one of/);
  bad({ type: "tree/navigate", entryId: "a1b2c3d4", mode: null }, /"mode" must be one of/);
  bad({ type: "tree/requestText", requestId: "1", entryId: "a1b2c3d4" }, /requestId/);
  bad({ type: "tree/requestText", requestId: 1.5, entryId: "a1b2c3d4" }, /requestId/);
  bad({ type: "tree/requestText", requestId: -1, entryId: "a1b2c3d4" }, /requestId/);
  bad({ type: "tree/requestText", requestId: Number.NaN, entryId: "a1b2c3d4" }, /requestId/);
  bad({ type: "tree/action", command: "shred", entryId: "a1b2c3d4" }, /"command" must be one of/);
  bad({ type: "tree/showArchived" }, /"show" is required/);
  bad({ type: "tree/showArchived", show: "true" }, /"show" must be a boolean/);
  // The host's own message (it toggles in the host now) is not one a view may post.
  bad({ type: "tree/toggleArchived" }, /unknown message type/);
  bad({ type: "chat/submit", text: ["hi"] }, /"text" must be a string/);
  bad({ type: "chat/submit", text: "   " }, /empty/);
  bad({ type: "chat/approve", toolCallId: "c", approved: "yes" }, /"approved" must be a boolean/);
  bad({ type: "chat/approve", toolCallId: "c" }, /"approved" is required/);
  bad({ type: "chat/approve", toolCallId: "c", approved: true, always: 1 }, /"always" must be a boolean/);
  bad({ type: "chat/approve", toolCallId: "c", approved: true, inWorkspace: "y" }, /"inWorkspace" must be a boolean/);
  bad({ type: "chat/approve", toolCallId: 9, approved: true }, /"toolCallId" must be a string/);
  bad({ type: "chat/selectModel", key: {} }, /"key" must be a string/);
  bad({ type: "chat/watchAction", action: "adopt" }, /"action"/);
  bad({ type: "command", command: "rm -rf" }, /"command" must be one of/);
});

test("refuses oversized text", () => {
  bad({ type: "chat/submit", text: "x".repeat(MAX_WEBVIEW_TEXT + 1) }, /too long/);
  assert.equal(validateWebviewMessage({ type: "chat/submit", text: "x".repeat(MAX_WEBVIEW_TEXT) }, ctx).ok, true);
});

test("never throws, even when the session lookup does", () => {
  const throwing = {
    hasEntry(): boolean {
      throw new Error("session closed");
    },
  };
  const r = validateWebviewMessage({ type: "tree/navigate", entryId: "a1b2c3d4" }, throwing);
  assert.deepEqual(r, { ok: false, reason: "validation failed: session closed" });
  const getterBomb = Object.defineProperty({ type: "chat/submit" }, "text", {
    get() {
      throw new Error("boom");
    },
  });
  assert.equal(validateWebviewMessage(getterBomb, ctx).ok, false);
});

test("entry context arguments of menu commands are checked", () => {
  assert.deepEqual(parseEntryContextArg({ webviewSection: "entry", entryId: "a1b2c3d4", hasLabel: true }, ctx), {
    entryId: "a1b2c3d4",
  });
  assert.equal(parseEntryContextArg({ entryId: "deadbeef" }, ctx), undefined);
  assert.equal(parseEntryContextArg({ entryId: 3 }, ctx), undefined);
  assert.equal(parseEntryContextArg(undefined, ctx), undefined);
  assert.equal(parseEntryContextArg("a1b2c3d4", ctx), undefined);
});

test("the parser table is typed against the protocol: a message type without a parser does not compile", () => {
  const { ready, ...withoutReady } = WEBVIEW_PARSERS;
  // @ts-expect-error: "ready" has no parser (typecheck fails if this compiles)
  const missing: MessageParsers<WebviewToHost> = withoutReady;
  assert.equal(typeof ready, "function");
  assert.equal("ready" in missing, false);
  // At run time the table answers the protocol's types and nothing inherited.
  bad({ type: "constructor" }, /unknown message type/);
  bad({ type: "toString" }, /unknown message type/);
});

test("refuses page requests that are not indexes of known entries", () => {
  const page = { type: "chat/requestOlder", requestId: 1, before: 5, beforeId: "a1b2c3d4" };
  bad({ ...page, beforeId: "deadbeef" }, /unknown entry id/);
  bad({ ...page, beforeId: undefined }, /"beforeId" must be a string/);
  for (const before of [-1, 1.5, "5", Number.MAX_SAFE_INTEGER + 2, null])
    bad({ ...page, before }, /"before" must be a non-negative integer/);
  bad({ ...page, requestId: -3 }, /"requestId" must be a non-negative integer/);
});

test("chat input messages: completions, mentions, dropped files", () => {
  assert.deepEqual(ok({ type: "chat/complete", requestId: 2, trigger: "@", query: "src/ma", extra: 1 }), {
    type: "chat/complete",
    requestId: 2,
    trigger: "@",
    query: "src/ma",
  });
  bad({ type: "chat/complete", requestId: 2, trigger: "#", query: "" }, /"trigger" must be one of @, \//);
  bad({ type: "chat/complete", requestId: 2, trigger: "@", query: "q".repeat(1001) }, /too long/);
  const mention = { label: "@a.ts#2-3", path: "a.ts", root: "/w", text: "x", startLine: 2, endLine: 3, evil: 1 };
  const { evil: _dropped, ...clean } = mention;
  assert.deepEqual(ok({ type: "chat/submit", text: "see @a.ts#2-3", mentions: [mention] }), {
    type: "chat/submit",
    text: "see @a.ts#2-3",
    mentions: [clean],
  });
  bad({ type: "chat/submit", text: "x", mentions: "a.ts" }, /"mentions" must be an array/);
  bad({ type: "chat/submit", text: "x", mentions: [null] }, /a mention must be an object/);
  bad({ type: "chat/submit", text: "x", mentions: [{ label: "@a", path: "a" }] }, /"root" must be a string/);
  bad({ type: "chat/submit", text: "x", mentions: [{ ...clean, startLine: 0 }] }, /line number from 1/);
  bad({ type: "chat/submit", text: "x", mentions: Array(101).fill(clean) }, /at most 100/);
  assert.deepEqual(ok({ type: "chat/dropFiles", uris: ["file:///w/a.ts"] }), {
    type: "chat/dropFiles",
    uris: ["file:///w/a.ts"],
  });
  bad({ type: "chat/dropFiles", uris: [5] }, /must be a string/);
});

const ROOT = path.resolve("/work/project");
const mention = { label: "@src/a.ts", path: "src/a.ts", root: ROOT };
const selection = { label: "@src/a.ts#2-3", path: "src/a.ts", root: ROOT, text: "x", startLine: 2, endLine: 3 };
const image = { mimeType: "image/png", data: "iVBORw0KGgo=" };

/**
 * Every message type a view may post: one valid message, and for each of its fields values that must be refused
 * (with the reason's pattern). A type added to the protocol fails the coverage test below until it is listed here.
 */
const TABLE: Record<
  WebviewToHost["type"],
  { valid: Record<string, unknown>; bad: [Record<string, unknown>, RegExp][] }
> = {
  ready: { valid: { view: "chat" }, bad: [[{ view: "editor" }, /"view"/]] },
  "tree/navigate": {
    valid: { entryId: "a1b2c3d4", mode: "none" },
    bad: [
      [{ entryId: "deadbeef" }, /unknown entry id/],
      [{ mode: "choose" }, /"mode"/],
    ],
  },
  "tree/requestText": {
    valid: { requestId: 1, entryId: "a1b2c3d4" },
    bad: [
      [{ requestId: -1 }, /"requestId"/],
      [{ entryId: "" }, /"entryId" is empty/],
    ],
  },
  "tree/showArchived": { valid: { show: true }, bad: [[{ show: 1 }, /"show"/]] },
  "tree/action": {
    valid: { command: "agentTree.copyText", entryId: "a1b2c3d4" },
    bad: [
      [{ command: "agentTree.deleteSession" }, /"command"/],
      [{ entryId: 7 }, /"entryId"/],
    ],
  },
  "chat/submit": {
    valid: { text: "see @src/a.ts", mentions: [mention, selection], images: [image] },
    bad: [
      [{ text: "" }, /"text" is empty/],
      [{ mentions: [{ ...mention, path: "../outside.txt" }] }, /"path" .*outside its root/],
      [{ mentions: [{ ...mention, path: "/etc/passwd" }] }, /"path" must be relative/],
      [{ mentions: [{ ...mention, root: "relative/root" }] }, /"root" must be an absolute path/],
      [{ images: [{ mimeType: "image/png", data: 5 }] }, /"data"/],
    ],
  },
  "chat/complete": {
    valid: { requestId: 2, trigger: "@", query: "src" },
    bad: [
      [{ trigger: "#" }, /"trigger"/],
      [{ query: null }, /"query"/],
    ],
  },
  "chat/dropFiles": {
    valid: { uris: ["file:///work/project/a.ts"] },
    bad: [
      [{ uris: "file:///a" }, /"uris"/],
      [{ uris: [3] }, /must be a string/],
    ],
  },
  "chat/requestOlder": {
    valid: { requestId: 1, before: 3, beforeId: "a1b2c3d4" },
    bad: [
      [{ before: -1 }, /"before"/],
      [{ beforeId: "nope" }, /unknown entry id/],
    ],
  },
  "chat/abort": { valid: {}, bad: [] },
  "chat/approve": {
    valid: { toolCallId: "call_1", approved: true, always: false, allInRun: true },
    bad: [
      [{ toolCallId: "" }, /"toolCallId" is empty/],
      [{ approved: "yes" }, /"approved"/],
      [{ allInRun: "yes" }, /"allInRun"/],
    ],
  },
  "chat/queue": {
    valid: { kind: "steer", text: "go on", mentions: [mention] },
    bad: [
      [{ kind: "now" }, /"kind"/],
      [{ mentions: [{ ...mention, path: "src/../../x" }] }, /outside its root/],
    ],
  },
  "chat/queueEdit": {
    valid: { id: "q1", text: "" },
    bad: [
      [{ id: "" }, /"id" is empty/],
      [{ text: 1 }, /"text"/],
    ],
  },
  "chat/queueRemove": { valid: { id: "q1" }, bad: [[{ id: "" }, /"id" is empty/]] },
  "chat/selectThinkingLevel": { valid: { level: "high" }, bad: [[{ level: "ultra" }, /"level"/]] },
  "chat/openDiff": {
    valid: { toolCallId: "call_1" },
    bad: [
      [{ toolCallId: "" }, /"toolCallId" is empty/],
      [{ file: -1 }, /"file"/],
      [{ file: "0" }, /"file"/],
    ],
  },
  "chat/selectModel": { valid: { key: "openai/gpt-4.1" }, bad: [[{ key: "" }, /"key" is empty/]] },
  "chat/watchAction": { valid: { action: "stop" }, bad: [[{ action: "adopt" }, /"action"/]] },
  "chat/continueAside": {
    valid: { asideId: "a1b2c3d4" },
    bad: [
      [{ asideId: "" }, /"asideId" is empty/],
      [{ asideId: "nope" }, /unknown entry id/],
    ],
  },
  command: { valid: { command: "compact" }, bad: [[{ command: "agentTree.deleteBranch" }, /"command"/]] },
};

test("every message type: a valid one passes, each malformed field is refused", () => {
  assert.deepEqual(Object.keys(TABLE).sort(), Object.keys(WEBVIEW_PARSERS).sort(), "the table covers the protocol");
  for (const [type, { valid, bad: cases }] of Object.entries(TABLE)) {
    ok({ type, ...valid });
    for (const [change, reason] of cases) bad({ type, ...valid, ...change }, reason);
  }
});

test("chat/openDiff: `file` is checked also when `toolCallId` is present; one of them, not both", () => {
  assert.deepEqual(ok({ type: "chat/openDiff", file: 2 }), { type: "chat/openDiff", file: 2 });
  assert.deepEqual(ok({ type: "chat/openDiff", toolCallId: "c" }), { type: "chat/openDiff", toolCallId: "c" });
  for (const file of [-1, 1.5, "2", null, {}]) bad({ type: "chat/openDiff", toolCallId: "c", file }, /"file"/);
  bad({ type: "chat/openDiff", toolCallId: "c", file: 2 }, /either "toolCallId" or "file"/);
  bad({ type: "chat/openDiff" }, /either "toolCallId" or "file"/);
});

test("a mention's root is absolute and its path relative, inside the root: refused at the boundary", () => {
  const submit = (m: Record<string, unknown>): Record<string, unknown> => ({
    type: "chat/submit",
    text: `see ${String(m.label)}`,
    mentions: [m],
  });
  ok(submit(mention));
  ok(submit({ ...mention, label: "@src/", path: "src" }));
  ok(submit({ ...mention, label: "@./", path: "." }));
  ok(submit({ ...mention, path: "src/deeper/../a.ts" }));
  for (const root of ["", "work/project", "./project", "~/project", `${ROOT}/../other`])
    bad(submit({ ...mention, root }), /"root" must be an absolute path/);
  for (const p of ["/etc/passwd", path.join(ROOT, "src/a.ts")])
    bad(submit({ ...mention, path: p }), /must be relative/);
  for (const p of ["..", "../x", "src/../../x", "a/../.."]) bad(submit({ ...mention, path: p }), /outside its root/);
  bad(submit({ ...mention, path: "" }), /"path" is empty/);
  bad(submit({ ...mention, path: "a\0b" }), /"path" holds a NUL/);
  bad(submit({ ...mention, root: `${ROOT}\0` }), /"root" holds a NUL/);
  // The label is what the input shows: an `@` mention.
  bad(submit({ ...mention, label: "src/a.ts" }), /"label" must start with @/);
  bad(submit({ ...mention, label: "@" }), /"label" must start with @/);
  // Lines belong to a selection (its text), in order.
  bad(submit({ ...mention, startLine: 2 }), /lines only with "text"/);
  bad(submit({ ...selection, startLine: 5, endLine: 3 }), /"endLine" before "startLine"/);
  bad(submit({ ...selection, startLine: undefined }), /"endLine" without "startLine"/);
});

const COMPARE_TABLE: Record<
  CompareToHost["type"],
  { valid: Record<string, unknown>; bad: [Record<string, unknown>, RegExp][] }
> = {
  "compare/ready": { valid: {}, bad: [] },
  "compare/requestTurns": {
    valid: { start: 0, count: 50 },
    bad: [
      [{ start: -1 }, /"start"/],
      [{ count: 1001 }, /"count"/],
    ],
  },
  "compare/reveal": { valid: { entryId: "a1b2c3d4" }, bad: [[{ entryId: "deadbeef" }, /unknown entry id/]] },
  "compare/openFile": {
    valid: { path: "src/a.ts" },
    bad: [
      [{ path: "" }, /"path" is empty/],
      [{ path: 3 }, /"path"/],
    ],
  },
};

test("every compare panel message type: a valid one passes, each malformed field is refused", () => {
  assert.deepEqual(Object.keys(COMPARE_TABLE).sort(), Object.keys(COMPARE_PARSERS).sort());
  for (const [type, { valid, bad: cases }] of Object.entries(COMPARE_TABLE)) {
    const r = validateCompareMessage({ type, ...valid }, ctx);
    assert.equal(r.ok, true, r.ok ? "" : r.reason);
    for (const [change, reason] of cases) {
      const b = validateCompareMessage({ type, ...valid, ...change }, ctx);
      assert.equal(b.ok, false, `${type} ${JSON.stringify(change)}`);
      if (!b.ok) assert.match(b.reason, reason);
    }
  }
});
