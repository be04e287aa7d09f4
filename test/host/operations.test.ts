/**
 * The operations table: every row action of the context menu, every tree key and every palette command that
 * acts on the session reaches its one table entry, with the row's entry (or a picker from the palette); the
 * guards refuse with one wording and run nothing.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { CONTRIBUTED_COMMAND_IDS, type CommandId } from "../../src/host/common/command-ids.js";
import { routeWebviewMessage, type RouterDeps } from "../../src/host/views/message-router.js";
import type { SessionWork } from "../../src/core/agent/session-runs.js";
import { FilesLock } from "../../src/host/common/files-lock.js";
import { NO_SESSION_TEXT, STREAMING_TEXT } from "../../src/host/common/guard-texts.js";
import { hostOperations, type OperationActions } from "../../src/host/operations/host-operations.js";
import type { GuardState } from "../../src/host/operations/operation-guards.js";
import { Operations } from "../../src/host/operations/operations.js";
import type { AgentWebviewView } from "../../src/host/views/webview-view.js";
import { TREE_KEY_COMMANDS } from "../../src/shared/protocol.js";
import { freeState, recordingNotify } from "./operations-harness.js";

interface Manifest {
  contributes: {
    menus: Record<string, { command: string; when?: string }[]>;
  };
}
const manifest = JSON.parse(readFileSync(join(__dirname, "../../package.json"), "utf8")) as Manifest;

/** The row menu's commands (the tree's data-vscode-context items). */
const ROW_MENU = manifest.contributes.menus["webview/context"]
  .filter((m) => m.when?.includes("webviewSection == 'entry'") === true)
  .map((m) => m.command as CommandId);
/** Commands the palette hides (`when: false`). */
const HIDDEN_IN_PALETTE = new Set(
  (manifest.contributes.menus.commandPalette ?? []).filter((m) => m.when === "false").map((m) => m.command),
);

/** Records every call of every action as `name(args)`. */
function recordingActions(calls: string[]): OperationActions {
  const rec =
    (name: string) =>
    (...args: unknown[]): void =>
      void calls.push(`${name}(${args.map((a) => JSON.stringify(a) ?? "undefined").join(",")})`);
  /** A picker: records that it asked, and answers the entry "e2". */
  const picker =
    (name: string) =>
    async (...args: unknown[]): Promise<string> => {
      calls.push(`${name}(${args.map((a) => JSON.stringify(a)).join(",")})`);
      return "e2";
    };
  return {
    actions: {
      pickNode: picker("pickNode"),
      labelEntry: rec("labelEntry"),
      removeLabel: rec("removeLabel"),
      navigate: rec("navigate"),
      forkAt: rec("forkAt"),
      copyText: rec("copyText"),
      compact: rec("compact"),
      abort: rec("abort"),
    },
    archive: {
      archive: rec("archive"),
      unarchive: rec("unarchive"),
      deletePermanently: rec("deletePermanently"),
      pickArchived: picker("pickArchived"),
    },
    compare: {
      compareWithCurrent: rec("compareWithCurrent"),
      compareBranches: rec("compareBranches"),
      bringConclusions: rec("bringConclusions"),
      goToSource: rec("goToSource"),
    },
    files: {
      restoreFilesHere: rec("restoreFilesHere"),
      showChangesHere: rec("showChangesHere"),
      undoFileRestore: rec("undoFileRestore"),
    },
    exporter: { exportHtml: rec("exportHtml") },
    systemPrompt: { show: rec("showSystemPrompt") },
    parallel: {
      explore: rec("explore"),
      replay: rec("replay"),
      askAside: rec("askAside"),
      continueAsBranch: rec("continueAsBranch"),
      stopBranch: rec("stopBranch"),
      stopAll: rec("stopAll"),
      adopt: rec("adopt"),
      archiveOthers: rec("archiveOthers"),
    },
    watch: { watch: rec("watch"), back: rec("back"), leaveForSwitch: rec("leaveForSwitch"), isRunningRow: () => false },
    renameSession: rec("renameSession"),
    checks: { runAgain: rec("runAgain"), adoptBest: rec("adoptBest") },
  } as unknown as OperationActions;
}

/** The leaf's reply, as the session's run registry answers `busyAt` with it. */
const REPLY: SessionWork = { kind: "run", place: "leaf", label: "a reply", firstEntryId: undefined };

/** A state where `work` is at every entry (and below it). */
function busyWith(work: SessionWork): Partial<GuardState> {
  return { busyAt: () => work, busyWithin: () => work };
}

