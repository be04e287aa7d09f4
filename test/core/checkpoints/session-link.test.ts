/** Which checkpoint holds the files of an entry (the lookup rules), on entries written by hand. */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import {
  CHECKPOINT_ENTRY_TYPE,
  checkpointDataOf,
  findCheckpointForEntry,
  findPathCheckpoint,
  findTurnCheckpoints,
  restoreTargetsFor,
  type CheckpointEntryData,
  type CheckpointMoment,
} from "../../../src/core/checkpoints/index.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { assistant, user } from "../../util/session-builder.js";
import { tempDir } from "../../util/temp-dir.js";

const F = "/ws/one";
const G = "/ws/two";

function data(moment: CheckpointMoment, ...folders: [string, string][]): CheckpointEntryData {
  return {
    version: 1,
    moment,
    folders: folders.map(([folder, id]) => ({ folder, checkpointId: id, tree: `tree-${id}`, changed: 0, files: [] })),
  };
}

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.cleanup());

describe("finding the checkpoint of an entry", () => {
  it("uses the entry itself, else a checkpoint taken after its tools, else the nearest one above", async () => {
    const sm = await SessionManager.create("/ws", tmp.dir);
    const start = sm.appendCustomEntry(CHECKPOINT_ENTRY_TYPE, data("prompt-start", [F, "c0"], [G, "g0"]));
    const u = sm.appendMessage(user("go"));
    const call = sm.appendMessage(assistant("", [{ id: "t1", name: "write", args: {} }]));
    const result = sm.appendMessage(assistant("tool output stand-in"));
    const afterTools = sm.appendCustomEntry(CHECKPOINT_ENTRY_TYPE, data("after-tools", [F, "c1"]));
    const reply = sm.appendMessage(assistant("done"));
    const nextStart = sm.appendCustomEntry(CHECKPOINT_ENTRY_TYPE, data("prompt-start", [F, "c2"]));
    sm.appendMessage(user("next"));

    const at = (id: string, folder = F): string | undefined => findCheckpointForEntry(sm, id, folder)?.ref.checkpointId;
    assert.equal(at(start), "c0");
    assert.equal(at(u), "c0");
    assert.equal(at(call), "c0", "before its tools ran");
    assert.equal(at(result), "c1", "the checkpoint taken after the tool calls hangs off the result");
    assert.equal(at(reply), "c1");
    assert.equal(at(reply, G), "g0", "a folder the turn did not change keeps its earlier checkpoint");
    assert.equal(at(nextStart), "c2");
    assert.equal(findPathCheckpoint(sm, reply, F)?.entryId, afterTools);
    assert.equal(findPathCheckpoint(sm, call, F)?.entryId, start, "ancestors only");
    assert.deepEqual(restoreTargetsFor(sm, reply, [F, G, "/ws/unknown"]), [
      { folder: F, checkpointId: "c1" },
      { folder: G, checkpointId: "g0" },
    ]);
    await sm.close();
  });

  it("finds the checkpoints around a turn: when its prompt was sent, and at the entry", async () => {
    const sm = await SessionManager.create("/ws", tmp.dir);
    sm.appendCustomEntry(CHECKPOINT_ENTRY_TYPE, data("prompt-start", [F, "c0"]));
    const u = sm.appendMessage(user("go"));
    sm.appendMessage(assistant("", [{ id: "t1", name: "write", args: {} }]));
    sm.appendMessage(assistant("tool output stand-in"));
    sm.appendCustomEntry(CHECKPOINT_ENTRY_TYPE, data("after-tools", [F, "c1"]));
    sm.appendMessage(assistant("", [{ id: "t2", name: "write", args: {} }]));
    sm.appendMessage(assistant("second tool output"));
    sm.appendCustomEntry(CHECKPOINT_ENTRY_TYPE, data("after-tools", [F, "c2"]));
    const reply = sm.appendMessage(assistant("done"));
    const turn = findTurnCheckpoints(sm, reply, F);
    assert.equal(turn?.before.ref.checkpointId, "c0", "the files when the prompt was sent");
    assert.equal(turn?.after.ref.checkpointId, "c2", "the files after every tool batch of the turn");
    assert.equal(findTurnCheckpoints(sm, u, F)?.after.ref.checkpointId, "c0", "at the user message: no change");
    await sm.close();
  });

  it("a prompt-start checkpoint hanging off an entry belongs to the prompt after it, not to the entry", async () => {
    const sm = await SessionManager.create("/ws", tmp.dir);
    sm.appendCustomEntry(CHECKPOINT_ENTRY_TYPE, data("prompt-start", [F, "c0"]));
    const reply = sm.appendMessage(assistant("answer"));
    sm.appendCustomEntry(CHECKPOINT_ENTRY_TYPE, data("prompt-start", [F, "hand-edits"]));
    sm.appendMessage(user("follow-up"));
    assert.equal(findCheckpointForEntry(sm, reply, F)?.ref.checkpointId, "c0");
    await sm.close();
  });

  it("new entries below a looked-up one are found (the memo never goes stale)", async () => {
    const sm = await SessionManager.create("/ws", tmp.dir);
    const a = sm.appendMessage(user("a"));
    assert.equal(findPathCheckpoint(sm, a, F), undefined);
    sm.appendCustomEntry(CHECKPOINT_ENTRY_TYPE, data("prompt-start", [F, "late"]));
    const b = sm.appendMessage(user("b"));
    assert.equal(findPathCheckpoint(sm, b, F)?.ref.checkpointId, "late");
    assert.equal(findPathCheckpoint(sm, a, F), undefined);
    await sm.close();
  });

  it("ignores custom entries of other types and malformed checkpoint data", () => {
    const base = { id: "x", parentId: null, timestamp: "2025-01-01T00:00:00.000Z", type: "custom" as const };
    assert.equal(checkpointDataOf({ ...base, customType: "other", data: data("prompt-start", [F, "c"]) }), undefined);
    assert.equal(checkpointDataOf({ ...base, customType: CHECKPOINT_ENTRY_TYPE, data: { version: 2 } }), undefined);
    const partly = checkpointDataOf({
      ...base,
      customType: CHECKPOINT_ENTRY_TYPE,
      data: { version: 1, moment: "after-tools", folders: [{ folder: F }, data("after-tools", [F, "ok"]).folders[0]] },
    });
    assert.deepEqual(
      partly?.folders.map((f) => f.checkpointId),
      ["ok"],
    );
  });
});
