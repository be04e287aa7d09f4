/**
 * `npm start` as the README describes it: the long-running part (scripts/start.ts; the build it is preceded
 * by has run in `npm test`'s build stage) generates the demo, starts the fake model and code-server, and
 * prints the URL; the page opens with the Agent view already showing the sample session, and chatting works
 * without a key. Ctrl+C (SIGINT) stops everything.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { DEMO_IDS } from "../../demo/generate-demo.js";
import { chatView, sendPrompt, treeView, waitForLeaf } from "../util/agent-ui.js";
import { REPO_ROOT, freePort, sleep } from "../util/code-server.js";
import { expectVisible, launchBrowser, openWorkbench, screenshot } from "../util/workbench.js";

test("npm start serves the demo session with a working chat and stops on Ctrl+C", { timeout: 4 * 60_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), "agent-tree-start-"));
  const demoDir = join(tmp, "demo");
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, AGENT_TREE_DEMO_DIR: demoDir, PORT: String(port) },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  const context = await launchBrowser(join(tmp, "profile"));
  try {
    let url: string | undefined;
    for (let i = 0; i < 240 && !url; i++) {
      url = /VS Code \(code-server\):\s+(http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(out)?.[1];
      if (!url) await sleep(250);
      if (child.exitCode !== null) break;
    }
    assert.ok(url, `npm start printed no URL within 60 s. Output:\n${out}`);
    assert.ok(url.startsWith(`http://127.0.0.1:${port}/`), `not on the requested port: ${url}`);
    assert.ok(existsSync(join(demoDir, "workspace", ".vscode", "settings.json")), "no demo workspace settings");

    const page = context.pages()[0] ?? (await context.newPage());
    await openWorkbench(page, url);
    // No click on the activity bar: the Agent view opens by itself on the sample session.
    const tree = await treeView(page);
    await waitForLeaf(tree, DEMO_IDS.leaf, "the sample session's leaf");
    const chat = await chatView(page);
    await sendPrompt(chat, "Hello demo.");
    await expectVisible(chat.getByText("Echo: Hello demo."), "the fake model's reply", 60_000);
    await screenshot(page, "start-demo");
  } finally {
    await context.close();
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, "SIGINT");
    const code = await Promise.race([exited, sleep(20_000).then(() => "timeout" as const)]);
    if (code === "timeout" && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
    assert.equal(code, 0, `npm start did not stop cleanly on SIGINT. Output:\n${out}`);
  }
});
