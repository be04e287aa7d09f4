/**
 * pi resumes at the LAST line of a file. These tests re-implement that rule (helpers.piLeafPath) and check that
 * pi, opening our files after any move, sees the same context we resume with.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { describe, test } from "node:test";
import { buildContextFromEntries, SessionManager, type SessionEntry } from "../../../src/core/index.js";
import { piLeafPath } from "./helpers.js";
import { assistant, readJsonl, user } from "../../util/session-builder.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

const tmp = tempDirPerTest();

function piContext(file: string): ReturnType<typeof buildContextFromEntries> {
  return buildContextFromEntries(piLeafPath(file) as unknown as SessionEntry[]);
}

describe("pi resumes where we resume", () => {
  test("after branch, label, reset, summary and a restart", async () => {
    const sm = await SessionManager.create("/p", tmp.dir);
    const file = sm.getSessionFile() as string;
    const a = sm.appendMessage(user("question"));
    const b = sm.appendMessage(assistant("answer one"));
    sm.appendMessage(user("follow-up"));
    const check = async (): Promise<void> => {
      const ours = sm.buildSessionContext();
      assert.deepEqual(piContext(file), ours);
      // And after a restart we are still there.
      const leaf = sm.getLeafId();
      await sm.close();
      const re = await SessionManager.open(file);
      assert.equal(re.getLeafId(), leaf);
      assert.deepEqual(re.buildSessionContext(), ours);
      await re.close();
    };
    let reopened = sm;
    const reopen = async (): Promise<void> => {
      reopened = await SessionManager.open(file);
    };

    sm.branch(a);
    await check();
    await reopen();
    reopened.appendLabelChange(b, "keep");
    assert.equal(reopened.getLeafId(), a);
    assert.deepEqual(piContext(file), reopened.buildSessionContext());
    reopened.resetLeaf();
    assert.deepEqual(piContext(file).messages, []);
    reopened.branchWithSummary(b, "tried something");
    assert.deepEqual(piContext(file), reopened.buildSessionContext());
    reopened.branch(a);
    reopened.appendLabelChange(a, "start");
    assert.deepEqual(piContext(file), reopened.buildSessionContext());
    await reopened.close();
    const last = readJsonl(file).at(-1);
    assert.equal(last?.type, "label", "pi's leaf is the label line; its path still ends at the same entry");
  });

  /** a → b, the leaf moved back to a (written as our marker entry), closed. */
  async function movedBack(): Promise<{ sm: SessionManager; a: string }> {
    const sm = await SessionManager.create("/p", tmp.dir);
    const a = sm.appendMessage(user("a"));
    sm.appendMessage(user("b"));
    sm.branch(a);
    await sm.close();
    return { sm, a };
  }

  test("our marker entries are plain pi custom entries", async () => {
    const { sm, a } = await movedBack();
    const marker = readJsonl(sm.getSessionFile() as string).at(-1) as Record<string, unknown>;
    assert.deepEqual(Object.keys(marker), ["type", "id", "parentId", "timestamp", "customType", "data"]);
    assert.equal(marker.type, "custom");
    assert.equal(marker.parentId, a);
    assert.deepEqual(marker.data, { targetId: a });
    assert.ok(fs.readFileSync(sm.getSessionFile() as string, "utf8").endsWith("\n"));
  });

  test("a session pi continued after our marker (its entry hangs off the marker) loads and resumes there", async () => {
    const { sm } = await movedBack();
    const file = sm.getSessionFile() as string;
    const marker = readJsonl(file).at(-1) as { id: string };
    const piEntry = {
      type: "message",
      id: "abcdef12",
      parentId: marker.id,
      timestamp: new Date().toISOString(),
      message: user("from pi"),
    };
    fs.appendFileSync(file, JSON.stringify(piEntry) + "\n");
    const re = await SessionManager.open(file);
    assert.equal(re.getLeafId(), "abcdef12");
    assert.deepEqual(
      re.buildSessionContext().messages.map((m) => m.role === "user" && m.content),
      ["a", "from pi"],
    );
    assert.equal(re.getCwd(), "/p");
    assert.equal(re.getLeafEntry()?.id, "abcdef12");
    await re.close();
  });
});
