/**
 * The tree webview in headless Chromium, driven through the webview engineer's harness
 * (test/webview/harness.ts: the bundle built as esbuild.mjs builds it, served on 127.0.0.1 under the host's CSP,
 * fake acquireVsCodeApi). Per run, a fresh page: time from posting `tree/snapshot` to the first frame with rows,
 * per-keystroke search latency, filter-switch latency, and how many rows are in the DOM.
 */
import { writeFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import type { HostToWebview } from "../../src/shared/protocol.js";
import {
  launchBrowser as launchHarnessBrowser,
  measureSearchKeystrokes,
  measureSnapshot,
  openView,
  startWebviewServer,
  type ViewPage,
  type WebviewServer,
} from "../../test/webview/harness.js";

/** A sidebar-sized viewport (the tree lives in a side bar view). */
const VIEWPORT = { width: 400, height: 800 };
/** Typed one character at a time; both words occur in generated previews. */
const SEARCH_TEXT = "branch session";
const FILTERS = ["no-tools", "user-only", "labeled-only", "all", "default"];

/** One run's numbers (ms). */
export interface WebviewRun {
  firstPaintMs: number;
  domRows: number;
  /** Per keystroke, input event until the next frame after the re-render. */
  searchMs: number[];
  /** Rows in the DOM after the whole query was typed. */
  domRowsAfterSearch: number;
  /** Per filter switch, change event until the next frame after the re-render. */
  filterMs: number[];
}

/** Browser plus the served bundle; close when done. */
export interface WebviewRig {
  browser: Browser;
  server: WebviewServer;
  close(): Promise<void>;
}

/** Builds and serves the bundle and launches Chromium (once per bench run). */
export async function startRig(): Promise<WebviewRig> {
  const server = await startWebviewServer();
  const browser = await launchHarnessBrowser().catch(async (error: unknown) => {
    await server.close();
    throw error;
  });
  return {
    browser,
    server,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}

// In-page code is passed as strings (as the harness does): the page has no TypeScript helpers.
const ROW_COUNT = `document.querySelectorAll('[role="treeitem"]').length`;
const CLEAR_SEARCH = `(() => {
  const field = document.querySelector(".toolbar vscode-text-field");
  const input = field && field.shadowRoot ? field.shadowRoot.querySelector("input") : null;
  if (input === null) throw new Error("search field not found");
  input.value = "";
  input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  return new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
})()`;
const setFilterSource = (value: string): string => `(() => {
  const dropdown = document.querySelector(".toolbar vscode-dropdown");
  if (dropdown === null) throw new Error("filter dropdown not found");
  const t0 = performance.now();
  dropdown.value = ${JSON.stringify(value)};
  dropdown.dispatchEvent(new Event("change", { bubbles: true, composed: true }));
  return new Promise((ok) => requestAnimationFrame(() => setTimeout(() => ok(performance.now() - t0), 0)));
})()`;

async function rowCount(view: ViewPage): Promise<number> {
  return (await view.page.evaluate(ROW_COUNT)) as number;
}

/**
 * Measures one run on a fresh page. With `profileTo`, the page's JavaScript is CPU-profiled (DevTools protocol)
 * from just before the snapshot to the end, and the profile is written there.
 */
export async function measureWebviewRun(
  rig: WebviewRig,
  snapshot: HostToWebview & { type: "tree/snapshot" },
  profileTo?: string,
): Promise<WebviewRun> {
  const view = await openView(rig.browser, rig.server, { view: "tree", ...VIEWPORT });
  try {
    const cdp = profileTo ? await view.page.context().newCDPSession(view.page) : undefined;
    if (cdp) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
    }
    const first = await measureSnapshot(view, snapshot);
    const searchMs = await measureSearchKeystrokes(view, SEARCH_TEXT);
    const domRowsAfterSearch = await rowCount(view);
    // A query nothing matches must empty the list, else the keystrokes did not reach the search.
    await view.page.evaluate(CLEAR_SEARCH);
    await measureSearchKeystrokes(view, "zqxj");
    const rowsForNothing = await rowCount(view);
    if (rowsForNothing !== 0) throw new Error(`search did not filter the tree (${rowsForNothing} rows for "zqxj")`);
    await view.page.evaluate(CLEAR_SEARCH);
    const filterMs: number[] = [];
    for (const filter of FILTERS) filterMs.push((await view.page.evaluate(setFilterSource(filter))) as number);
    if (cdp && profileTo) {
      const { profile } = await cdp.send("Profiler.stop");
      writeFileSync(profileTo, JSON.stringify(profile));
    }
    return { firstPaintMs: first.firstPaintMs, domRows: first.rowCount, searchMs, domRowsAfterSearch, filterMs };
  } finally {
    await view.close();
  }
}
