/** The export flow with a fake UI against the real core: the page is written under a progress, then offered. */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { runExportFlow, type ExportUi } from "../../src/host/export/export-flow.js";
import { assistant, user } from "../util/session-builder.js";
import { tempDir } from "../util/temp-dir.js";

const tmp = tempDir("agent-tree-export-flow-");
after(() => tmp.cleanup());

class FakeExportUi implements ExportUi {
  calls: string[] = [];
  errors: string[] = [];
  constructor(
    private readonly target: string | undefined,
    private readonly accept = false,
  ) {}
  async pickTarget(title: string, defaultName: string): Promise<string | undefined> {
    this.calls.push(`pick ${title} ${defaultName}`);
    return this.target;
  }
  async withProgress<T>(title: string, task: () => Promise<T>): Promise<T> {
    this.calls.push(`progress ${title}`);
    const result = await task();
    this.calls.push(`progress done, file ${this.target && existsSync(this.target) ? "written" : "absent"}`);
    return result;
  }
  async offerOpen(message: string): Promise<boolean> {
    this.calls.push(`offer ${message}`);
    return this.accept;
  }
  async open(file: string): Promise<void> {
    this.calls.push(`open ${file}`);
  }
  error(title: string, err: unknown): void {
    this.errors.push(`${title}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function session(): SessionManager {
  const sm = SessionManager.inMemory("/ws");
  sm.appendMessage(user("hello", 1));
  sm.appendMessage(assistant("EXPORTED ANSWER"));
  return sm;
}

function assets(): string {
  const dir = join(tmp.dir, "dist");
  if (!existsSync(dir)) {
    mkdirSync(dir);
    writeFileSync(join(dir, "export.js"), "document.body.dataset.ready = 'true';");
  }
  return dir;
}

test("the page is written under a progress, then offered to open", async () => {
  const sm = session();
  const file = join(tmp.dir, "out.html");
  const ui = new FakeExportUi(file, true);
  const written = await runExportFlow(sm, ui, { branchOnly: false, assetsDir: assets() });
  assert.equal(written, file);
  assert.match(readFileSync(file, "utf8"), /EXPORTED ANSWER/);
  assert.deepEqual(ui.calls.slice(0, 3), [
    `pick Export Session to HTML session-${sm.getSessionId()}.html`,
    "progress Exporting the session to HTML…",
    "progress done, file written",
  ]);
  assert.match(ui.calls[3], /^offer Exported \d+ KB to .*out\.html\.$/);
  assert.equal(ui.calls[4], `open ${file}`);
  assert.deepEqual(ui.errors, []);
});

test("cancelling the save dialog writes nothing; a failed export says why and leaves no file", async () => {
  const sm = session();
  const none = new FakeExportUi(undefined);
  assert.equal(await runExportFlow(sm, none, { branchOnly: true, assetsDir: assets() }), undefined);
  assert.deepEqual(none.calls, [`pick Export Branch to HTML session-${sm.getSessionId()}.html`]);

  const dir = join(tmp.dir, "failing");
  mkdirSync(dir);
  const file = join(dir, "out.html");
  const ui = new FakeExportUi(file, true);
  const r = await runExportFlow(sm, ui, { branchOnly: false, assetsDir: join(tmp.dir, "no-dist") });
  assert.equal(r, undefined);
  assert.equal(ui.errors.length, 1);
  assert.match(ui.errors[0], /^Export failed: Cannot export: the page script .* is missing/);
  assert.deepEqual(readdirSync(dir), [], "no page and no temporary file");
  assert.ok(!ui.calls.some((c) => c.startsWith("offer")));
});

test("the agent's current system prompt goes into the page of a session recording none; its failure fails nothing", async () => {
  const sm = session();
  const file = join(tmp.dir, "current.html");
  await runExportFlow(sm, new FakeExportUi(file), {
    branchOnly: false,
    assetsDir: assets(),
    currentSystemPrompt: async () => "CURRENT AGENT PROMPT",
  });
  assert.match(readFileSync(file, "utf8"), /"currentSystemPrompt":"CURRENT AGENT PROMPT"/);

  const failing = join(tmp.dir, "current-failing.html");
  const ui = new FakeExportUi(failing);
  const written = await runExportFlow(sm, ui, {
    branchOnly: false,
    assetsDir: assets(),
    currentSystemPrompt: async () => {
      throw new Error("AGENTS.md unreadable");
    },
  });
  assert.equal(written, failing);
  assert.deepEqual(ui.errors, []);
  assert.doesNotMatch(readFileSync(failing, "utf8"), /currentSystemPrompt/);

  // Recorded in the session: the recorded one is the page's, the current one is not kept.
  sm.appendMessage({ role: "system", content: "RECORDED", timestamp: 2 });
  const recorded = join(tmp.dir, "current-recorded.html");
  await runExportFlow(sm, new FakeExportUi(recorded), {
    branchOnly: false,
    assetsDir: assets(),
    currentSystemPrompt: async () => "CURRENT AGENT PROMPT",
  });
  assert.doesNotMatch(readFileSync(recorded, "utf8"), /CURRENT AGENT PROMPT/);
});