/** A writable session with an idle agent, unless `state` says otherwise. */
function setup(state: Partial<GuardState> = {}) {
  const calls: string[] = [];
  const said: string[] = [];
  const ran: string[] = [];
  const specs = hostOperations(recordingActions(calls)).map((spec) => ({
    ...spec,
    // Which table entry ran, and on what: the one place every way in must reach.
    run: (entryId: string | undefined, input?: string) => {
      ran.push(`${spec.id}:${entryId ?? "-"}`);
      return spec.run(entryId, input);
    },
  }));
  const operations = new Operations(specs, {
    state: freeState(state),
    notify: recordingNotify(said),
    ensureSession: async () => undefined,
    hasEntry: (id) => id === "e1",
  });
  const routerDeps = {
    controller: { hasEntry: (id: string) => id === "e1" },
    actions: {},
    operations,
    models: {},
    watch: { active: false },
    log: { warn: (m: string) => said.push(`log:${m}`), error: (m: string) => said.push(`log:${m}`) },
    ensureSession: async () => false,
    runCommand: async () => undefined,
  } as unknown as RouterDeps;
  const view = { kind: "tree", markReady: () => undefined } as unknown as AgentWebviewView;
  return { operations, routerDeps, view, calls, said, ran };
}

/** Runs `ids` one after the other on the row e1 under `state`: what was said, and which table entries ran. */
async function runOnRow(
  state: Partial<GuardState>,
  ids: readonly CommandId[],
): Promise<{ said: string[]; ran: string[] }> {
  const { operations, said, ran } = setup(state);
  for (const id of ids) await operations.run(id, "e1");
  return { said, ran };
}

/** A files lock that a file restore holds until `release`. */
function restoreRunning(): { files: FilesLock; release: () => void } {
  const files = new FilesLock();
  const release = files.acquire("file restore");
  assert.ok(release, "the lock was free");
  return { files, release };
}

/** What a refusal because of a running file restore says. */
const RESTORE_RUNNING = "info:A file restore is already in progress.";

/** The row menu's argument: the row's data-vscode-context object. */
const menuArg = { webviewSection: "entry", entryId: "e1", preventDefaultContextMenuItems: true };

test("every row menu item, tree key and palette command is one table entry of a contributed command", () => {
  const { operations } = setup();
  const ids = new Set(operations.ids());
  for (const id of [...ROW_MENU, ...TREE_KEY_COMMANDS]) assert.ok(ids.has(id), `${id} is in the operations table`);
  for (const id of ids) assert.ok((CONTRIBUTED_COMMAND_IDS as readonly string[]).includes(id), `${id} is contributed`);
  assert.ok(ROW_MENU.length >= 10, "the row menu was read from package.json");
});

test("each row action runs its one table entry from the menu, the keyboard and the palette", async () => {
  for (const id of ROW_MENU) {
    const spec = setup().operations.spec(id);
    assert.ok(spec);
    // The menu: the row's entry.
    const menu = setup();
    await menu.operations.handler(id)(menuArg);
    assert.deepEqual(menu.ran, [`${id}:e1`], `${id} from the row menu`);
    assert.equal(menu.calls.length, 1, `${id} ran one action`);
    // The keyboard: `tree/action` through the router, for the rows' keys.
    if ((TREE_KEY_COMMANDS as readonly string[]).includes(id)) {
      const key = setup();
      await routeWebviewMessage({ type: "tree/action", command: id, entryId: "e1" }, key.view, key.routerDeps);
      assert.deepEqual(key.ran, [`${id}:e1`], `${id} from its key`);
      assert.deepEqual(key.calls, menu.calls, `${id}: the key and the menu run the same action`);
    }
    // The palette: no argument; an operation that can pick asks for the entry (the picker answers e2), one that
    // acts at the leaf runs without one, a row-only one does nothing.
    const palette = setup();
    await palette.operations.handler(id)();
    if (spec.target === "entryOrPick")
      assert.deepEqual(palette.ran, [`${id}:${"pick" in spec ? "e2" : "-"}`], `${id} from the palette picks`);
    else {
      assert.deepEqual(palette.ran, [], `${id} needs a row`);
      assert.ok(HIDDEN_IN_PALETTE.has(id), `${id} needs a row, so the palette hides it`);
    }
  }
});

test("the keys that are no row menu item reach their table entries too", async () => {
  for (const id of TREE_KEY_COMMANDS) {
    const key = setup();
    await routeWebviewMessage({ type: "tree/action", command: id, entryId: "e1" }, key.view, key.routerDeps);
    assert.deepEqual(key.ran, [`${id}:e1`]);
  }
});

test("a menu argument naming no entry of the session runs nothing", async () => {
  const { operations, ran } = setup();
  await operations.handler("agentTree.switchHere")({ webviewSection: "entry", entryId: "other" });
  await operations.handler("agentTree.switchHere")(undefined);
  assert.deepEqual(ran, []);
});

