/**
 * SessionManager's appends on another branch (appendMessageAt, appendCustomEntryAt): the entry joins its branch,
 * the leaf stays — in memory, for listeners, after a reload, and for pi, which takes the file's last line as its
 * leaf — and each line pair is one write.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, it } from "node:test";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { LEAF_MARKER_TYPE, type SessionChange } from "../../../src/core/session/types.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { assistant, user } from "../../util/session-builder.js";
import { piLeafPath } from "../session/helpers.js";

const tmp = tempDirPerTest();

describe("appends off the leaf", () => {
  it("leave the leaf where it is, for listeners, a reload and pi", async () => {
    const sm = await SessionManager.create(tmp.dir, tmp.dir);
    const u1 = sm.appendMessage(user("main 1"));
    const a1 = sm.appendMessage(assistant("answer 1"));
    const changes: SessionChange[] = [];
    sm.subscribe((c) => changes.push(c));
    const leafSeen: (string | null)[] = [];
    sm.subscribe(() => leafSeen.push(sm.getLeafId()));

    const b1 = sm.appendMessageAt(u1, user("side question"));
    const b2 = sm.appendMessageAt(b1, assistant("side answer"));
    const note = sm.appendCustomEntryAt(b2, "test/note", { n: 1 });
    assert.equal(sm.getLeafId(), a1);
    assert.ok(
      leafSeen.every((l) => l === a1),
      "listeners never see the leaf on the branch",
    );
    assert.equal(changes.filter((c) => c.type === "leaf").length, 0);
    assert.deepEqual(
      sm.getPathEnvelopes(b2).map((e) => e.id),
      [u1, b1, b2],
    );
    assert.equal(sm.getEnvelope(note)?.parentId, b2);
    assert.deepEqual(
      sm.buildSessionContextAt(b2).messages.map((m) => (m as { content: unknown }).content),
      ["main 1", "side question", [{ type: "text", text: "side answer" }]],
    );
    assert.deepEqual(
      sm.buildSessionContext().messages.map((m) => m.role),
      ["user", "assistant"],
      "the main context holds nothing of the branch",
    );

    // The main branch goes on; the branch keeps going after it.
    const a2 = sm.appendMessage(user("main 2"));
    sm.appendMessageAt(b2, user("side 2"));
    assert.equal(sm.getLeafId(), a2);

    // Every off-leaf line is followed by a leaf marker naming the leaf; pi resumes there.
    const file = sm.getSessionFile() as string;
    await sm.close();
    const lines = fs
      .readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const last = lines.at(-1) as { customType?: string; data?: { targetId?: string } };
    assert.equal(last.customType, LEAF_MARKER_TYPE);
    assert.equal(last.data?.targetId, a2);
    assert.equal((piLeafPath(file).at(-2) as { id: string }).id, a2, "pi's leaf path ends at the user's leaf");
    const again = await SessionManager.open(file);
    assert.equal(again.getLeafId(), a2);
    assert.deepEqual(again.getLoadIssues(), []);
    assert.equal(again.getChildIds(u1).filter((id) => again.getEnvelope(id)?.role === "user").length, 1);
    assert.deepEqual(
      again.getPathEnvelopes(b2).map((e) => e.id),
      [u1, b1, b2],
    );
    await again.close();
  });

  it("work in memory, under a new root, and refuse unknown parents and reserved types", () => {
    const sm = SessionManager.inMemory(tmp.dir);
    const u = sm.appendMessage(user("main"));
    const root = sm.appendMessageAt(null, user("a new root"));
    assert.equal(sm.getLeafId(), u);
    assert.equal(sm.getEnvelope(root)?.parentId, null);
    assert.throws(() => sm.appendMessageAt("nope0000", user("x")), /nope0000/);
    assert.throws(() => sm.appendCustomEntryAt(u, LEAF_MARKER_TYPE, {}), /reserved/);
    const count = sm.getEntryCount();
    assert.equal(count, 3, "the main message, the new root and its leaf marker");
  });
});
