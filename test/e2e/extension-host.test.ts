/**
 * Runs the extension-host test suite (mocha, test/extension/**, compiled by `node esbuild.mjs --tests` into
 * dist/test/extension/index.js) inside a real VS Code: code-server with this repository as the extension under
 * development and the tests loaded through the workbench's development options, exactly like
 * `--extensionDevelopmentPath` / `--extensionTestsPath` (../util/development-options.ts: the same on every VS Code).
 * The runner's exit code arrives through `window.codeAutomationExit`; mocha's output through the browser
 * console. The same suite runs under @vscode/test-electron where VS Code can be downloaded
 * (scripts/test-electron.mjs).
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { format } from "node:util";
import { test } from "node:test";
import { generateDemo } from "../../demo/generate-demo.js";
import { REPO_ROOT, startCodeServer, workbenchUrl } from "../util/code-server.js";
import { serveDevelopmentOptions } from "../util/development-options.js";
import { extensionErrors } from "../util/extension-logs.js";
import { launchBrowser } from "../util/workbench.js";

const TESTS_ENTRY = join(REPO_ROOT, "dist", "test", "extension", "index.js");
const SUITE_TIMEOUT_MS = 5 * 60_000;
/** Workbench chatter that is not the suite's output. */
const NOISE =
  /Resolving connection token|Resolved connection token|Creating a socket|Failed to load resource|gallery|ECONNREFUSED 127\.0\.0\.1:9|^\s+at async |service worker|Service Worker|allow-scripts and allow-same-origin|web worker extension host|builtin extensions cache|ChatSessionStore|Overwriting extension|Creation of workbench contribution/;

/** The workbench forwards the extension host's console as ("%c INFO", css, format, ...args). */
function formatConsole(values: unknown[]): string | undefined {
  if (values.length === 0) return undefined;
  const [first, , ...rest] = values;
  if (typeof first === "string" && first.startsWith("%c") && rest.length > 0) return format(...rest);
  return format(...values);
}

test("extension-host mocha suite passes inside code-server", { timeout: SUITE_TIMEOUT_MS + 60_000 }, async () => {
  assert.ok(existsSync(join(REPO_ROOT, "dist", "extension.js")), "dist/extension.js missing: run `npm run build`");
  assert.ok(existsSync(TESTS_ENTRY), `${TESTS_ENTRY} missing: run \`node esbuild.mjs --tests\``);

  const tmp = mkdtempSync(join(tmpdir(), "agent-tree-exthost-"));
  // The suite gets a real folder with a session in it; the model URL is never called by it (it starts its own).
  const demo = generateDemo(join(tmp, "demo"), { baseUrl: "http://127.0.0.1:9/v1" });
  // The extension under development is this repository (VS Code runs extension tests only with one), not the .vsix.
  const server = await startCodeServer({ workspace: demo.workspace, extension: "none" });
  const context = await launchBrowser(join(tmp, "profile"));
  const lines: string[] = [];
  const pending: Promise<unknown>[] = [];
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.on("console", (msg) => {
      // Mocha's lines arrive as console.log("%c INFO", "color: …", "%s passing", …): format them like Node.
      pending.push(
        Promise.all(msg.args().map((a) => a.jsonValue().catch(() => "")))
          .then((values) => lines.push(formatConsole(values) ?? msg.text()))
          .catch(() => lines.push(msg.text())),
      );
    });
    const exitCode = new Promise<number>((resolve) => {
      void page.exposeFunction("codeAutomationExit", (code: number) => resolve(code));
    });
    await serveDevelopmentOptions(page, server, {
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: TESTS_ENTRY,
    });
    await page.goto(workbenchUrl(server, { folder: demo.workspace }), {
      waitUntil: "domcontentloaded",
      timeout: 60_000,
    });
    const timeout = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), SUITE_TIMEOUT_MS).unref());
    const result = await Promise.race([exitCode, timeout]);
    await Promise.all(pending);
    const output = lines.filter((l) => !NOISE.test(l)).join("\n");
    // Show mocha's report in the test output either way.
    console.log(output);
    assert.notEqual(result, "timeout", `the extension-host suite did not finish within ${SUITE_TIMEOUT_MS / 1000} s`);
    assert.equal(result, 0, `the extension-host suite failed (exit code ${String(result)}); mocha output above`);
    assert.match(output, /passing/, "mocha reported no passing tests");
    // Activation and the suite logged nothing against the extension. VS Code >= 1.101 reports a touch of Node's
    // `navigator` global as a deprecation (PendingMigrationError) of a development extension, which this run is:
    // the MCP SDK's zod probed it when the bundle loaded (see esbuild.mjs).
    assert.deepEqual(extensionErrors(server.runDir), [], "VS Code logged errors or deprecations against the extension");
  } finally {
    await context.close();
    await server.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});
