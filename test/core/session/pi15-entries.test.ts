/**
 * pi 1.5's additions to the format, as the store handles them (the interop suite checks the same against the real
 * pi 1.5.2): context edits, usage entries, recorded system prompts, compactions keeping nothing, messages without
 * content, caller-chosen session ids, createBranchedSession in memory, the first write of a new file.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { describe, test } from "node:test";
import { ContextCache } from "../../../src/core/agent/context-cache.js";
import { entriesToMessages } from "../../../src/core/compaction/entry-messages.js";
import {
  buildContextFromEntries,
  emptyUsage,
  entryPreview,
  SessionIdError,
  SessionManager,
  type AgentMessage,
  type SessionEntry,
  type SystemMessage,
} from "../../../src/core/index.js";
import { assistant, readJsonl, user } from "../../util/session-builder.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

const tmp = tempDirPerTest();

const ts = (n: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
const msg = (id: string, parentId: string | null, message: unknown): SessionEntry =>
  ({ type: "message", id, parentId, timestamp: ts(1), message }) as SessionEntry;
const system = (sections: Record<string, string | null>, content = ""): SystemMessage => ({
  role: "system",
  content,
  sections,
  timestamp: 5,
});
const texts = (messages: AgentMessage[]): unknown[] =>
  messages.map((m) =>
    m.role === "compactionSummary" ? `[compaction] ${m.summary}` : "content" in m ? [m.role, m.content] : m.role,
  );

describe("context_edit", () => {
  test("null drops the target's message, a replacement swaps its content; the latest edit of a target wins", () => {
    const path: SessionEntry[] = [
      msg("u1", null, user("secret: hunter2")),
      msg("a1", "u1", assistant("noted the secret")),
      msg("u2", "a1", user("go on")),
      { type: "context_edit", id: "e1", parentId: "u2", timestamp: ts(2), targetId: "u1", replacement: null },
      {
        type: "context_edit",
        id: "e2",
        parentId: "e1",
        timestamp: ts(3),
        targetId: "u1",
        replacement: { content: "secret: [removed]" },
      },
      {
        type: "context_edit",
        id: "e3",
        parentId: "e2",
        timestamp: ts(4),
        targetId: "a1",
        replacement: { content: [{ type: "text", text: "noted" }] },
      },
      {
        type: "usage",
        id: "w",
        parentId: "e3",
        timestamp: ts(5),
        kind: "cache_warm",
        provider: "openai",
        model: "gpt-5",
        usage: emptyUsage(),
      },
    ];
    assert.deepEqual(texts(buildContextFromEntries(path).messages), [
      ["user", "secret: [removed]"],
      ["assistant", [{ type: "text", text: "noted" }]],
      ["user", "go on"],
    ]);
    // A branch summary of the same entries does not see the removed text either.
    assert.doesNotMatch(JSON.stringify(entriesToMessages(path)), /hunter2|the secret/);
    const dropped = [...path.slice(0, 3), { ...path[3], replacement: null } as SessionEntry];
    assert.deepEqual(texts(buildContextFromEntries(dropped).messages), [
      ["assistant", [{ type: "text", text: "noted the secret" }]],
      ["user", "go on"],
    ]);
  });

  test("appendContextEdit: a string for an assistant becomes one text block; bad targets are clear errors", async () => {
    const sm = await SessionManager.create("/p", tmp.dir);
    const u = sm.appendMessage(user("hello"));
    const model = sm.appendModelChange("openai", "gpt-5");
    const a = sm.appendMessage(assistant("hi there"));
    const edit = sm.appendContextEdit(a, { content: "hi" });
    assert.deepEqual(sm.getEntry(edit), {
      ...(sm.getEntry(edit) as object),
      type: "context_edit",
      targetId: a,
      replacement: { content: [{ type: "text", text: "hi" }] },
    });
    assert.throws(() => sm.appendContextEdit("nope1234", null), /not found/);
    assert.throws(() => sm.appendContextEdit(model, null), /no message content/);
    sm.branch(u);
    assert.throws(() => sm.appendContextEdit(a, null), /not on the current path/);
    await sm.close();
  });

  test("the agent's cached context is rebuilt when an edit is appended (the edit changes an earlier message)", () => {
    const sm = SessionManager.inMemory("/p");
    const u = sm.appendMessage(user("keep out: hunter2"));
    sm.appendMessage(assistant("ok"));
    const cache = new ContextCache(sm);
    assert.match(JSON.stringify(cache.get().messages), /hunter2/);
    sm.appendContextEdit(u, { content: "keep out: [removed]" });
    assert.doesNotMatch(JSON.stringify(cache.get().messages), /hunter2/);
    assert.deepEqual(cache.get(), sm.buildSessionContext());
  });
});

describe("compactions and system prompts", () => {
  test("firstKeptEntryId = its own id keeps nothing; the recorded prompt comes first; kept system messages go", () => {
    const prompt = system({ intro: "<intro>pi</intro>" }, "Base");
    const path: SessionEntry[] = [
      msg("s1", null, prompt),
      msg("u1", "s1", user("one")),
      msg("s2", "u1", system({ intro: "<intro>v2</intro>" })),
      msg("a1", "s2", assistant("two")),
      {
        type: "compaction",
        id: "c1",
        parentId: "a1",
        timestamp: ts(6),
        summary: "kept from u1",
        firstKeptEntryId: "u1",
        tokensBefore: 10,
        systemMessage: { ...prompt, sections: { intro: "<intro>v2</intro>" } },
      },
      msg("s3", "c1", system({ extra: "<x/>" })),
      msg("u2", "s3", user("three")),
    ];
    const ctx = buildContextFromEntries(path).messages;
    assert.deepEqual(
      ctx.map((m) => m.role),
      ["system", "compactionSummary", "user", "assistant", "system", "user"],
      "the recorded prompt, the summary, u1 and a1 (not s2), then s3 and u2",
    );
    const nothing = path.map((e) => (e.id === "c1" ? { ...e, firstKeptEntryId: "c1" } : e)) as SessionEntry[];
    assert.deepEqual(
      buildContextFromEntries(nothing).messages.map((m) => m.role),
      ["system", "compactionSummary", "system", "user"],
    );
  });

  test("appendCompaction without firstKeptEntryId names itself; with system messages it records the prompt", async () => {
    const sm = await SessionManager.create("/p", tmp.dir);
    sm.appendMessage(user("one"));
    sm.appendMessage(system({ intro: "<intro>a</intro>", gone: "<g/>" }, "Base"));
    sm.appendMessage(system({ gone: null }));
    sm.appendMessage(assistant("two"));
    const c = sm.appendCompaction("all of it", undefined, 99, undefined, undefined, {
      ...emptyUsage(),
      input: 7,
    });
    const entry = sm.getEntry(c) as { firstKeptEntryId: string; systemMessage?: SystemMessage; usage?: unknown };
    assert.equal(entry.firstKeptEntryId, c);
    assert.deepEqual(entry.systemMessage?.sections, { intro: "<intro>a</intro>" });
    assert.equal(entry.systemMessage?.content, "Base");
    assert.deepEqual(
      sm.buildSessionContext().messages.map((m) => m.role),
      ["system", "compactionSummary"],
    );
    await sm.close();
    // Without system messages nothing is recorded (files stay as pi 0.73 wrote them).
    const plain = SessionManager.inMemory("/p");
    plain.appendMessage(user("x"));
    const c2 = plain.appendCompaction("x", undefined, 1);
    assert.equal("systemMessage" in (plain.getEntry(c2) as object), false);
  });

  test("system messages are kept in the context but never sent to the model", async () => {
    const { convertToLlm } = await import("../../../src/core/messages.js");
    assert.deepEqual(convertToLlm([system({ a: "b" }), user("hi")]), [user("hi")]);
  });
});

test("previews: usage records, context edits and system prompts say what they are", () => {
  const base = { id: "x", parentId: null, timestamp: ts(1) };
  assert.equal(
    entryPreview({
      ...base,
      type: "usage",
      kind: "cache_warm",
      provider: "openai",
      model: "gpt-5",
      usage: { ...emptyUsage(), input: 12, output: 3 },
    } as SessionEntry),
    "cache_warm openai/gpt-5: 12 in, 3 out",
  );
  assert.equal(
    entryPreview({ ...base, type: "context_edit", targetId: "u1", replacement: null } as SessionEntry),
    "omit u1",
  );
  assert.equal(
    entryPreview({
      ...base,
      type: "context_edit",
      targetId: "u1",
      replacement: { content: "new text" },
    } as SessionEntry),
    "replace u1: new text",
  );
  assert.equal(entryPreview(msg("s", null, system({ tools: "<tools>read</tools>" }))), "<tools>read</tools>");
});

describe("messages without content (pi 1.5 repairs them)", () => {
  test("null or missing content becomes empty in the context; other fields are kept", () => {
    const path: SessionEntry[] = [
      msg("u", null, { role: "user", timestamp: 1 }),
      msg("a", "u", { ...assistant("x"), content: null }),
      msg("t", "a", { role: "toolResult", toolCallId: "c", toolName: "ls", isError: false, timestamp: 2 }),
      msg("s", "t", { role: "system", content: null, timestamp: 3 }),
      {
        type: "custom_message",
        id: "m",
        parentId: "s",
        timestamp: ts(4),
        customType: "x",
        display: true,
      } as unknown as SessionEntry,
    ];
    const ctx = buildContextFromEntries(path).messages as unknown as { role: string; content: unknown }[];
    assert.deepEqual(
      ctx.map((m) => [m.role, m.content]),
      [
        ["user", []],
        ["assistant", []],
        ["toolResult", []],
        ["system", ""],
        ["custom", []],
      ],
    );
    assert.equal((ctx[1] as unknown as { model: string }).model, "claude-test");
  });
});

describe("session ids, in-memory branches, the first write", () => {
  test("create and inMemory take pi's custom session ids; invalid ones are a SessionIdError", async () => {
    const sm = await SessionManager.create("/p", tmp.dir, { id: "my.session-1" });
    assert.equal(sm.getSessionId(), "my.session-1");
    assert.match(sm.getSessionFile() as string, /_my\.session-1\.jsonl$/);
    sm.appendMessage(user("x"));
    await sm.close();
    assert.equal(readJsonl(sm.getSessionFile() as string)[0].id, "my.session-1");
    assert.equal(SessionManager.inMemory("/p", { id: "a" }).getSessionId(), "a");
    for (const bad of ["", "-a", "a-", "a b", "../x", "é"]) {
      await assert.rejects(SessionManager.create("/p", tmp.dir, { id: bad }), SessionIdError);
      assert.throws(() => SessionManager.inMemory("/p", { id: bad }), SessionIdError);
    }
  });

  test("createBranchedSession in memory: the session becomes the branch (new id, labels kept), returns undefined", async () => {
    const sm = SessionManager.inMemory("/p", { id: "first" });
    const u1 = sm.appendMessage(user("a"));
    const a1 = sm.appendMessage(assistant("b"));
    sm.appendLabelChange(u1, "start");
    sm.branch(a1);
    sm.appendMessage(user("c"));
    sm.branch(u1);
    const u2 = sm.appendMessage(user("d"));
    const leafEvents: (string | null)[] = [];
    sm.subscribe((c) => c.type === "leaf" && leafEvents.push(c.leafId));
    assert.equal(await sm.createBranchedSession(u2), undefined);
    assert.notEqual(sm.getSessionId(), "first");
    assert.deepEqual(
      sm.getEntries().map((e) => [e.type, e.parentId]),
      [
        ["message", null],
        ["message", u1],
        ["label", u2],
      ],
    );
    assert.equal(sm.getLabel(u1), "start");
    assert.equal(sm.getLeafId(), u2);
    assert.deepEqual(leafEvents, [], "the leaf did not move");
    // It goes on as a session of its own.
    sm.appendMessage(assistant("e"));
    assert.equal(sm.getPath().length, 3);
  });

  test("a branch moves a compaction's firstKeptEntryId off a dropped label (pi puts labels on the path)", async () => {
    // pi moves its leaf onto labels, so in pi's files a label can be on the path and be the first kept entry.
    const file = `${tmp.dir}/pi-labels.jsonl`;
    const lines: unknown[] = [
      { type: "session", version: 3, id: "s", timestamp: ts(0), cwd: "/p" },
      msg("u1", null, user("a")),
      { type: "label", id: "l1", parentId: "u1", timestamp: ts(2), targetId: "u1", label: "L" },
      msg("a1", "l1", assistant("b")),
      {
        type: "compaction",
        id: "c1",
        parentId: "a1",
        timestamp: ts(4),
        summary: "s",
        firstKeptEntryId: "l1",
        tokensBefore: 5,
      },
      msg("u2", "c1", user("c")),
    ];
    fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const sm = await SessionManager.open(file, { readOnly: true });
    const before = sm.buildSessionContext();
    assert.deepEqual(texts(before.messages), [
      "[compaction] s",
      ["assistant", [{ type: "text", text: "b" }]],
      ["user", "c"],
    ]);
    const branch = await SessionManager.open((await sm.createBranchedSession("u2")) as string, { readOnly: true });
    assert.equal((branch.getEntry("c1") as { firstKeptEntryId: string }).firstKeptEntryId, "a1");
    assert.equal(branch.getEntry("a1")?.parentId, "u1");
    assert.deepEqual(branch.buildSessionContext(), before);
    assert.equal(branch.getLabel("u1"), "L");
    await branch.close();
    await sm.close();
  });

  test("a new file appears with its first user or assistant message, holding what came before (as pi 1.5)", async () => {
    const sm = await SessionManager.create("/p", tmp.dir);
    const file = sm.getSessionFile() as string;
    sm.appendModelChange("openai", "gpt-5");
    sm.appendThinkingLevelChange("high");
    sm.appendCustomEntry("ext/state", { a: 1 });
    assert.equal(fs.existsSync(file), false, "setup entries alone leave no file");
    const u = sm.appendMessage(user("first"));
    assert.deepEqual(
      readJsonl(file).map((e) => e.type),
      ["session", "model_change", "thinking_level_change", "custom", "message"],
    );
    assert.equal(sm.getEntry(u)?.id, u);
    await sm.close();
    const again = await SessionManager.open(file, { readOnly: true });
    assert.equal(again.getEntryCount(), 4);
    assert.deepEqual(again.buildSessionContext().model, { provider: "openai", modelId: "gpt-5" });
    assert.deepEqual(again.getLoadIssues(), []);
    await again.close();
  });
});
