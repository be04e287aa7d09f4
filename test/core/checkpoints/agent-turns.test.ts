/**
 * Real turns: the model (a fake OpenAI server through the real SDK) calls the real workspace tools — write, edit,
 * bash — while AgentSession's checkpoint hook records the files; the user edits by hand between turns; the tree
 * gets three branches and the files are restored back and forth between them, with undo. The session stays what
 * pi reads: the same context, the same resume point.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  CHECKPOINT_ENTRY_TYPE,
  WorkspaceCheckpoints,
  checkpointDataOf,
  findCheckpointForEntry,
  findTurnCheckpoints,
  restoreTargetsFor,
} from "../../../src/core/checkpoints/index.js";
import { buildContextFromEntries } from "../../../src/core/session/context.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import type { SessionEntry } from "../../../src/core/session/types.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { newAgent } from "../agent/helpers.js";
import { piLeafPath } from "../session/helpers.js";
import { checkpointedAgent, folderPicture, read, tempWorkspacePerTest, writeFiles } from "./helpers.js";

const fake = fakeServerForSuite();
const t = tempWorkspacePerTest();

async function setUp(maxTurns?: number): Promise<{
  sm: SessionManager;
  cps: WorkspaceCheckpoints;
  agent: ReturnType<typeof newAgent>["agent"];
  errors: string[];
}> {
  const { sm, cps, agent } = await checkpointedAgent(t, fake, maxTurns ? { maxTurns } : {});
  const errors: string[] = [];
  agent.subscribe((e) => {
    if (e.type === "error") errors.push(`${e.source}: ${e.error}`);
  });
  return { sm, cps, agent, errors };
}

/** One prompt whose reply runs `calls` (one model reply each) and then says "done". */
async function turn(
  agent: ReturnType<typeof newAgent>["agent"],
  prompt: string,
  ...calls: { name: string; args: Record<string, unknown> }[][]
): Promise<void> {
  fake.enqueue(...calls.map((batch) => ({ toolCalls: batch })), { text: `done: ${prompt}` });
  await agent.prompt(prompt);
}

function checkpointEntries(sm: SessionManager): SessionEntry[] {
  return sm.getEntries().filter((e) => checkpointDataOf(e) !== undefined);
}

function kinds(entries: SessionEntry[]): string[] {
  return entries.map((e) =>
    e.type === "message"
      ? e.message.role
      : e.type === "custom" && e.customType === CHECKPOINT_ENTRY_TYPE
        ? `checkpoint:${checkpointDataOf(e)?.moment}`
        : e.type,
  );
}

/** Restores the files of `entryId` (as the host will on a branch switch) and moves the conversation there. */
async function switchTo(
  sm: SessionManager,
  cps: WorkspaceCheckpoints,
  agent: ReturnType<typeof newAgent>["agent"],
  entryId: string,
): Promise<void> {
  const targets = restoreTargetsFor(sm, entryId, cps.folders());
  assert.equal(targets.length, 1, "every node of these sessions has its files recorded");
  await cps.restore(targets);
  const result = await agent.navigateTree(entryId);
  assert.ok(result.kind === "moved", result.kind);
}

function lastAssistantId(sm: SessionManager): string {
  const leaf = sm.getLeafEntry();
  assert.ok(leaf?.type === "message" && leaf.message.role === "assistant", "the leaf is the model's reply");
  return leaf.id;
}

