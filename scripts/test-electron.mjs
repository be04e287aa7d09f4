// Runs the extension-host test suite (test/extension/**, compiled into dist/test/extension/index.js by
// `node esbuild.mjs --tests`) in desktop VS Code via @vscode/test-electron. It downloads VS Code, so it needs
// the internet (it cannot run on the offline CI machines; there test/e2e/extension-host.test.ts runs the same
// suite inside code-server). Usage:
//   npm run build && node esbuild.mjs --tests && node scripts/test-electron.mjs [vscode-version]
// On a headless Linux box, wrap it in `xvfb-run -a`.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runTests } from "@vscode/test-electron";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const extensionTestsPath = join(root, "dist", "test", "extension", "index.js");
if (!existsSync(extensionTestsPath)) {
  console.error(`[test-electron] ${extensionTestsPath} missing: run \`node esbuild.mjs --tests\` first`);
  process.exit(1);
}
const version = process.argv[2] ?? "1.100.3";
const workspace = mkdtempSync(join(tmpdir(), "agent-tree-electron-ws-"));
try {
  const code = await runTests({
    version,
    extensionDevelopmentPath: root,
    extensionTestsPath,
    launchArgs: [
      workspace,
      "--disable-extensions",
      "--disable-workspace-trust",
      "--skip-welcome",
      "--skip-release-notes",
    ],
  });
  process.exit(code);
} catch (err) {
  console.error("[test-electron] failed:", err instanceof Error ? err.message : err);
  process.exit(1);
}
