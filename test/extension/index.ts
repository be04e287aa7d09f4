/**
 * Extension-host test entry (@vscode/test-electron convention): `run()` is called inside a running
 * VS Code (or code-server via the extensionTestsPath payload) with the extension loaded.
 * Built by `node esbuild.mjs --tests` into dist/test/extension/index.js.
 */
import Mocha from "mocha";

/** Run the suite; rejects when a test fails. */
export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: "bdd", timeout: 30_000, color: false });
  // Install describe/it before the bundled test modules are evaluated.
  mocha.suite.emit("pre-require", globalThis, "agent-tree-extension-tests", mocha);
  await import("./activation.test.js");
  await import("./session.test.js");
  await new Promise<void>((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} extension test(s) failed`)) : resolve()));
  });
}
