/**
 * The e2e harness's patch of code-server's webview shell (see `shareWebviewServiceWorker`): every webview
 * must register the same service worker URL, and the shell's CSP must still allow its inline script.
 * Runs against the shell of the installed code-server, so an upgrade that changes it fails here first.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { REPO_ROOT } from "../util/code-server.js";
import { shareWebviewServiceWorker } from "../util/workbench.js";

const SHELL = join(
  REPO_ROOT,
  "e2e-server/node_modules/code-server/lib/vscode/out/vs/workbench/contrib/webview/browser/pre/index.html",
);

function readShell(): string {
  if (!existsSync(SHELL))
    throw new Error(`code-server is not installed (${SHELL} missing). Run: bash scripts/ensure-deps.sh`);
  // `npm start` patches the installed shell and keeps the pristine one as `.orig`.
  return readFileSync(existsSync(SHELL + ".orig") ? SHELL + ".orig" : SHELL, "utf8");
}

/** The inline script's body and the hashes the CSP allows. */
function scriptAndHashes(html: string): { script: string; hashes: string[] } {
  const scripts = [...html.matchAll(/<script async type="module">([\s\S]*?)<\/script>/g)];
  assert.equal(scripts.length, 1, "the shell should have one inline script");
  const hashes = [...html.matchAll(/'sha256-([A-Za-z0-9+/=]+)'/g)].map((m) => m[1]);
  return { script: scripts[0][1], hashes };
}

const sha256 = (s: string): string => createHash("sha256").update(s, "utf8").digest("base64");

describe("webview shell patch", () => {
  it("registers one worker URL for all webviews and keeps the CSP hash valid", () => {
    const original = readShell();
    // Sanity: the hash check below means something (the original's hash matches its script).
    const before = scriptAndHashes(original);
    assert.deepEqual(before.hashes, [sha256(before.script)]);
    assert.match(before.script, /service-worker\.js\?[^`]*&id=\$\{ID\}/);

    const patched = shareWebviewServiceWorker(original);
    const after = scriptAndHashes(patched);
    assert.doesNotMatch(after.script, /service-worker\.js\?[^`]*&id=/, "the worker URL still names the webview");
    assert.match(after.script, /service-worker\.js\?v=\$\{expectedWorkerVersion\}&vscode-resource-base-authority=/);
    assert.deepEqual(after.hashes, [sha256(after.script)], "the CSP no longer allows the patched script");
  });

  it("refuses a shell it does not recognise", () => {
    assert.throws(() => shareWebviewServiceWorker("<html><script>register('sw.js')</script></html>"), /no longer/);
  });
});