test("the guards refuse once, with one wording, and nothing runs", async () => {
  const readOnly = setup({ readOnlyReason: () => "This session is open read-only." });
  await readOnly.operations.handler("agentTree.archiveBranch")(menuArg);
  await readOnly.operations.run("agentTree.copyText", "e1");
  assert.deepEqual(readOnly.said, ["warn:This session is open read-only."]);
  assert.deepEqual(readOnly.ran, ["agentTree.copyText:e1"], "reading needs no writable session");

  const streaming = await runOnRow(busyWith(REPLY), [
    "agentTree.switchHere",
    "agentTree.deleteBranch",
    "agentTree.restoreFilesHere",
    "agentTree.labelEntry",
  ]);
  assert.deepEqual(streaming.said, [`warn:${STREAMING_TEXT}`, `warn:${STREAMING_TEXT}`, `warn:${STREAMING_TEXT}`]);
  assert.deepEqual(streaming.ran, ["agentTree.labelEntry:e1"], "a label is written while a reply streams");

  const none = setup({ hasSession: () => false });
  await none.operations.run("agentTree.compareBranches");
  assert.deepEqual(none.said, [`info:${NO_SESSION_TEXT}`]);

  const restore = restoreRunning();
  const busy = await runOnRow({ files: restore.files }, [
    "agentTree.restoreFilesHere",
    "agentTree.switchHere",
    "agentTree.bringConclusionsHere",
    "agentTree.copyText",
  ]);
  assert.deepEqual(busy.said, Array(3).fill(RESTORE_RUNNING));
  assert.deepEqual(busy.ran, ["agentTree.copyText:e1"]);
  restore.release();
});

test("a click on a row moves through the same guards", async () => {
  const streaming = setup(busyWith(REPLY));
  await routeWebviewMessage({ type: "tree/navigate", entryId: "e1" }, streaming.view, streaming.routerDeps);
  assert.deepEqual(streaming.said, [`warn:${STREAMING_TEXT}`]);
  assert.deepEqual(streaming.calls, [], "nothing moved while a reply streams");

  const idle = setup();
  await routeWebviewMessage({ type: "tree/navigate", entryId: "e1", mode: "ask" }, idle.view, idle.routerDeps);
  assert.deepEqual(idle.ran, ["agentTree.goToEntry:e1"], "a click is the table's Go to Entry");
  assert.deepEqual(idle.calls, ['navigate("e1","ask")']);
});

test("Continue as Branch is a move: refused while the aside runs at the row, the main reply streams or files restore", async () => {
  const aside: SessionWork = { kind: "run", place: "off-leaf", label: "the aside", firstEntryId: "e1" };
  const running = await runOnRow({ busyAt: (id) => (id === "e1" ? aside : undefined) }, ["agentTree.continueAsBranch"]);
  assert.deepEqual(running.said, [
    "warn:The aside is running there: stop it (Agent: Stop Branch) or wait for it first.",
  ]);
  assert.deepEqual(running.ran, []);
  const streaming = await runOnRow(busyWith(REPLY), ["agentTree.continueAsBranch"]);
  assert.deepEqual(streaming.said, [`warn:${STREAMING_TEXT}`]);
  assert.deepEqual(streaming.ran, []);
  const restore = restoreRunning();
  const restoring = await runOnRow({ files: restore.files }, ["agentTree.continueAsBranch"]);
  assert.deepEqual(restoring.said, [RESTORE_RUNNING]);
  restore.release();
  const idle = await runOnRow({}, ["agentTree.continueAsBranch"]);
  assert.deepEqual(idle.ran, ["agentTree.continueAsBranch:e1"]);
});

test("the parallel branches' row actions declare their needs: Adopt This Branch takes the files, Explore and Replay do not", async () => {
  const restore = restoreRunning();
  const busy = await runOnRow({ files: restore.files }, [
    "agentTree.adoptBranch",
    "agentTree.exploreInParallel",
    "agentTree.replayWithModel",
    "agentTree.showSystemPrompt",
  ]);
  assert.deepEqual(busy.said, [RESTORE_RUNNING]);
  assert.deepEqual(busy.ran, [
    "agentTree.exploreInParallel:e1",
    "agentTree.replayWithModel:e1",
    "agentTree.showSystemPrompt:e1",
  ]);
  restore.release();

  const streaming = await runOnRow(busyWith(REPLY), [
    "agentTree.adoptBranch",
    "agentTree.exploreInParallel",
    "agentTree.replayWithModel",
    "agentTree.stopBranch",
  ]);
  assert.deepEqual(streaming.said, [`warn:${STREAMING_TEXT}`]);
  assert.deepEqual(streaming.ran, [
    "agentTree.exploreInParallel:e1",
    "agentTree.replayWithModel:e1",
    "agentTree.stopBranch:e1",
  ]);

  const readOnly = await runOnRow({ readOnlyReason: () => "This session is open read-only." }, [
    "agentTree.exploreInParallel",
    "agentTree.replayWithModel",
    "agentTree.adoptBranch",
    "agentTree.archiveOtherBranches",
    "agentTree.showSystemPrompt",
  ]);
  assert.deepEqual(readOnly.said, Array(4).fill("warn:This session is open read-only."));
  assert.deepEqual(readOnly.ran, ["agentTree.showSystemPrompt:e1"]);
});
