/**
 * One way in: a slash command that acts on the session runs its operation of the table, so it is refused exactly as
 * its palette command is — same guard, same wording, nothing run — whatever keeps it from starting (no session, a
 * read-only session, a reply streaming, the workspace's files in use, a branch switch in progress).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { SessionWork } from "../../src/core/agent/session-runs.js";
import { SLASH_COMMANDS, slashCommandContext } from "../../src/host/chat-input/slash-commands.js";
import type { CommandId } from "../../src/host/common/command-ids.js";
import { FilesLock } from "../../src/host/common/files-lock.js";
import type { GuardState } from "../../src/host/operations/operation-guards.js";
import { freeState, operationsOver, recordingActions } from "./operations-harness.js";
import { recordingPi } from "./slash-harness.js";

/** The table over recording actions, under `state`: what is said, and which actions ran. */
function table(state: Partial<GuardState>) {
  const said: string[] = [];
  const calls: string[] = [];
  const actions = recordingActions(calls, { isRunningRow: () => false });
  return { operations: operationsOver(actions, freeState(state), said), said, calls };
}

/** The command each slash command runs, with the text it was typed with. */
async function slashTargets(): Promise<{ name: string; id: CommandId; args: string }[]> {
  const out: { name: string; id: CommandId; args: string }[] = [];
  for (const c of SLASH_COMMANDS) {
    // An optional argument left out: `/export` without a path is the palette's export (with one, pi's file export).
    const args = c.argumentHint?.startsWith("<") ? "some text" : "";
    await c.run(args, {
      runCommand: async (id) => void out.push({ name: c.name, id, args }),
      focusTree: async () => undefined,
      pi: recordingPi([]),
    });
  }
  return out;
}

const heldFiles = (): FilesLock => {
  const lock = new FilesLock();
  lock.acquire("file restore");
  return lock;
};
const reply: SessionWork = { kind: "run", place: "leaf", label: "a reply", firstEntryId: undefined };
const switching: SessionWork = { kind: "operation", place: "leaf", label: "a branch switch", firstEntryId: undefined };

const STATES: Record<string, Partial<GuardState>> = {
  "no session": { hasSession: () => false },
  "read-only": { readOnlyReason: () => "This session is open read-only: another window writes it." },
  "a reply streaming": { busyAt: () => reply, busyWithin: () => reply },
  "a branch switch in progress": { busyAt: () => switching, busyWithin: () => switching },
  "the files in use": { files: heldFiles() },
};

test("a slash command is refused exactly as its palette command is, and runs nothing", async () => {
  const targets = (await slashTargets()).filter((t) => table({}).operations.spec(t.id));
  assert.deepEqual(
    targets.map((t) => `/${t.name}`),
    ["/compact", "/name", "/export", "/explore", "/aside"],
    "the slash commands that act on the session run operations of the table",
  );
  let refusals = 0;
  for (const [why, state] of Object.entries(STATES)) {
    for (const t of targets) {
      const palette = table(state);
      await palette.operations.handler(t.id)();
      const chat = table(state);
      const executed: string[] = [];
      const ctx = slashCommandContext({
        operations: chat.operations,
        executeCommand: async (id) => void executed.push(id),
        focusTree: async () => undefined,
        pi: recordingPi([]),
      });
      const command = SLASH_COMMANDS.find((c) => c.name === t.name);
      assert.ok(command);
      await command.run(t.args, ctx);
      assert.deepEqual(chat.said, palette.said, `/${t.name} with ${why}: said as its palette command says it`);
      assert.deepEqual(executed, [], `/${t.name} went through the table, not around it`);
      if (palette.said.length > 0) {
        refusals++;
        assert.equal(palette.said.length, 1, `/${t.name} with ${why}: said once`);
        assert.deepEqual(chat.calls, [], `/${t.name} with ${why}: nothing ran`);
        assert.deepEqual(palette.calls, []);
      }
    }
  }
  assert.ok(refusals >= 10, `the states refused most of them (${refusals})`);
});

test("a slash command the guards let through runs its operation with the text typed after it", async () => {
  const chat = table({});
  const ctx = slashCommandContext({
    operations: chat.operations,
    executeCommand: async () => assert.fail("an operation runs through the table"),
    focusTree: async () => undefined,
    pi: recordingPi([]),
  });
  for (const [name, args] of [
    ["compact", "keep the API notes"],
    ["aside", "why?"],
    ["explore", "three ways"],
    ["name", "Release plan"],
  ] as const) {
    const command = SLASH_COMMANDS.find((c) => c.name === name);
    assert.ok(command);
    await command.run(args, ctx);
  }
  assert.deepEqual(chat.calls, [
    'compact("keep the API notes")',
    'askAside("why?")',
    'explore(,"three ways")',
    'renameSession("Release plan")',
  ]);
});
