/**
 * The .vsix a user installs: `scripts/package.sh` (what `npm run package` runs) in a staging copy of the
 * repository, then checks of what went in, then `code-server --install-extension` and a chat in the
 * installed (not development) extension. Staging keeps the production build out of this checkout's dist/.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { test } from "node:test";
import { generateDemo } from "../../demo/generate-demo.js";
import { chatView, sendPrompt, treeView, waitForLeaf } from "../util/agent-ui.js";
import { REPO_ROOT, installVsix, startCodeServer, workbenchUrl } from "../util/code-server.js";
import { startFakeOpenAI } from "../util/fake-openai-server.js";
import { expectVisible, launchBrowser, openViewContainer, openWorkbench, screenshot } from "../util/workbench.js";
import { zipEntries } from "../util/zip-entries.js";

/** Generous: the production build and vsce on a busy 2-core machine. */
const PACKAGE_TIMEOUT_MS = 5 * 60_000;
/** A .vsix above this would mean node_modules or sources slipped in. */
const MAX_VSIX_BYTES = 3 * 1024 * 1024;

/** A copy of what packaging reads; sources and node_modules are linked, not copied. */
function stage(dir: string): void {
  for (const f of ["package.json", "README.md", "CHANGELOG.md", "LICENSE", ".vscodeignore", "esbuild.mjs"]) {
    if (existsSync(join(REPO_ROOT, f))) cpSync(join(REPO_ROOT, f), join(dir, f));
  }
  for (const d of ["media", "scripts"]) cpSync(join(REPO_ROOT, d), join(dir, d), { recursive: true });
  if (existsSync(join(REPO_ROOT, "docs", "screenshot.png"))) {
    mkdirSync(join(dir, "docs"));
    cpSync(join(REPO_ROOT, "docs", "screenshot.png"), join(dir, "docs", "screenshot.png"));
  }
  for (const d of ["src", "webview", "node_modules"]) symlinkSync(join(REPO_ROOT, d), join(dir, d), "dir");
}

test(
  "npm run package builds a lean .vsix that installs and chats",
  { timeout: PACKAGE_TIMEOUT_MS + 3 * 60_000 },
  async () => {
    const tmp = mkdtempSync(join(tmpdir(), "agent-tree-vsix-"));
    const fake = await startFakeOpenAI();
    try {
      const staging = join(tmp, "repo");
      mkdirSync(staging);
      stage(staging);
      const built = spawnSync("bash", ["scripts/package.sh"], {
        cwd: staging,
        encoding: "utf8",
        timeout: PACKAGE_TIMEOUT_MS,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const log = `${built.stdout}${built.stderr}`;
      assert.equal(built.status, 0, `scripts/package.sh failed:\n${log}`);
      assert.doesNotMatch(log, /WARNING/, "vsce warned");
      const vsix = readdirSync(staging).find((f) => f.endsWith(".vsix"));
      assert.ok(vsix, `no .vsix produced:\n${log}`);
      const vsixPath = join(staging, vsix);
      const size = statSync(vsixPath).size;
      console.log(`# ${vsix}: ${size} bytes (${Math.round(size / 1024)} KiB)`);
      assert.ok(
        size < MAX_VSIX_BYTES,
        `${vsix} is ${size} bytes; more than ${MAX_VSIX_BYTES} means something slipped in`,
      );

      const entries = zipEntries(vsixPath);
      for (const needed of [
        "extension/package.json",
        "extension/dist/extension.js",
        "extension/dist/tools/html-worker.mjs",
        "extension/dist/tools/html-to-markdown.mjs",
        "extension/dist/tools/http-fetch.mjs",
        "extension/dist/tools/shell-parts.mjs",
        "extension/dist/tools/web-tree-sitter.wasm",
        "extension/dist/tools/tree-sitter-bash.wasm",
        "extension/dist/webview.js",
        "extension/dist/compare.js",
        "extension/dist/compare.css",
        "extension/readme.md",
        "extension/changelog.md",
        "extension/media/icon.png",
      ]) {
        assert.ok(entries.includes(needed), `${needed} missing from the .vsix`);
      }
      // Every file the production build wrote is there: the bundles loaded later (the model library's chunks, the
      // tools' lazy parts, the grammars) are not reached by activation, so a pattern missing from .vscodeignore would
      // only show when a user first needs one.
      const distFiles = readdirSync(join(staging, "dist"), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && !e.name.endsWith(".map"))
        .map((e) => relative(staging, join(e.parentPath, e.name)).split(sep).join("/"));
      assert.ok(distFiles.length > 10, `the build wrote only ${distFiles.join(", ")}`);
      assert.deepEqual(
        distFiles.filter((f) => !entries.includes(`extension/${f}`)),
        [],
        "built files missing from the .vsix",
      );
      const leaked = entries.filter((e) =>
        /(^|\/)(node_modules|src|test|bench|e2e-server|scripts|webview)\/|\.map$|\.ts$/.test(
          e.replace(/^extension\//, ""),
        ),
      );
      assert.deepEqual(leaked, [], "sources, tests, maps or node_modules were packaged");

      // Install it like a user and chat in the installed extension (no development payload).
      const demo = generateDemo(join(tmp, "demo"), { baseUrl: fake.baseURL });
      const runDir = join(tmp, "cs");
      installVsix(runDir, vsixPath);
      // The run's extensions folder holds the .vsix just built; the harness must not install the current build's.
      const server = await startCodeServer({ workspace: demo.workspace, runDir, extension: "none" });
      const context = await launchBrowser(join(tmp, "profile"));
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        await openWorkbench(page, workbenchUrl(server, { folder: demo.workspace }));
        await openViewContainer(page, "Agent");
        const tree = await treeView(page);
        await waitForLeaf(tree, demo.leafId, "the installed extension to show the demo session");
        const chat = await chatView(page);
        await sendPrompt(chat, "Hello from the vsix.");
        await expectVisible(
          chat.getByText("Echo: Hello from the vsix."),
          "the reply in the installed extension",
          60_000,
        );
        assert.ok(
          fake.requests.some((r) => JSON.stringify(r.messages).includes("Hello from the vsix.")),
          "the installed extension did not call the model",
        );
        await screenshot(page, "vsix-installed");
      } finally {
        await context.close();
        await server.stop();
      }
    } finally {
      await fake.close();
      rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
    }
  },
);
