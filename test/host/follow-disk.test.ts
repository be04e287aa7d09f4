/**
 * pi takes no lock: what it appends to the session open here shows in the views as it is written — the tree's new
 * rows, the chat's messages when the leaf follows them — and the editor is told about another branch; our next
 * write goes on from our leaf; both programs' lines stay in the file.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { decodeRows } from "../../src/core/rows/row-columns.js";
import { followNotices, GO_THERE, OtherBranchNotice } from "../../src/host/session/follow-notice.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { readJsonl } from "../util/session-builder.js";
import { createHarness, ofType } from "./controller-harness.js";

const tmp = tempDirPerTest();

/** A line as pi appends it. */
function piLine(id: string, parentId: string | null, content: string, timestamp: number): string {
  const message = { role: "user", content, timestamp };
  return `${JSON.stringify({ type: "message", id, parentId, timestamp: new Date().toISOString(), message })}\n`;
}

/** Waits (bounded) until `done` holds. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !done(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(done(), `timed out waiting for ${what}`);
}

test("pi's appends show in the tree and the chat without a write of ours; another branch is said; nothing is lost", async () => {
  const h = createHarness();
  const sm = await SessionManager.create(tmp.dir, tmp.dir);
  const q = sm.appendMessage({ role: "user", content: "q", timestamp: 1 });
  await h.controller.attach(sm);
  const file = sm.getSessionFile()!;
  h.tree.length = 0;
  h.chat.length = 0;
  fs.appendFileSync(file, piLine("pi000001", q, "from pi", 2));
  await until(() => h.appended.length > 0, "pi's entry to be taken in");
  assert.equal(sm.getLeafId(), "pi000001", "idle, and it continues from our leaf: the leaf follows");
  const rows = ofType(h.tree, "tree/update").flatMap((u) => (u.rows ? decodeRows(u.rows) : []));
  assert.deepEqual(
    rows.map((r) => r.id),
    ["pi000001"],
  );
  assert.ok(ofType(h.tree, "tree/update").some((u) => u.leafId === "pi000001"));
  const chat = ofType(h.chat, "chat/snapshot").flatMap((s) => s.messages.map((m) => m.text));
  assert.ok(chat.includes("from pi"), `the chat shows pi's message: ${JSON.stringify(chat)}`);
  assert.deepEqual(followNotices("f.jsonl", h.appended[0]), [], "followed: nothing to say");

  // pi on another branch (its leaf was at q): the leaf stays, the editor offers to go there.
  fs.appendFileSync(file, piLine("pi000002", q, "a sibling from pi", 3));
  await until(() => h.appended.length > 1, "the second append");
  assert.equal(sm.getLeafId(), "pi000001");
  const notices = followNotices("f.jsonl", h.appended[1]);
  assert.equal(notices.length, 1);
  assert.match(notices[0].text, /pi added 1 entry to f\.jsonl on another branch/);
  assert.deepEqual(notices[0].action, { label: GO_THERE, entryId: "pi000002" });

  sm.appendMessage({ role: "user", content: "from here", timestamp: 4 });
  assert.deepEqual(h.errors, []);
  await h.controller.close();
  const lines = readJsonl(file).slice(1);
  assert.deepEqual(
    lines.map((l) => [(l.message as { content?: unknown } | undefined)?.content, l.parentId]),
    [
      ["q", null],
      ["from pi", q],
      ["a sibling from pi", q],
      ["from here", "pi000001"],
    ],
  );
});

test("pi writing turn after turn on another branch is said once at a time; Go There goes to its newest end", () => {
  const gate = new OtherBranchNotice();
  const session = {};
  const other = {};
  assert.equal(gate.offer(session, "a1"), true, "the first append is said");
  assert.equal(gate.offer(session, "a2"), false, "while it shows, a later append is not said again");
  assert.equal(gate.offer(session, "a3"), false);
  assert.equal(gate.offer(other, "b1"), true, "another session's notice is its own");
  assert.equal(gate.settle(session), "a3", "Go There goes to the newest end");
  assert.equal(gate.settle(session), undefined);
  assert.equal(gate.offer(session, "a4"), true, "once answered, the next append is said again");
});
