/**
 * open() reads every envelope (previews, tool names, flags, the model) in its one pass over the file, and
 * bodies only when asked for. These tests pin that nothing a caller can see differs from a full parse,
 * whatever is asked first, that nothing is read a second time for envelopes, and that damage found late
 * is reported, not thrown.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import fc from "fast-check";
import { randomUUID } from "node:crypto";
import { buildContextFromEntries, envelopeOf, SessionManager, type SessionEntry } from "../../../src/core/index.js";
import { timeOf } from "../../../src/core/session/tree-shape.js";
import { writeSyntheticSession } from "./generate.js";
import { assistant, readJsonl, toolResult, user } from "../../util/session-builder.js";
import { tempDir } from "../../util/temp-dir.js";

let dir: string;
let cleanup: () => void;
before(() => ({ dir, cleanup } = tempDir("session-envelopes-")));
after(() => cleanup());

const BIG = "word ".repeat(2000); // ~10 KB: a large line

/** A session of small and large user / assistant / tool lines, two models, a branch; returns its file. */
async function writeMixed(name: string): Promise<string> {
  const sm = await SessionManager.create(dir, dir);
  sm.appendMessage(user("first question " + BIG));
  sm.appendModelChange("openai", "gpt-test");
  const a1 = sm.appendMessage(assistant("short answer", ["bash", "read"]));
  sm.appendMessage(toolResult("out " + BIG, "bash"));
  sm.appendMessage({ ...assistant("", ["edit"]), provider: "openai", model: "gpt-big" });
  sm.appendMessage(toolResult("tiny", "edit"));
  sm.appendMessage({ ...assistant("failed " + BIG), stopReason: "error", errorMessage: "boom" });
  sm.branch(a1);
  sm.appendMessage(user("other way"));
  sm.appendMessage({ ...assistant("last " + BIG), provider: "anthropic", model: "claude-last" });
  const file = sm.getSessionFile() as string;
  await sm.close();
  const target = path.join(dir, name);
  fs.renameSync(file, target);
  return target;
}

function fileEntries(file: string): SessionEntry[] {
  return readJsonl(file).slice(1) as unknown as SessionEntry[];
}