describe("files follow the tree through real turns", { timeout: 120_000 }, () => {
  it("records each turn, captures edits by hand, and restores back and forth across three branches", async () => {
    writeFiles(t.ws, { "app.txt": "v0\n", "notes/keep.md": "notes\n" });
    const { sm, cps, agent, errors } = await setUp();
    const initial = folderPicture(t.ws);

    // Branch A, turn 1: the model writes a file.
    await turn(agent, "write hello", [{ name: "write", args: { path: "hello.txt", content: "A1\n" } }]);
    assert.equal(read(t.ws, "hello.txt"), "A1\n");
    assert.deepEqual(kinds(sm.getPath()), [
      "checkpoint:prompt-start",
      "user",
      "assistant",
      "toolResult",
      "checkpoint:after-tools",
      "assistant",
    ]);
    const a1 = lastAssistantId(sm);
    const afterA1 = folderPicture(t.ws);
    const a1Checkpoint = checkpointDataOf(sm.getEntry(sm.getPath().at(-2)!.id));
    assert.deepEqual(a1Checkpoint?.folders[0].files, [{ path: "hello.txt", status: "added" }]);
    assert.equal(a1Checkpoint?.folders[0].changed, 1);

    // The user edits by hand; turn 2 edits, deletes, renames and creates through edit and bash.
    writeFiles(t.ws, { "app.txt": "v1 by hand\n" });
    await turn(
      agent,
      "rework",
      [{ name: "edit", args: { path: "app.txt", oldText: "v1 by hand", newText: "v2 by the agent" } }],
      [
        {
          name: "bash",
          args: { command: "rm hello.txt && mv app.txt main.txt && mkdir -p out && echo built > out/x.txt" },
        },
      ],
    );
    const promptStarts = sm.getPath().filter((e) => checkpointDataOf(e)?.moment === "prompt-start");
    assert.equal(promptStarts.length, 2);
    assert.deepEqual(
      checkpointDataOf(promptStarts[1])?.folders[0].files,
      [{ path: "app.txt", status: "modified" }],
      "the hand edit is recorded before the prompt that builds on it",
    );
    assert.equal(read(t.ws, "main.txt"), "v2 by the agent\n");
    assert.equal(read(t.ws, "hello.txt"), undefined);
    const a2 = lastAssistantId(sm);
    const afterA2 = folderPicture(t.ws);
    // What the whole turn changed (the host's "Show Changes at This Point"), across its three tool batches.
    const turn2 = findTurnCheckpoints(sm, a2, cps.folders()[0]);
    assert.ok(turn2);
    const turn2Changes = await cps.engine(t.ws)!.diff(turn2.before.ref.checkpointId, turn2.after.ref.checkpointId);
    assert.deepEqual(turn2Changes.map((c) => `${c.status} ${c.path}`).sort(), [
      "added main.txt",
      "added out/x.txt",
      "deleted app.txt",
      "deleted hello.txt",
    ]);
    assert.equal(
      kinds(sm.getPath()).filter((k) => k === "checkpoint:after-tools").length,
      3,
      "one checkpoint after each tool batch that changed files",
    );

    // Branch B from the end of turn 1: the files go back to just after turn 1 (the hand edit came later).
    await switchTo(sm, cps, agent, a1);
    assert.deepEqual(folderPicture(t.ws), afterA1);
    await turn(agent, "write B", [{ name: "write", args: { path: "hello.txt", content: "B\n" } }]);
    const b = lastAssistantId(sm);
    const afterB = folderPicture(t.ws);

    // Branch C from the first prompt ("edit and resend" it): the files are the initial ones.
    const firstUser = sm.getPath().find((e) => e.type === "message" && e.message.role === "user");
    assert.ok(firstUser);
    await switchTo(sm, cps, agent, firstUser.id);
    assert.deepEqual(folderPicture(t.ws), initial);
    await turn(agent, "bash C", [{ name: "bash", args: { command: "echo C > c.txt && chmod +x c.txt" } }]);
    const c = lastAssistantId(sm);
    const afterC = folderPicture(t.ws);

    // Back and forth between the three leaves.
    for (const [leaf, picture] of [
      [a2, afterA2],
      [b, afterB],
      [c, afterC],
      [a2, afterA2],
      [a1, afterA1],
    ] as const) {
      await switchTo(sm, cps, agent, leaf);
      assert.deepEqual(folderPicture(t.ws), picture);
    }

    // Undo the last restore: the files of branch A's leaf come back.
    await cps.undoRestore();
    assert.deepEqual(folderPicture(t.ws), afterA2);
    assert.deepEqual(errors, []);
    await sm.close();
  });

  it("keeps the session as pi reads it: same context, checkpoint entries never the leaf, kept by forks", async () => {
    writeFiles(t.ws, { "app.txt": "v0\n" });
    const { sm, cps, agent } = await setUp();
    await turn(agent, "one", [{ name: "write", args: { path: "a.txt", content: "1" } }]);
    await turn(agent, "two", [{ name: "edit", args: { path: "a.txt", oldText: "1", newText: "2" } }]);
    const file = sm.getSessionFile() as string;

    const leaf = sm.getLeafEntry();
    assert.ok(leaf?.type === "message", "the leaf is a message, not a checkpoint entry");
    const ours = sm.buildSessionContext();
    assert.deepEqual(
      buildContextFromEntries(piLeafPath(file) as unknown as SessionEntry[]),
      ours,
      "pi resumes at the same point with the same context",
    );
    const withoutCheckpoints = buildContextFromEntries(sm.getPath().filter((e) => checkpointDataOf(e) === undefined));
    assert.deepEqual(ours.messages, withoutCheckpoints.messages, "checkpoint entries add nothing to the context");

    const forkFile = await sm.createBranchedSession(sm.getLeafId());
    assert.ok(forkFile, "a file-backed session forks into a file");
    const fork = await SessionManager.open(forkFile);
    assert.equal(checkpointEntries(fork).length, checkpointEntries(sm).length, "the fork keeps every link");
    assert.deepEqual(
      restoreTargetsFor(fork, fork.getLeafId() as string, cps.folders()),
      restoreTargetsFor(sm, sm.getLeafId() as string, cps.folders()),
    );
    await fork.close();
    await sm.close();
  });

  it("records tool changes no model call followed and moves the leaf back to content", async () => {
    const { sm, cps, agent } = await setUp(1);
    fake.enqueue({ toolCalls: [{ name: "write", args: { path: "late.txt", content: "late" } }] });
    await agent.prompt("write and stop");
    const leaf = sm.getLeafEntry();
    assert.ok(leaf?.type === "message" && leaf.message.role === "toolResult", "the leaf is the tool result");
    const found = findCheckpointForEntry(sm, leaf.id, cps.folders()[0]);
    const data = checkpointDataOf(sm.getEntry(found!.entryId));
    assert.equal(data?.moment, "prompt-end");
    assert.deepEqual(data?.folders[0].files, [{ path: "late.txt", status: "added" }]);
    // A reload resumes at the tool result too.
    await sm.close();
    const again = await SessionManager.open(sm.getSessionFile() as string);
    assert.equal(again.getLeafId(), leaf.id);
    await again.close();
  });

  it("a prompt that changes no file adds no checkpoint entry after the first", async () => {
    writeFiles(t.ws, { "a.txt": "a" });
    const { sm, agent } = await setUp();
    await agent.prompt("just talk");
    await agent.prompt("talk again");
    fake.enqueue({ toolCalls: [{ name: "read", args: { path: "a.txt" } }] }, { text: "read it" });
    await agent.prompt("read only");
    assert.deepEqual(
      checkpointEntries(sm).map((e) => checkpointDataOf(e)?.moment),
      ["prompt-start"],
    );
    await sm.close();
  });
});
