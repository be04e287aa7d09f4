/**
 * Runs extension tests in code-server the way `code --extensionDevelopmentPath … --extensionTestsPath …` does on
 * the desktop: the workbench page gets VS Code's development options (`developmentOptions.extensions` and
 * `.extensionTestsPath` of the web workbench's construction options, which @vscode/test-web fills in the same way),
 * so VS Code loads the extension under development and runs the tests in its extension host.
 *
 * Why not the URL: the workbench also reads these from the URL's payload, but VS Code >= 1.133 honours that payload
 * only when the server runs with --enable-smoke-test-driver, an option code-server does not offer. The options are
 * added to the configuration the server puts into the page (its `vscode-workbench-web-configuration` element) as
 * the page loads, in the browser; code-server's files and what it serves stay as published.
 */
import { resolve } from "node:path";
import type { Page } from "playwright-core";
import type { CodeServer } from "./code-server.js";

/** What to load: the extension folder and the compiled test entry (exports `run()`), both on the server's disk. */
export interface DevelopmentOptions {
  extensionDevelopmentPath: string;
  extensionTestsPath: string;
}

/** The element that carries the workbench's configuration (JSON in its `data-settings` attribute). */
const CONFIG_ELEMENT_ID = "vscode-workbench-web-configuration";

/**
 * Makes every workbench page `page` loads from `server` carry `options` as development options. Call before
 * opening the workbench URL (no payload needed); the extension host reports the tests' exit code through
 * `window.codeAutomationExit`.
 */
export async function serveDevelopmentOptions(
  page: Page,
  server: Pick<CodeServer, "origin" | "port">,
  options: DevelopmentOptions,
): Promise<void> {
  const remote = (p: string): { scheme: string; authority: string; path: string } => ({
    scheme: "vscode-remote",
    authority: `127.0.0.1:${server.port}`,
    path: resolve(p),
  });
  const developmentOptions = {
    extensions: [remote(options.extensionDevelopmentPath)],
    extensionTestsPath: remote(options.extensionTestsPath),
  };
  // Runs in every document before its scripts: the workbench's (top frame, the server's origin) gets the options
  // into its configuration element as the parser inserts it, before workbench.js (a module, so run after parsing)
  // reads it. The page itself is the one the server sent (a rewritten response would lose its loopback origin, and
  // Chromium's local-network checks would then block its WebSocket to the server). A string, not a function: the
  // test runner's transpiler would add helpers to a function's text that the page does not have.
  const args = JSON.stringify({ origin: server.origin, id: CONFIG_ELEMENT_ID, extra: developmentOptions });
  await page.addInitScript(`(() => {
    const { origin, id, extra } = ${args};
    if (window.top !== window || location.origin !== origin) return;
    const observer = new MutationObserver(() => {
      const el = document.getElementById(id);
      if (!el) return;
      observer.disconnect();
      const settings = JSON.parse(el.getAttribute("data-settings") || "{}");
      settings.developmentOptions = { ...settings.developmentOptions, ...extra };
      el.setAttribute("data-settings", JSON.stringify(settings));
    });
    observer.observe(document, { childList: true, subtree: true });
  })();`);
}