describe("envelopes read at open", () => {
  test("whatever is asked first, envelopes, tree and context equal a full parse", async () => {
    const file = await writeMixed("mixed.jsonl");
    const entries = fileEntries(file);
    const firsts: ((sm: SessionManager) => unknown)[] = [
      (sm) => sm.buildSessionContext(),
      (sm) => sm.getEnvelope(entries[3].id),
      (sm) => sm.getTree(),
      (sm) => sm.getEntry(entries[2].id),
      (sm) => sm.getEnvelopes(),
    ];
    for (const first of firsts) {
      const sm = await SessionManager.open(file, { readOnly: true });
      first(sm);
      const ctx = sm.buildSessionContext();
      assert.deepEqual(ctx.model, { provider: "anthropic", modelId: "claude-last" });
      assert.equal(ctx.messages.length, 4);
      entries.forEach((e, i) => assert.deepEqual(sm.getEnvelope(e.id), envelopeOf(e), `getEnvelope of line ${i + 2}`));
      entries.forEach((e, i) => assert.deepEqual(sm.getEnvelopes()[i], envelopeOf(e), `envelope of line ${i + 2}`));
      assert.deepEqual(sm.getLoadIssues(), []);
      await sm.close();
    }
  });

  test("the model in force comes from a large assistant line even when no envelope was read", async () => {
    const file = await writeMixed("model.jsonl");
    const entries = fileEntries(file);
    const sm = await SessionManager.open(file);
    const bigAssistant = entries.find(
      (e) => e.type === "message" && e.message.role === "assistant" && e.message.stopReason === "error",
    ) as SessionEntry;
    sm.branch(bigAssistant.id);
    assert.deepEqual(sm.buildSessionContext().model, { provider: "anthropic", modelId: "claude-test" });
    const toolsOnly = entries.find(
      (e) => e.type === "message" && e.message.role === "assistant" && e.message.model === "gpt-big",
    ) as SessionEntry;
    sm.branch(toolsOnly.id);
    assert.deepEqual(sm.buildSessionContext().model, { provider: "openai", modelId: "gpt-big" });
    await sm.close();
  });

  test("a large line damaged after open: envelopes are whole, the context leaves it out and reports it", async () => {
    const file = await writeMixed("damaged.jsonl");
    const entries = fileEntries(file);
    const sm = await SessionManager.open(file);
    // A control byte (invalid in JSON) inside the text of the large tool result (line 5), same length.
    const text = fs.readFileSync(file, "utf8");
    const lineStart = text.split("\n").slice(0, 4).join("\n").length + 1;
    const at = text.indexOf("out word", lineStart) + 100;
    const fd = fs.openSync(file, "r+");
    fs.writeSync(fd, Buffer.from([1]), 0, 1, at);
    fs.closeSync(fd);
    const envs = sm.getEnvelopes();
    entries.forEach((e, i) => assert.deepEqual(envs[i], envelopeOf(e), `envelope of line ${i + 2}`));
    assert.throws(() => sm.getEntry(entries[3].id), /:5: entry .* has a corrupt body/);
    sm.branch(entries[4].id);
    assert.equal(sm.buildSessionContext().messages.length, 3, "the damaged tool result is left out");
    const issues = sm.getLoadIssues();
    assert.equal(issues.length, 1);
    assert.equal(issues[0].line, 5);
    assert.match(issues[0].reason, new RegExp(`entry ${entries[3].id} has a corrupt body`));
    await sm.close();
  });

  test("the session list shows the first user message of a large first line", async () => {
    const sub = path.join(dir, "list");
    fs.mkdirSync(sub);
    const file = await writeMixed("list.jsonl");
    fs.renameSync(file, path.join(sub, "list.jsonl"));
    const [info] = await SessionManager.list(dir, sub);
    assert.ok(info.firstMessage.startsWith("first question word word"));
    assert.equal(info.firstMessage.length, 200);
    assert.equal(info.messageCount, 8);
  });

  test("envelopes are read once, at open: blanking the file afterwards changes none of them", async () => {
    const file = path.join(dir, "once.jsonl");
    writeSyntheticSession(file, { entries: 3000, toolOutputBytes: 5000, compactEvery: 0, branchEvery: 400 });
    const entries = fileEntries(file);
    const sm = await SessionManager.open(file);
    const added = sm.appendMessage(user("typed after open"));
    const size = fs.statSync(file).size;
    fs.writeFileSync(file, Buffer.alloc(size, 32));
    const envs = sm.getEnvelopes();
    entries.forEach((e, i) => assert.deepEqual(envs[i], envelopeOf(e), `envelope of line ${i + 2}`));
    assert.equal(envs.at(-1)?.id, added);
    assert.equal(sm.getTree().length > 0, true);
    assert.deepEqual(sm.getLoadIssues(), []);
    await sm.close();
  });

  test("long ids (uuids) and odd timestamps are read from the heads exactly", async () => {
    const file = path.join(dir, "uuids.jsonl");
    const header = { type: "session", version: 3, id: randomUUID(), timestamp: new Date().toISOString(), cwd: dir };
    const entries: SessionEntry[] = [];
    let parentId: string | null = null;
    const stamps = [
      "2026-01-05T09:00:03.000Z",
      "2026-01-05T09:00:04.5+01:00",
      "not a time",
      "2026-02-30T00:00:00.000Z",
    ];
    for (let i = 0; i < 12; i++) {
      const id = i % 3 === 0 ? randomUUID() : `id-${i}-${"x".repeat(i * 5)}`;
      const message = i % 2 === 0 ? user(`question ${i} ${i % 4 === 0 ? BIG : ""}`) : assistant(`answer ${i} ${BIG}`);
      entries.push({ type: "message", id, parentId, timestamp: stamps[i % stamps.length], message });
      // Every third entry branches off the first one (its parent is not the line before).
      parentId = i % 3 === 2 ? entries[0].id : id;
    }
    fs.writeFileSync(file, [header, ...entries].map((e) => JSON.stringify(e)).join("\n") + "\n");
    const sm = await SessionManager.open(file, { readOnly: true });
    assert.deepEqual(sm.getLoadIssues(), []);
    assert.equal(sm.getLeafId(), entries[11].id);
    const leafPath: SessionEntry[] = [];
    for (let e: SessionEntry | undefined = entries[11]; e; e = entries.find((x) => x.id === e?.parentId))
      leafPath.unshift(e);
    assert.deepEqual(sm.buildSessionContext(), buildContextFromEntries(leafPath));
    entries.forEach((e, i) => assert.deepEqual(sm.getEnvelopes()[i], envelopeOf(e), `envelope of line ${i + 2}`));
    // Children are oldest first (unparsable times first), file order breaking ties: 6 (no time), 1 and 9 (same
    // time), 3 (Feb 30 reads as March).
    const parse = (t: string): number => (Number.isNaN(Date.parse(t)) ? 0 : Date.parse(t));
    const kids = [1, 3, 6, 9].sort((a, b) => parse(entries[a].timestamp) - parse(entries[b].timestamp) || a - b);
    assert.deepEqual(kids, [6, 1, 9, 3]);
    assert.deepEqual(
      sm.getChildIds(entries[0].id),
      kids.map((i) => entries[i].id),
    );
    await sm.close();
  });

  test("timestamps order exactly as Date.parse reads them", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(-1e14), max: new Date(1e14), noInvalidDate: true }), (d) => {
        const iso = d.toISOString();
        assert.equal(timeOf(iso), Number.isNaN(Date.parse(iso)) ? 0 : Date.parse(iso));
      }),
      { numRuns: 2000 },
    );
    for (const s of [
      "2026-02-29T10:00:00.000Z",
      "2026-13-01T00:00:00.000Z",
      "2026-01-01T24:00:00.000Z",
      "2026-01-01T10:00:60.000Z",
      "2026-01-01 10:00:00.000Z",
      "2026-01-01T10:00:00.000+01",
      "1899-12-31T23:59:59.999Z",
      "garbage",
      "",
    ])
      assert.equal(timeOf(s), Number.isNaN(Date.parse(s)) ? 0 : Date.parse(s), s);
  });
});
