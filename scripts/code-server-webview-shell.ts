/**
 * code-server serves every webview from one origin, so all webviews share one service-worker slot, while the
 * webview shell (pre/index.html) registers a worker URL with a per-webview `id`. When two webviews load
 * together (the Session Tree and Chat views on open or reload), one worker replaces the other mid-handshake
 * and that view stays blank ("No service worker controller found"). Registering the same worker URL from
 * every webview removes the replacement. The id only names the webview of requests from web workers, which
 * our webviews don't use; requests from frames carry their webview id in the frame URL. Desktop VS Code gives
 * each webview its own origin and is not affected. Used by the end-to-end tests (through request
 * interception) and by `npm start` (patched on disk in e2e-server/, our own copy of code-server).
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const PER_WEBVIEW = "&id=${ID}&remoteAuthority=";
const SHARED = "&remoteAuthority=";

/** Where the shell lives inside a code-server package folder. */
export const WEBVIEW_SHELL_PATH = join(
  "lib",
  "vscode",
  "out",
  "vs",
  "workbench",
  "contrib",
  "webview",
  "browser",
  "pre",
  "index.html",
);

/**
 * The shell with one shared worker URL, its inline script's CSP hash recomputed. Throws when the shell
 * changed shape (a new code-server).
 */
export function shareWebviewServiceWorker(html: string): string {
  if (!html.includes(PER_WEBVIEW)) {
    throw new Error("the webview shell (pre/index.html) no longer registers a per-webview service worker as expected");
  }
  const patched = html.replace(PER_WEBVIEW, SHARED);
  const scripts = [...patched.matchAll(/<script async type="module">([\s\S]*?)<\/script>/g)];
  const csp = /'sha256-[A-Za-z0-9+/=]+'/;
  if (scripts.length !== 1 || !csp.test(patched)) {
    throw new Error("the webview shell (pre/index.html) no longer has exactly one inline script allowed by hash");
  }
  const hash = createHash("sha256").update(scripts[0][1], "utf8").digest("base64");
  return patched.replace(csp, `'sha256-${hash}'`);
}

/** True when `html` is a shell this module already patched. */
export function isSharedWebviewShell(html: string): boolean {
  return !html.includes(PER_WEBVIEW) && html.includes("service-worker.js") && html.includes(SHARED);
}

/**
 * Patches the shell of the code-server installed at `codeServerDir` in place; idempotent. The pristine shell
 * is kept beside it as `index.html.orig` (the end-to-end test of the patch reads that one).
 */
export function patchInstalledWebviewShell(codeServerDir: string): "patched" | "already" {
  const file = join(codeServerDir, WEBVIEW_SHELL_PATH);
  const html = readFileSync(file, "utf8");
  if (isSharedWebviewShell(html)) return "already";
  const patched = shareWebviewServiceWorker(html);
  if (!existsSync(file + ".orig")) copyFileSync(file, file + ".orig");
  writeFileSync(file, patched);
  return "patched";
}
