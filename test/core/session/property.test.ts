/**
 * Property-based test: random sequences of appends, branches, labels, summaries, compactions and forks
 * against a small reference model. Checks after every sequence: every entry's parent chain reaches a root,
 * getPath(leaf) and the context equal the model's, reopening from disk gives the same state, and pi's rule
 * (last line = leaf) gives the same context.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import fc from "fast-check";
import { envelopeOf, SessionManager, type AgentMessage } from "../../../src/core/index.js";
import { compactionSummaryOf, piLeafPath } from "./helpers.js";
import { assistant, readJsonl, toolResult, user } from "../../util/session-builder.js";
import { tempDir } from "../../util/temp-dir.js";

type Obj = Record<string, unknown>;

/** Reference model: entries as plain objects, a leaf, labels. */
interface Model {
  entries: Map<string, Obj>;
  order: string[];
  leaf: string | null;
  labels: Map<string, string>;
}

function modelPath(m: Model, from: string | null): Obj[] {
  const out: Obj[] = [];
  for (let cur = from; cur !== null;) {
    const e = m.entries.get(cur);
    assert.ok(e, `model path hits unknown ${cur}`);
    out.push(e);
    cur = e.parentId as string | null;
    assert.ok(out.length <= m.order.length, "cycle");
  }
  return out.reverse();
}

/** The context by the spec's rules, written independently of src/core/session/context.ts. */
function referenceContext(pathEntries: Obj[]): AgentMessage[] {
  const ms = (t: unknown): number => Date.parse(t as string);
  const toMsg = (e: Obj): AgentMessage | undefined => {
    if (e.type === "message") return e.message as AgentMessage;
    if (e.type === "custom_message")
      return {
        role: "custom",
        customType: e.customType as string,
        content: e.content as string,
        display: e.display as boolean,
        details: e.details,
        timestamp: ms(e.timestamp),
      };
    if (e.type === "branch_summary" && e.summary)
      return {
        role: "branchSummary",
        summary: e.summary as string,
        fromId: e.fromId as string,
        timestamp: ms(e.timestamp),
      };
    return undefined;
  };
  let ci = -1;
  pathEntries.forEach((e, i) => {
    if (e.type === "compaction") ci = i;
  });
  const out: AgentMessage[] = [];
  const push = (e: Obj): void => {
    const m = toMsg(e);
    if (m) out.push(m);
  };
  if (ci < 0) pathEntries.forEach(push);
  else {
    const c = pathEntries[ci];
    out.push(compactionSummaryOf(c));
    const start = pathEntries.findIndex((e) => e.id === c.firstKeptEntryId);
    if (start >= 0 && start < ci) pathEntries.slice(start, ci).forEach(push);
    pathEntries.slice(ci + 1).forEach(push);
  }
  return out;
}

