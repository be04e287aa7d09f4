import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import {
  EntryNotFoundError,
  SessionManager,
  SessionReadOnlyError,
  defaultSessionDir,
  getAgentDir,
  type SessionEntry,
} from "../../../src/core/index.js";
import { assistant, readJsonl, toolResult, user } from "../../util/session-builder.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

const tmp = tempDirPerTest();

describe("SessionManager basics", () => {
  test("create() writes nothing until the first append, then header + entry", async () => {
    const sm = await SessionManager.create("/proj", tmp.dir);
    const file = sm.getSessionFile() as string;
    assert.match(path.basename(file), /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_[0-9a-f-]{36}\.jsonl$/);
    assert.equal(fs.existsSync(file), false);
    const id = sm.appendMessage(user("hi"));
    assert.match(id, /^[0-9a-f]{8}$/);
    const lines = readJsonl(file);
    assert.equal(lines.length, 2);
    assert.deepEqual(Object.keys(lines[0]).slice(0, 5), ["type", "version", "id", "timestamp", "cwd"]);
    assert.equal(lines[0].version, 3);
    assert.equal(lines[0].cwd, "/proj");
    assert.deepEqual(Object.keys(lines[1]).slice(0, 4), ["type", "id", "parentId", "timestamp"]);
    assert.equal(lines[1].parentId, null);
    await sm.close();
  });

  test("every append type returns its id, hangs off the leaf and advances it (labels excepted)", async () => {
    const sm = SessionManager.inMemory("/p");
    const a = sm.appendMessage(user("a"));
    const c = sm.appendCompaction("sum", a, 1234, { readFiles: [] }, false);
    const l = sm.appendLabelChange(a, "first");
    assert.equal(sm.getLeafId(), c, "label does not move the leaf");
    const cu = sm.appendCustomEntry("ext/state", { n: 1 });
    const cm = sm.appendCustomMessageEntry("ext/msg", "injected", true, { x: 1 });
    const mc = sm.appendModelChange("openai", "gpt-x");
    const tl = sm.appendThinkingLevelChange("high");
    const si = sm.appendSessionInfo("My session");
    const ids = [a, c, cu, cm, mc, tl, si];
    for (let i = 1; i < ids.length; i++) assert.equal(sm.getEntry(ids[i])?.parentId, ids[i - 1]);
    assert.equal(sm.getEntry(l)?.parentId, c);
    assert.equal(sm.getLeafId(), si);
    assert.equal(sm.getLabel(a), "first");
    assert.equal(sm.getSessionName(), "My session");
    assert.equal(sm.getEntryCount(), 8);
    assert.deepEqual(
      sm.getEntries().map((e) => e.type),
      [
        "message",
        "compaction",
        "label",
        "custom",
        "custom_message",
        "model_change",
        "thinking_level_change",
        "session_info",
      ],
    );
    sm.appendLabelChange(a, undefined);
    assert.equal(sm.getLabel(a), undefined);
    assert.throws(() => sm.appendLabelChange("nope", "x"), EntryNotFoundError);
  });

  test("getPath, getChildren (oldest first), branch, resetLeaf, getTree", () => {
    const sm = SessionManager.inMemory();
    const a = sm.appendMessage(user("a"));
    const b = sm.appendMessage(assistant("b"));
    sm.branch(a);
    assert.equal(sm.getLeafId(), a);
    const c = sm.appendMessage(assistant("c"));
    assert.deepEqual(
      sm.getPath().map((e) => e.id),
      [a, c],
    );
    assert.deepEqual(
      sm.getPath(b).map((e) => e.id),
      [a, b],
    );
    const kids = sm.getChildren(a).filter((e) => e.type === "message");
    assert.deepEqual(
      kids.map((e) => e.id),
      [b, c],
    );
    sm.resetLeaf();
    assert.equal(sm.getLeafId(), null);
    assert.deepEqual(sm.getPath(), []);
    const r2 = sm.appendMessage(user("second root"));
    assert.equal(sm.getEntry(r2)?.parentId, null);
    const tree = sm.getTree();
    const roots = tree.filter((n) => n.entry.type === "message");
    assert.deepEqual(
      roots.map((n) => n.entry.id),
      [a, r2],
    );
    assert.deepEqual(
      roots[0].children.filter((n) => n.entry.type === "message").map((n) => n.entry.id),
      [b, c],
    );
    assert.throws(() => sm.branch("missing1"), EntryNotFoundError);
  });

  test("branchWithSummary records fromId = old leaf and becomes the leaf", () => {
    const sm = SessionManager.inMemory();
    const a = sm.appendMessage(user("a"));
    const b = sm.appendMessage(assistant("b"));
    const s = sm.branchWithSummary(a, "went to b", { readFiles: ["x"] }, true);
    const e = sm.getEntry(s) as SessionEntry;
    assert.equal(e.type, "branch_summary");
    assert.equal(e.parentId, a);
    assert.equal(e.type === "branch_summary" && e.fromId, b);
    assert.equal(sm.getLeafId(), s);
    const ctx = sm.buildSessionContext();
    assert.deepEqual(
      ctx.messages.map((m) => m.role),
      ["user", "branchSummary"],
    );
    const root = sm.branchWithSummary(null, "from scratch");
    assert.equal(sm.getEntry(root)?.parentId, null);
  });

  test("buildSessionContext: latest compaction, kept entries, custom messages, model and thinking level", () => {
    const sm = SessionManager.inMemory();
    const u1 = sm.appendMessage(user("old question"));
    sm.appendMessage(assistant("old answer"));
    const u2 = sm.appendMessage(user("kept question"));
    sm.appendMessage(assistant("kept answer"));
    sm.appendThinkingLevelChange("medium");
    sm.appendCompaction("first summary", u1, 100);
    sm.appendMessage(user("after 1"));
    sm.appendCompaction("second summary", u2, 200);
    sm.appendCustomMessageEntry("ext", "hook text", false);
    sm.appendCustomEntry("ext/state", {});
    sm.appendModelChange("openai", "gpt-5");
    const ctx = sm.buildSessionContext();
    assert.deepEqual(
      ctx.messages.map((m) => m.role),
      ["compactionSummary", "user", "assistant", "user", "custom"],
    );
    const first = ctx.messages[0];
    assert.equal(first.role === "compactionSummary" && first.summary, "second summary");
    assert.equal(ctx.thinkingLevel, "medium");
    assert.deepEqual(ctx.model, { provider: "openai", modelId: "gpt-5" });
    // model falls back to the last assistant message
    const sm2 = SessionManager.inMemory();
    sm2.appendMessage(assistant("x"));
    assert.deepEqual(sm2.buildSessionContext().model, { provider: "anthropic", modelId: "claude-test" });
    assert.equal(sm2.buildSessionContext().thinkingLevel, "off");
  });

  test("findCommonAncestor and collectEntriesToSummarize stop at the ancestor and at a compaction", () => {
    const sm = SessionManager.inMemory();
    const a = sm.appendMessage(user("a"));
    const b = sm.appendMessage(assistant("b"));
    const c = sm.appendMessage(user("c"));
    const d = sm.appendMessage(assistant("d"));
    sm.branch(b);
    const g = sm.appendMessage(user("g"));
    assert.equal(sm.findCommonAncestor(d, g), b);
    assert.equal(sm.findCommonAncestor(d, d), d);
    assert.deepEqual(
      sm.collectEntriesToSummarize(d, g).map((e) => e.id),
      [c, d],
    );
    sm.branch(d);
    const comp = sm.appendCompaction("s", c, 10);
    const e = sm.appendMessage(user("e"));
    assert.deepEqual(
      sm.collectEntriesToSummarize(e, g).map((x) => x.id),
      [e],
    );
    assert.ok(comp);
    assert.deepEqual(sm.collectEntriesToSummarize(null, a), []);
    sm.resetLeaf();
    const z = sm.appendMessage(user("other root"));
    assert.equal(sm.findCommonAncestor(z, a), null);
  });

  test("the leaf survives a reload after branch() and resetLeaf(); labels do not move it", async () => {
    const sm = await SessionManager.create("/p", tmp.dir);
    const a = sm.appendMessage(user("a"));
    const b = sm.appendMessage(assistant("b"));
    sm.branch(a);
    sm.appendLabelChange(b, "tip");
    const file = sm.getSessionFile() as string;
    await sm.close();
    let re = await SessionManager.open(file);
    assert.equal(re.getLeafId(), a);
    assert.equal(re.getLabel(b), "tip");
    re.resetLeaf();
    await re.close();
    re = await SessionManager.open(file);
    assert.equal(re.getLeafId(), null);
    re.branch(b);
    await re.close();
    re = await SessionManager.open(file);
    assert.equal(re.getLeafId(), b);
    const lines = readJsonl(file).length;
    re.branch(b); // already there: no marker
    assert.equal(readJsonl(file).length, lines);
    await re.close();
  });

  test("createBranchedSession writes root→leaf with labels and parentSession", async () => {
    const sm = await SessionManager.create("/p", tmp.dir);
    const a = sm.appendMessage(user("a"));
    const b = sm.appendMessage(assistant("b"));
    sm.appendMessage(user("c"));
    sm.appendLabelChange(a, "L-a");
    sm.appendLabelChange(a, "L-a2");
    const file = (await sm.createBranchedSession(b)) as string;
    assert.notEqual(file, sm.getSessionFile());
    const fork = await SessionManager.open(file);
    assert.equal(fork.getHeader().parentSession, sm.getSessionFile());
    assert.deepEqual(
      fork.getPath().map((e) => e.id),
      [a, b],
    );
    assert.equal(fork.getLabel(a), "L-a2");
    assert.equal(fork.getLeafId(), b);
    await fork.close();
    await sm.close();
    const empty = await SessionManager.open(
      (await (
        await SessionManager.open(sm.getSessionFile() as string, { readOnly: true })
      ).createBranchedSession(null)) as string,
    );
    assert.equal(empty.getEntryCount(), 0);
    await empty.close();
  });

  test("list() newest first with names and counts; continueRecent opens the newest", async () => {
    const s1 = await SessionManager.create("/p", tmp.dir);
    s1.appendMessage(user("first session"));
    await s1.close();
    await new Promise((r) => setTimeout(r, 20));
    const s2 = await SessionManager.create("/p", tmp.dir);
    s2.appendMessage(user("second session"));
    s2.appendMessage(assistant("answer"));
    s2.appendSessionInfo("named");
    await s2.close();
    const now = new Date();
    fs.utimesSync(s1.getSessionFile() as string, now, new Date(now.getTime() - 60_000));
    const list = await SessionManager.list("/p", tmp.dir);
    assert.equal(list.length, 2);
    assert.equal(list[0].path, s2.getSessionFile());
    assert.equal(list[0].name, "named");
    assert.equal(list[0].messageCount, 2);
    assert.equal(list[0].firstMessage, "second session");
    const recent = await SessionManager.continueRecent("/p", tmp.dir);
    assert.equal(recent.getSessionFile(), s2.getSessionFile());
    await recent.close();
    const fresh = await SessionManager.continueRecent("/p", path.join(tmp.dir, "empty"));
    assert.equal(fresh.getEntryCount(), 0);
    assert.deepEqual(await SessionManager.list("/p", path.join(tmp.dir, "missing")), []);
  });

  test("defaultSessionDir / getAgentDir follow pi", () => {
    const prev = process.env.PI_CODING_AGENT_DIR;
    process.env.PI_CODING_AGENT_DIR = "/agent";
    try {
      assert.equal(getAgentDir(), "/agent");
      assert.equal(defaultSessionDir("/Users/me/proj"), "/agent/sessions/--Users-me-proj--");
      assert.equal(defaultSessionDir("C:\\w\\x", "/a"), "/a/sessions/--C--w-x--");
    } finally {
      if (prev === undefined) delete process.env.PI_CODING_AGENT_DIR;
      else process.env.PI_CODING_AGENT_DIR = prev;
    }
  });

  test("subscribe() sees appends and leaf moves; unsubscribe stops it", () => {
    const sm = SessionManager.inMemory();
    const seen: string[] = [];
    const off = sm.subscribe((c) =>
      seen.push(c.type === "append" ? `append:${c.entry.type}` : c.type === "leaf" ? `leaf:${c.leafId}` : c.type),
    );
    const a = sm.appendMessage(user("a"));
    sm.appendMessage(user("b"));
    sm.branch(a);
    off();
    sm.appendMessage(user("c"));
    assert.deepEqual(seen, ["append:message", "append:message", "append:custom", `leaf:${a}`]);
  });

  test("read-only views refuse writes; getEnvelopes is cheap and complete", async () => {
    const sm = await SessionManager.create("/p", tmp.dir);
    sm.appendMessage(user("hello   world\nline two"));
    sm.appendMessage(assistant("", ["read", "edit"], "error"));
    sm.appendMessage(toolResult("out", "read"));
    const ro = await SessionManager.open(sm.getSessionFile() as string, { readOnly: true });
    assert.equal(ro.isReadOnly(), true);
    assert.throws(() => ro.appendMessage(user("x")), SessionReadOnlyError);
    assert.throws(() => ro.resetLeaf(), SessionReadOnlyError);
    const envs = ro.getEnvelopes();
    assert.equal(envs[0].preview, "hello world line two");
    assert.equal(envs[1].toolCallsOnly, true);
    assert.equal(envs[1].failed, true);
    assert.equal(envs[1].toolName, "read, edit");
    assert.equal(envs[2].toolName, "read");
    await ro.close();
    await sm.close();
  });

  test("a reply the user stopped is marked aborted besides failed, as written and as read back; an error is not", async () => {
    const sm = await SessionManager.create("/p", tmp.dir);
    sm.appendMessage(user("hello"));
    sm.appendMessage(assistant("half a repl", [], "aborted"));
    sm.appendMessage(user("again"));
    sm.appendMessage(assistant("", [], "error"));
    sm.appendMessage(user("and again"));
    sm.appendMessage(assistant("", ["read"], "aborted"));
    const flags = (m: SessionManager): [boolean?, boolean?][] =>
      m
        .getEnvelopes()
        .filter((e) => e.role === "assistant")
        .map((e) => [e.failed, e.aborted]);
    const expected: [boolean?, boolean?][] = [
      [true, true],
      [true, undefined],
      [true, true],
    ];
    assert.deepEqual(flags(sm), expected, "as appended");
    const ro = await SessionManager.open(sm.getSessionFile() as string, { readOnly: true });
    assert.deepEqual(flags(ro), expected, "as read from the file");
    await ro.close();
    await sm.close();
  });
});

