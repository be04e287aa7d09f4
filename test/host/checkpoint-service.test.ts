/**
 * The host's checkpoint service over the real engine: a real prompt (the fake OpenAI server through the real SDK
 * makes the model call `write`) is checkpointed and the tool result row gets its badge, in the snapshot and as
 * the turn streams in; the warm-up; the size cap setting; and one clear message when files cannot follow.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import { CHECKPOINT_ENTRY_TYPE } from "../../src/core/checkpoints/index.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { createWorkspaceTools } from "../../src/core/tools/index.js";
import { CANNOT_FOLLOW, CheckpointService, checkpointFolders } from "../../src/host/checkpoints/checkpoint-service.js";
import { decodeRows } from "../../src/core/rows/row-columns.js";
import { envWithoutGit, tempWorkspace, writeFiles } from "../core/checkpoints/helpers.js";
import { startFakeOpenAI, type FakeServer } from "../util/fake-openai-server.js";
import { createHarness, ofType, tick } from "./controller-harness.js";

let t: ReturnType<typeof tempWorkspace>;
let said: string[];
let fake: FakeServer;
before(async () => (fake = await startFakeOpenAI()));
after(async () => fake.close());
beforeEach(() => {
  t = tempWorkspace();
  said = [];
});
afterEach(() => t.cleanup());

function service(options: { maxFileBytes?: () => number; env?: NodeJS.ProcessEnv } = {}): CheckpointService {
  return new CheckpointService({
    folders: () => checkpointFolders([{ scheme: "file", path: t.ws }]),
    storageDir: t.store,
    maxFileBytes: options.maxFileBytes ?? (() => 5 * 1024 * 1024),
    ...(options.env ? { env: options.env } : {}),
    onUnavailable: (m) => said.push(m),
    log: () => undefined,
  });
}

/** Polls `get` until it returns something (bounded). */
async function eventually<T>(get: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await get();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("the host's checkpoints", { timeout: 120_000 }, () => {
  it("a turn that writes a file is checkpointed and its tool result row shows the count", async () => {
    writeFiles(t.ws, { "a.txt": "a\n" });
    const cps = service();
    const h = createHarness({
      fakeBaseURL: fake.baseURL,
      autoApprove: true,
      tools: createWorkspaceTools(t.ws),
      checkpoints: cps,
    });
    const sm = SessionManager.inMemory(t.ws);
    await h.controller.attach(sm);
    await h.controller.agent?.prompt('/tool write {"path": "hello.txt", "content": "hi\\n"}');
    await tick();
    assert.equal(fs.readFileSync(path.join(t.ws, "hello.txt"), "utf8"), "hi\n");
    const entries = sm.getEntries();
    const moments = entries
      .filter((e) => e.type === "custom" && e.customType === CHECKPOINT_ENTRY_TYPE)
      .map((e) => (e.type === "custom" ? (e.data as { moment: string }).moment : ""));
    assert.deepEqual(moments, ["prompt-start", "after-tools"]);
    const result = entries.find((e) => e.type === "message" && e.message.role === "toolResult");
    assert.ok(result);

    // Streamed in: the row went again with its badge once the checkpoint entry hanging off it was appended.
    const appended = ofType(h.tree, "tree/update").flatMap((u) => (u.rows ? decodeRows(u.rows) : []));
    assert.deepEqual(
      appended.filter((n) => n.id === result.id).map((n) => n.changedFiles),
      [undefined, 1],
    );
    // In a snapshot: only that row has a badge.
    h.controller.pushTree();
    const rows = decodeRows(ofType(h.tree, "tree/snapshot").at(-1)!.rows);
    assert.deepEqual(
      rows.filter((r) => r.changedFiles !== undefined).map((r) => [r.id, r.changedFiles]),
      [[result.id, 1]],
    );
    await h.controller.close();
  });

  it("warms up in the background: the first checkpoint is taken before any prompt", async () => {
    writeFiles(t.ws, { "a.txt": "a\n" });
    const cps = service();
    cps.warmUp();
    const engine = (await cps.workspace())?.engine(t.ws);
    assert.ok(engine);
    const id = await eventually(() => engine.latest(), "the warm-up checkpoint");
    assert.deepEqual(await engine.listFiles(id), ["a.txt"]);
    assert.deepEqual(said, []);
  });

  it("the size cap comes from the setting, and a changed setting applies after reset()", async () => {
    writeFiles(t.ws, { "small.txt": "s", "big.bin": Buffer.alloc(4096, 1) });
    let cap = 1024;
    const cps = service({ maxFileBytes: () => cap });
    const first = await (await cps.workspace())?.capture("test");
    assert.ok(first?.[0] && "result" in first[0]);
    assert.deepEqual(first[0].result.skipped, [{ path: "big.bin", reason: "too-large", size: 4096 }]);
    cap = 8192;
    cps.reset();
    const second = await (await cps.workspace())?.capture("test");
    assert.ok(second?.[0] && "result" in second[0]);
    assert.deepEqual(second[0].result.skipped, []);
    assert.deepEqual(
      second[0].result.changes.map((c) => c.path),
      ["big.bin"],
    );
  });

  it("without git: one clear message, and prompts go on without checkpoints", async () => {
    writeFiles(t.ws, { "a.txt": "a\n" });
    const cps = service({ env: envWithoutGit(t.root) });
    cps.warmUp();
    const sm = SessionManager.inMemory(t.ws);
    await cps.record("prompt-start", sm);
    await cps.record("after-tools", sm);
    assert.equal(sm.getEntryCount(), 0, "nothing is written to the session");
    assert.equal(said.length, 1, said.join(" | "));
    assert.match(said[0], new RegExp(`^${CANNOT_FOLLOW}`));
    assert.match(said[0], /git/);
    assert.deepEqual(cps.problems(), said);
  });
});

describe("which folders get checkpoints", () => {
  it("folders on disk do; none open or a virtual folder is said", () => {
    assert.deepEqual(checkpointFolders([{ scheme: "file", path: "/w/a" }]), { folders: ["/w/a"], problems: [] });
    const none = checkpointFolders([]);
    assert.deepEqual(none.folders, []);
    assert.match(none.problems[0], /no folder is open/);
    const mixed = checkpointFolders([
      { scheme: "file", path: "/w/a" },
      { scheme: "vscode-vfs", path: "vscode-vfs://github/x/y" },
    ]);
    assert.deepEqual(mixed.folders, ["/w/a"]);
    assert.match(mixed.problems[0], /vscode-vfs:\/\/github\/x\/y is not a folder on this machine's disk/);
  });
});
