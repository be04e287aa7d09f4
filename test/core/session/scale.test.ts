import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import {
  buildContextFromEntries,
  envelopeOf,
  SessionFormatError,
  SessionManager,
  type SessionEntry,
} from "../../../src/core/index.js";
import { writeSyntheticSession } from "./generate.js";
import { readJsonl } from "../../util/session-builder.js";
import { tempDir } from "../../util/temp-dir.js";

let dir: string;
let cleanup: () => void;
before(() => ({ dir, cleanup } = tempDir("session-scale-")));
after(() => cleanup());

/** A `message` line short enough to be read to its end when the session is opened. */
function smallMessage(line: string): boolean {
  return line.startsWith('{"type":"message"') && Buffer.byteLength(line) < 4000;
}

/** Naive reference: parse every line, walk from the last entry. */
function naive(file: string): { entries: SessionEntry[]; leafPath: SessionEntry[] } {
  const entries = readJsonl(file).slice(1) as unknown as SessionEntry[];
  const byId = new Map(entries.map((e) => [e.id, e]));
  const leafPath: SessionEntry[] = [];
  for (
    let cur: SessionEntry | undefined = entries.at(-1);
    cur;
    cur = cur.parentId === null ? undefined : byId.get(cur.parentId)
  )
    leafPath.push(cur);
  return { entries, leafPath: leafPath.reverse() };
}

describe("large sessions", () => {
  test("a generated session opens with every envelope, the tree and the context equal to a full parse", async () => {
    const file = path.join(dir, "big.jsonl");
    const r = writeSyntheticSession(file, {
      entries: 2500,
      toolOutputBytes: 12_000,
      compactEvery: 60,
      branchEvery: 300,
    });
    assert.ok(r.bytes > 10_000_000);
    const ref = naive(file);
    const sm = await SessionManager.open(file, { readOnly: true });
    assert.deepEqual(sm.getLoadIssues(), []);
    assert.equal(sm.getEntryCount(), r.entries);
    const envs = sm.getEnvelopes();
    ref.entries.forEach((e, i) => assert.deepEqual(envs[i], envelopeOf(e), `envelope of line ${i + 2}`));
    assert.equal(sm.getLeafId(), r.leafId);
    assert.deepEqual(sm.buildSessionContext(), buildContextFromEntries(ref.leafPath));
    let nodes = 0;
    const stack = [...sm.getTree()];
    while (stack.length > 0) {
      const n = stack.pop();
      if (!n) break;
      nodes++;
      stack.push(...n.children);
    }
    assert.equal(nodes, r.entries);
    // Bodies load lazily and equal the file's.
    for (const i of [1, 2, 3, 500, 1999]) assert.deepEqual(sm.getEntry(ref.entries[i].id), ref.entries[i]);
    await sm.close();
  });

  test("a torn entry with a whole entry glued after it: reported, the glued entry recovered, nothing orphaned", async () => {
    const file = path.join(dir, "glued.jsonl");
    writeSyntheticSession(file, { entries: 12, toolOutputBytes: 12_000, compactEvery: 0, branchEvery: 0 });
    const lines = fs.readFileSync(file, "utf8").split("\n");
    const bigIdx = lines.findIndex((l) => l.length > 10_000);
    const big = JSON.parse(lines[bigIdx]) as { id: string };
    const next = JSON.parse(lines[bigIdx + 1]) as { id: string; parentId: string };
    // pi crashed mid-write of the big line, then appended the next entry right after the torn bytes.
    lines[bigIdx] = lines[bigIdx].slice(0, 6000) + lines[bigIdx + 1];
    lines.splice(bigIdx + 1, 1);
    fs.writeFileSync(file, lines.join("\n"));
    const sm = await SessionManager.open(file);
    const issues = sm.getLoadIssues();
    assert.equal(issues.length, 1);
    assert.equal(issues[0].line, bigIdx + 1);
    assert.match(issues[0].reason, new RegExp(`entry ${next.id} .*recovered`));
    assert.equal(sm.getEntry(big.id), undefined);
    assert.equal(sm.getEntry(next.id)?.id, next.id);
    assert.equal(
      sm.getEnvelopes().some((e) => e.orphan),
      true,
      "the recovered entry's parent (the torn one) is gone: it is flagged, not dropped",
    );
    assert.ok(sm.getPath().some((e) => e.id === next.id));
    await sm.close();
  });

  test("a large body damaged after indexing: getEntry throws a clear error, the context skips it and reports it", async () => {
    const file = path.join(dir, "damaged.jsonl");
    writeSyntheticSession(file, { entries: 8, toolOutputBytes: 12_000, compactEvery: 0, branchEvery: 0 });
    const raw = fs.readFileSync(file, "utf8");
    const lines = raw.split("\n");
    const bigIdx = lines.findIndex((l) => l.length > 10_000);
    const id = (JSON.parse(lines[bigIdx]) as { id: string }).id;
    // Same length, broken JSON in the middle of the body (e.g. a bad sector or a stray editor).
    lines[bigIdx] = lines[bigIdx].slice(0, 5000) + '"}}}' + lines[bigIdx].slice(5004);
    fs.writeFileSync(file, lines.join("\n"));
    const sm = await SessionManager.open(file);
    assert.throws(
      () => sm.getEntry(id),
      (e: unknown) => e instanceof SessionFormatError && e.message.includes(`:${bigIdx + 1}:`),
    );
    const ctx = sm.buildSessionContext();
    assert.equal(ctx.messages.length, 7);
    assert.ok(sm.getLoadIssues().some((i) => i.line === bigIdx + 1));
    await sm.close();
  });

  test("small lines: a glued entry without children is recovered on load", async () => {
    const file = path.join(dir, "small-glued.jsonl");
    writeSyntheticSession(file, { entries: 12, toolOutputBytes: 300, compactEvery: 0, branchEvery: 0 });
    const lines = fs.readFileSync(file, "utf8").split("\n");
    // A tool result torn after its envelope and preview, so its head alone looks whole.
    const tornIdx = lines.findIndex(
      (l, i) =>
        i > 1 && i < lines.length - 4 && smallMessage(l) && l.includes('"toolResult"') && smallMessage(lines[i + 1]),
    );
    assert.ok(tornIdx > 0);
    const torn = JSON.parse(lines[tornIdx]) as { id: string };
    const glued = JSON.parse(lines[tornIdx + 1]) as { id: string; parentId: string };
    // The glued entry gets no children (its child is re-parented): no orphan prompts a second look, only the
    // line itself shows the glue.
    const child = JSON.parse(lines[tornIdx + 2]) as { parentId: string };
    child.parentId = glued.parentId;
    lines[tornIdx + 2] = JSON.stringify(child);
    lines[tornIdx] = lines[tornIdx].slice(0, -30) + lines[tornIdx + 1];
    lines.splice(tornIdx + 1, 1);
    fs.writeFileSync(file, lines.join("\n"));
    // A small line is read to its end: the glue is seen although nothing is orphaned.
    const sm = await SessionManager.open(file, { readOnly: true });
    const issues = sm.getLoadIssues();
    assert.equal(issues.length, 1);
    assert.equal(issues[0].line, tornIdx + 1);
    assert.match(issues[0].reason, new RegExp(`entry ${glued.id} .*recovered`));
    assert.equal(sm.getEntry(torn.id), undefined);
    assert.equal(sm.getEntry(glued.id)?.id, glued.id);
    await sm.close();
  });
});