describe("ordering", () => {
  test("children are ordered by timestamp, file order breaking ties, also for files written out of order", async () => {
    const d = tmp.dir;
    const file = path.join(d, "order.jsonl");
    const e = (id: string, parentId: string | null, ts: string): string =>
      JSON.stringify({
        type: "message",
        id,
        parentId,
        timestamp: ts,
        message: { role: "user", content: id, timestamp: 0 },
      });
    fs.writeFileSync(
      file,
      [
        JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/" }),
        e("root0000", null, "2025-01-01T00:00:00.000Z"),
        e("late0000", "root0000", "2025-01-01T00:00:09.000Z"),
        e("early000", "root0000", "2025-01-01T00:00:01.000Z"),
        e("tie00001", "root0000", "2025-01-01T00:00:05.000Z"),
        e("tie00002", "root0000", "2025-01-01T00:00:05.000Z"),
        e("orphan00", "missing0", "2025-01-01T00:00:03.000Z"),
      ].join("\n") + "\n",
    );
    const sm = await SessionManager.open(file, { readOnly: true });
    assert.deepEqual(sm.getChildIds("root0000"), ["early000", "tie00001", "tie00002", "late0000"]);
    const roots = sm.getTree();
    assert.deepEqual(
      roots.map((n) => [n.entry.id, n.orphan === true]),
      [
        ["root0000", false],
        ["orphan00", true],
      ],
    );
    assert.equal(sm.getEnvelope("orphan00")?.orphan, true);
    assert.deepEqual(
      sm.getPath("orphan00").map((x) => x.id),
      ["orphan00"],
    );
    await sm.close();
  });
});

describe("folders", () => {
  test("open(path, sessionDir) puts forks in sessionDir; list() shows the fork's parent", async () => {
    const d = tmp.dir;
    const sm = await SessionManager.create("/p", path.join(d, "a"));
    const x = sm.appendMessage(user("x"));
    await sm.close();
    const other = path.join(d, "b");
    const re = await SessionManager.open(sm.getSessionFile() as string, other);
    const fork = (await re.createBranchedSession(x)) as string;
    assert.equal(path.dirname(fork), other);
    const [info] = await SessionManager.list("/p", other);
    assert.equal(info.path, fork);
    assert.equal(info.parentSessionPath, sm.getSessionFile());
    await re.close();
  });
});
