/**
 * Extension-host test entry: the mocha suite of this folder, run inside a running VS Code with Agent Tree loaded.
 * `run()` is the @vscode/test-electron convention (scripts/test-electron.mjs, the extension under development);
 * `runSuite()` is what the test-runner extension calls in code-server, next to the installed .vsix
 * (test/extension-runner/). Built by `node esbuild.mjs --tests` into dist/test/extension/index.js and into the
 * runner's bundle.
 */
import { format } from "node:util";
import Mocha from "mocha";

/**
 * Runs the suite with mocha's spec reporter writing its lines to `log`; resolves with the number of failed tests.
 */
export async function runSuite(log: (line: string) => void = (line) => console.log(line)): Promise<number> {
  const mocha = new Mocha({ ui: "bdd", timeout: 30_000, color: false });
  // Install describe/it before the bundled test modules are evaluated.
  mocha.suite.emit("pre-require", globalThis, "agent-tree-extension-tests", mocha);
  await import("./activation.test.js");
  await import("./session.test.js");
  // The reporters print through Base.consoleLog (console.log when mocha loaded): route it to `log` for this run.
  const base = Mocha.reporters.Base;
  const previous = base.consoleLog;
  base.consoleLog = (...args: unknown[]) => log(format(...args));
  try {
    return await new Promise<number>((resolve) => mocha.run(resolve));
  } finally {
    base.consoleLog = previous;
  }
}

/** Runs the suite; rejects when a test fails. */
export async function run(): Promise<void> {
  const failures = await runSuite();
  if (failures > 0) throw new Error(`${failures} extension test(s) failed`);
}
