/**
 * Runs the extension-host test suite (mocha, test/extension/**) inside a real VS Code: code-server as published, with
 * Agent Tree installed from the .vsix of the current build like every suite, and beside it the test-runner extension
 * (test/extension-runner/, bundled with the suite by `node esbuild.mjs --tests` and packed into a .vsix of its own).
 * The runner starts when the workbench has started, runs the suite against the installed Agent Tree and writes
 * mocha's output and the result into a folder this test names in the server's environment (its protocol.ts). The
 * workbench page is the one the server sends, untouched. The same suite runs under @vscode/test-electron where
 * VS Code can be downloaded (scripts/test-electron.mjs).
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { test } from "node:test";
import { generateDemo } from "../../demo/generate-demo.js";
import {
  OUTPUT_FILE,
  RESULT_FILE,
  RESULTS_DIR_ENV,
  RUNNER_ID,
  type SuiteResult,
} from "../extension-runner/protocol.js";
import { CODE_SERVER, REPO_ROOT, sleep, startCodeServer, workbenchUrl } from "../util/code-server.js";
import { vscodeVersion } from "../util/code-server-install.js";
import { extensionErrors } from "../util/extension-logs.js";
import { launchBrowser } from "../util/workbench.js";

/** The runner's folder as `node esbuild.mjs --tests` leaves it: its package.json and bundle. */
const RUNNER_DIR = join(REPO_ROOT, "dist", "test", "extension-runner");
/** From the page's start to the result (start-up, activation, the suite; each test has mocha's 30 s too). */
const SUITE_TIMEOUT_MS = 5 * 60_000;

/** The runner's result once `dir` holds it, or undefined after `timeoutMs` (checked every 250 ms). */
async function waitForResult(dir: string, timeoutMs: number): Promise<SuiteResult | undefined> {
  const file = join(dir, RESULT_FILE);
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) return undefined;
    await sleep(250);
  }
  return JSON.parse(readFileSync(file, "utf8")) as SuiteResult;
}

test("extension-host mocha suite passes inside code-server", { timeout: SUITE_TIMEOUT_MS + 3 * 60_000 }, async () => {
  assert.ok(existsSync(join(REPO_ROOT, "dist", "extension.js")), "dist/extension.js missing: run `npm run build`");
  assert.ok(existsSync(join(RUNNER_DIR, "extension.js")), `${RUNNER_DIR} missing: run \`node esbuild.mjs --tests\``);

  const tmp = mkdtempSync(join(tmpdir(), "agent-tree-exthost-"));
  const results = join(tmp, "results");
  mkdirSync(results);
  // The suite gets a real folder with a session in it; the model URL is never called by it (it starts its own).
  const demo = generateDemo(join(tmp, "demo"), { baseUrl: "http://127.0.0.1:9/v1" });
  const server = await startCodeServer({
    workspace: demo.workspace,
    installExtensions: [{ folder: RUNNER_DIR }],
    // The extension host inherits the server's environment: this is what makes the runner run.
    env: { [RESULTS_DIR_ENV]: results },
  });
  const context = await launchBrowser(join(tmp, "profile"));
  try {
    assert.ok(server.extensionInstalled, "Agent Tree's .vsix is not installed in the run's extensions folder");
    // The extension host starts with the first window.
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(workbenchUrl(server, { folder: demo.workspace }), {
      waitUntil: "domcontentloaded",
      timeout: 60_000,
    });
    const result = await waitForResult(results, SUITE_TIMEOUT_MS);
    const outputFile = join(results, OUTPUT_FILE);
    const output = result?.output ?? (existsSync(outputFile) ? readFileSync(outputFile, "utf8") : "");
    // Show mocha's report in the test output either way.
    console.log(output);
    assert.ok(
      result,
      `the extension-host suite did not finish within ${SUITE_TIMEOUT_MS / 1000} s on code-server ` +
        `${CODE_SERVER.version}; mocha's output so far is above.\nThe runner's log entries:\n` +
        extensionErrors(server.runDir, RUNNER_ID).join("\n"),
    );
    assert.equal(result.error, undefined, `the suite could not run:\n${result.error}`);
    assert.equal(result.exitCode, 0, `${result.failures} extension test(s) failed; mocha's output is above`);
    assert.match(output, /\d+ passing/, "mocha reported no passing tests");
    // The suite ran in the VS Code under test, against the extension installed from the .vsix.
    assert.equal(result.vscodeVersion, vscodeVersion(CODE_SERVER));
    const extensions = resolve(server.runDir, "ext") + sep;
    assert.ok(
      result.extensionPath?.startsWith(extensions) &&
        relative(extensions, result.extensionPath).startsWith(`agent-tree.agent-tree-`),
      `Agent Tree was loaded from ${result.extensionPath}, not from the installed .vsix in ${extensions}`,
    );
    // Activation and the suite raised or logged nothing against the extension. The runner watched from before the
    // suite activated Agent Tree; VS Code >= 1.101 raises PendingMigrationError when an extension reads Node's
    // `navigator` global (the MCP SDK's zod did, when the bundle loaded: see esbuild.mjs), which it logs only for a
    // development extension, so the runner reports them.
    assert.equal(result.activeBeforeRunner, false, "Agent Tree was active before the runner could watch it");
    assert.deepEqual(result.migrationErrors, [], "Agent Tree raised PendingMigrationError (a deprecation in VS Code)");
    assert.deepEqual(extensionErrors(server.runDir), [], "VS Code logged errors or deprecations against the extension");
  } finally {
    await context.close();
    await server.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});
