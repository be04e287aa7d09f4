/**
 * The test-runner extension: installed from its own .vsix next to Agent Tree's by test/e2e/extension-host.test.ts,
 * it runs the mocha suite of test/extension/ in the extension host against the installed Agent Tree and writes what
 * happened into the folder the test names (./protocol.ts). VS Code's own way to run extension tests
 * (`--extensionTestsPath`) needs an extension under development and the workbench's development options, which
 * code-server as published takes from the URL only up to VS Code 1.132 (later ones want --enable-smoke-test-driver,
 * which code-server does not offer); an installed extension that runs the tests itself needs neither, on every
 * version. Without the environment variable it does nothing, so it is inert wherever else it is installed. Bundled
 * with mocha and the tests by `node esbuild.mjs --tests` into dist/test/extension-runner/.
 */
import { appendFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { EXTENSION_ID } from "../extension/helpers.js";
import { runSuite } from "../extension/index.js";
import { watchMigrationErrors } from "./migration-errors.js";
import { OUTPUT_FILE, RESULT_FILE, RESULTS_DIR_ENV, type SuiteResult } from "./protocol.js";

/** Starts the suite when the test asked for it (`activationEvents`: onStartupFinished). */
export function activate(): void {
  const dir = process.env[RESULTS_DIR_ENV];
  if (!dir) return;
  // Not awaited: the suite activates Agent Tree and runs for a while; this extension's activation need not wait.
  void runAndReport(dir);
}

/** Runs the suite once and writes its output and result into `dir`. */
async function runAndReport(dir: string): Promise<void> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  // Watch before the suite activates Agent Tree, so what its bundle does as it loads is seen too.
  const activeBeforeRunner = extension?.isActive ?? false;
  const watcher = extension ? watchMigrationErrors(extension.extensionPath) : undefined;
  const lines: string[] = [];
  const log = (line: string): void => {
    lines.push(line);
    appendFileSync(join(dir, OUTPUT_FILE), `${line}\n`);
  };
  let failures = 0;
  let error: string | undefined;
  try {
    if (!extension) throw new Error(`${EXTENSION_ID} is not installed in this VS Code`);
    failures = await runSuite(log);
  } catch (err) {
    error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  }
  const result: SuiteResult = {
    exitCode: error !== undefined ? 2 : failures > 0 ? 1 : 0,
    failures,
    output: lines.join("\n"),
    ...(error !== undefined ? { error } : {}),
    vscodeVersion: vscode.version,
    extensionPath: extension?.extensionPath,
    activeBeforeRunner,
    migrationErrors: watcher?.stop() ?? [],
  };
  const partial = join(dir, `${RESULT_FILE}.partial`);
  writeFileSync(partial, JSON.stringify(result, null, 2));
  renameSync(partial, join(dir, RESULT_FILE));
}
