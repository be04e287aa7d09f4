/**
 * The tree webview in headless Chromium, driven through the webview engineer's harness
 * (test/webview/harness.ts: the bundle built as esbuild.mjs builds it, served on 127.0.0.1 under the host's CSP,
 * fake acquireVsCodeApi). Per run, a fresh page: time from posting `tree/snapshot` to the first frame with rows,
 * per-keystroke search latency, filter-switch latency, leaf moves (replies appended, branch switches: the update
 * and the scroll that keeps the active row in view), and how many rows are in the DOM.
 */
import { writeFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { columnString, encodeTreeRows, kindCode } from "../../src/core/rows/row-columns.js";
import type { TreeRow } from "../../src/core/rows/tree-row.js";
import type { HostToWebview } from "../../src/shared/protocol.js";
import {
  launchBrowser as launchHarnessBrowser,
  measureSearchKeystrokes,
  measureSnapshot,
  measureUpdate,
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
/** Replies appended at the leaf, then branch switches alternating between an early user message and the tail. */
const REPLIES = 10;
const SWITCHES = 6;

type TreeUpdate = HostToWebview & { type: "tree/update" };

/**
 * The updates the host posts while a user chats and switches branches: a reply appended (its row, the leaf on it),
 * and a move (the leaf marker's row under the target, the leaf on the target) — as src/host/tree/tree-sync.ts sends them.
 */
export function leafMoves(snapshot: HostToWebview & { type: "tree/snapshot" }): TreeUpdate[] {
  const cols = snapshot.rows;
  const user = kindCode("user");
  // An early user message: a third of the way in, so a switch there scrolls far up and back.
  let early = Math.floor(cols.count / 3);
  while (early < cols.count - 1 && cols.kinds[early] !== user) early++;
  const earlyId = columnString(cols.ids, early);
  let tail = snapshot.leafId;
  let clock = Date.parse("2100-01-01T00:00:00.000Z");
  const row = (id: string, parentId: string | null, kind: TreeRow["kind"], preview: string): TreeRow => ({
    id,
    parentId,
    kind,
    timestamp: new Date(clock++).toISOString(),
    preview,
  });
  const updates: TreeUpdate[] = [];
  for (let i = 0; i < REPLIES; i++) {
    const id = `bench-reply-${i}`;
    const kind = i % 2 === 0 ? "user" : "assistant";
    updates.push({ type: "tree/update", rows: encodeTreeRows([row(id, tail, kind, `bench reply ${i}`)]), leafId: id });
    tail = id;
  }
  for (let i = 0; i < SWITCHES; i++) {
    const target = i % 2 === 0 ? earlyId : (tail as string);
    const marker = row(`bench-move-${i}`, target, "custom", "agent-tree/leaf");
    updates.push({ type: "tree/update", rows: encodeTreeRows([marker]), leafId: target });
  }
  return updates;
}

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
  /** Per leaf move (replies appended, then branch switches), message until the frame after the re-render. */
  leafMoveMs: number[];
  /** The same moves, the page's work alone (handler, renders, layout; see UpdateTiming). */
  leafMoveWorkMs: number[];
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
    // The list's height in rows (the spacer spans every row; rows have one fixed height).
    const listRows = `document.querySelector(".tree-spacer").offsetHeight / document.querySelector('[role="treeitem"]').offsetHeight`;
    const rowsBefore = (await view.page.evaluate(listRows)) as number;
    const leafMoveMs: number[] = [];
    const leafMoveWorkMs: number[] = [];
    for (const update of leafMoves(snapshot)) {
      const t = await measureUpdate(view, update);
      leafMoveMs.push(t.frameMs);
      leafMoveWorkMs.push(t.workMs);
    }
    // Each reply is a row of the default filter (the leaf markers are not): the list grew by that many rows.
    const grown = ((await view.page.evaluate(listRows)) as number) - rowsBefore;
    if (grown !== REPLIES) throw new Error(`the replies did not reach the tree (it grew by ${grown} rows)`);
    if (cdp && profileTo) {
      const { profile } = await cdp.send("Profiler.stop");
      writeFileSync(profileTo, JSON.stringify(profile));
    }
    return {
      firstPaintMs: first.firstPaintMs,
      domRows: first.rowCount,
      searchMs,
      domRowsAfterSearch,
      filterMs,
      leafMoveMs,
      leafMoveWorkMs,
    };
  } finally {
    await view.close();
  }
}