type Op =
  | { k: "msg"; role: number; text: string }
  | { k: "custom"; text: string }
  | { k: "customMsg"; text: string; display: boolean }
  | { k: "model" }
  | { k: "branch"; at: number }
  | { k: "reset" }
  | { k: "label"; at: number; label: string | undefined }
  | { k: "summary"; at: number | null; text: string }
  | { k: "compact"; at: number }
  | { k: "fork"; at: number }
  | { k: "reopen" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant("msg" as const),
      role: fc.nat({ max: 3 }),
      text: fc.string({ maxLength: 20 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("custom" as const), text: fc.string({ maxLength: 10 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant("customMsg" as const),
      text: fc.string({ maxLength: 10 }),
      display: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ k: "model" as const }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant("branch" as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ k: "reset" as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant("label" as const),
      at: fc.nat(),
      label: fc.option(fc.stringMatching(/^[a-z]{1,6}$/), { nil: undefined }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant("summary" as const),
      at: fc.option(fc.nat(), { nil: null }),
      text: fc.string({ minLength: 1, maxLength: 10 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("compact" as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("fork" as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ k: "reopen" as const }) },
);

let dir: string;
let cleanup: () => void;
before(() => ({ dir, cleanup } = tempDir()));
after(() => cleanup());

function messageFor(role: number, text: string): AgentMessage {
  // Role 3: a big tool output, so lazily loaded bodies are part of every check.
  return [
    user(text),
    assistant(text, text.length % 2 ? ["read"] : []),
    toolResult(text),
    toolResult(text + "x".repeat(9000)),
  ][role];
}

async function checkAgainstModel(sm: SessionManager, m: Model, file: string): Promise<void> {
  const contentIds = m.order.filter((id) => m.entries.has(id));
  // Envelopes first, before any body is read (a reopened session fills them from the lines' bytes): they equal
  // those of the parsed entries.
  const envelopes = sm.getEnvelopes().map((e) => ({ ...e }));
  // getPath and context equal the model's.
  const mp = modelPath(m, m.leaf);
  assert.equal(sm.getLeafId(), m.leaf);
  assert.deepEqual(
    sm.getPath().map((e) => e.id),
    mp.map((e) => e.id),
  );
  assert.deepEqual(sm.buildSessionContext().messages, referenceContext(mp));
  // Every entry's chain reaches a root; every model entry is there with its parent.
  const all = sm.getEntries();
  const byId = new Map(all.map((e) => [e.id, e]));
  for (const e of all) {
    let cur: string | null = e.id;
    let steps = 0;
    while (cur !== null) {
      const x = byId.get(cur);
      assert.ok(x, `parent ${cur} missing`);
      cur = x.parentId;
      assert.ok(++steps <= all.length, "cycle");
    }
  }
  for (const id of contentIds) assert.equal(byId.get(id)?.parentId, m.entries.get(id)?.parentId);
  assert.deepEqual(
    envelopes,
    all.map((e) => envelopeOf(e)),
  );
  for (const [id, label] of m.labels) assert.equal(sm.getLabel(id), label);
  for (const id of contentIds) if (!m.labels.has(id)) assert.equal(sm.getLabel(id), undefined);
  // The tree holds every entry once; children oldest first.
  let count = 0;
  const walk = (nodes: ReturnType<SessionManager["getTree"]>): void => {
    for (const n of nodes) {
      count++;
      for (let i = 1; i < n.children.length; i++)
        assert.ok(n.children[i - 1].entry.timestamp <= n.children[i].entry.timestamp);
      walk(n.children);
    }
  };
  walk(sm.getTree());
  assert.equal(count, all.length);
  // pi's rule on the same file: same context.
  if (fs.existsSync(file) && readJsonl(file).length > 1)
    assert.deepEqual(referenceContext(piLeafPath(file)), sm.buildSessionContext().messages);
}

/** A user or assistant message: the entry that makes a new session's file appear. */
function startsConversation(e: Obj): boolean {
  const role = (e.message as { role?: unknown } | undefined)?.role;
  return e.type === "message" && (role === "user" || role === "assistant");
}

describe("random operation sequences against a reference model", () => {
  test("session state equals the model, in memory, on reopen, and for pi", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 40 }), async (ops) => {
        const runDir = path.join(dir, `run${run++}`);
        let sm = await SessionManager.create("/prop", runDir);
        let file = sm.getSessionFile() as string;
        let m: Model = { entries: new Map(), order: [], leaf: null, labels: new Map() };
        const add = (id: string, obj: Obj): void => {
          m.entries.set(id, { ...(sm.getEntry(id) as unknown as Obj), ...obj });
          m.order.push(id);
          m.leaf = id;
        };
        const pick = (n: number): string | undefined => (m.order.length ? m.order[n % m.order.length] : undefined);
        try {
          for (const op of ops) {
            switch (op.k) {
              case "msg":
                add(sm.appendMessage(messageFor(op.role, op.text)), { parentId: m.leaf });
                break;
              case "custom":
                add(sm.appendCustomEntry("prop/state", { t: op.text }), { parentId: m.leaf });
                break;
              case "customMsg":
                add(sm.appendCustomMessageEntry("prop/msg", op.text, op.display), { parentId: m.leaf });
                break;
              case "model":
                add(sm.appendModelChange("openai", "gpt-prop"), { parentId: m.leaf });
                break;
              case "branch": {
                const id = pick(op.at);
                if (!id) break;
                sm.branch(id);
                m.leaf = id;
                break;
              }
              case "reset":
                sm.resetLeaf();
                m.leaf = null;
                break;
              case "label": {
                const id = pick(op.at);
                if (!id) break;
                const before = sm.getLeafId();
                sm.appendLabelChange(id, op.label);
                assert.equal(sm.getLeafId(), before, "label moved the leaf");
                if (op.label) m.labels.set(id, op.label);
                else m.labels.delete(id);
                break;
              }
              case "summary": {
                const target = op.at === null ? null : pick(op.at);
                if (target === undefined) break;
                const old = m.leaf;
                const id = sm.branchWithSummary(target, op.text);
                add(id, { parentId: target });
                assert.equal(m.entries.get(id)?.fromId, old ?? "root");
                break;
              }
              case "compact": {
                const p = modelPath(m, m.leaf);
                if (p.length === 0) break;
                const kept = p[op.at % p.length].id as string;
                add(sm.appendCompaction("compacted", kept, 1000), { parentId: m.leaf });
                break;
              }
              case "fork": {
                const id = pick(op.at);
                if (!id) break;
                const forked = (await sm.createBranchedSession(id)) as string;
                const f = await SessionManager.open(forked, { readOnly: true });
                const mp = modelPath(m, id);
                assert.deepEqual(
                  f.getPath().map((e) => e.id),
                  mp.map((e) => e.id),
                );
                assert.deepEqual(f.buildSessionContext().messages, referenceContext(mp));
                for (const e of mp) assert.equal(f.getLabel(e.id as string), m.labels.get(e.id as string));
                assert.equal(f.getHeader().parentSession, sm.getSessionFile());
                await f.close();
                break;
              }
              case "reopen": {
                const before = sm.getEntries();
                await sm.close();
                if (!fs.existsSync(file)) {
                  // As in pi 1.5, a new session's file appears with its first user or assistant message: what
                  // came before it was never written.
                  assert.ok(![...m.entries.values()].some(startsConversation), "a conversation was not written");
                  sm = await SessionManager.create("/prop", runDir);
                  file = sm.getSessionFile() as string;
                  m = { entries: new Map(), order: [], leaf: null, labels: new Map() };
                  break;
                }
                sm = await SessionManager.open(file);
                assert.deepEqual(sm.getEntries(), before);
                break;
              }
            }
          }
          await checkAgainstModel(sm, m, sm.getSessionFile() as string);
          // Reopen from disk: identical state.
          const entries = sm.getEntries();
          await sm.close();
          const current = sm.getSessionFile() as string;
          if (fs.existsSync(current)) {
            const re = await SessionManager.open(current);
            assert.deepEqual(re.getEntries(), entries);
            assert.deepEqual(re.getLoadIssues(), []);
            await checkAgainstModel(re, m, current);
            await re.close();
          }
        } catch (e) {
          if (process.env.PROP_DEBUG) console.error("PROPFAIL", e);
          throw e;
        } finally {
          await sm.close();
          fs.rmSync(runDir, { recursive: true, force: true });
        }
      }),
      { numRuns: 60 },
    );
  });
});
