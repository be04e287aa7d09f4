/**
 * The tree webview in headless Chromium: time from posting a `tree/snapshot` to the first painted frame with
 * rows, per-keystroke search latency, filter-switch latency, and how many rows are in the DOM.
 * A fresh browser context per run, so nothing is cached between runs.
 */
import { writeFileSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { VIEWPORT } from "./webview-bundle.js";

/** Chromium used by the benchmark (Debian package; overridable). */
const CHROMIUM = process.env.BENCH_CHROMIUM ?? "/usr/bin/chromium";
/** Typed one character at a time; both words occur in generated previews. */
const SEARCH_TEXT = "branch session";
const FILTERS = ["no-tools", "user-only", "labeled-only", "all", "default"];

/** Timings the probe returns: until the rAF callback, and until the frame was painted (ms). */
interface FrameTiming {
  raf: number;
  painted: number;
}

/** The probe bench/webview/probe.js installs in the page. */
interface BenchProbe {
  snapshot: unknown;
  ready(): boolean;
  rowCount(): number;
  firstPaint(): Promise<FrameTiming>;
  searchKeystroke(text: string): Promise<FrameTiming>;
  setFilter(value: string): Promise<FrameTiming>;
}
type ProbeGlobal = typeof globalThis & { __bench: BenchProbe };

/** One run's numbers (ms). */
export interface WebviewRun {
  firstPaintMs: number;
  firstPaintRafMs: number;
  domRows: number;
  /** Per keystroke, until painted. */
  searchMs: number[];
  /** Rows in the DOM after the whole query was typed. */
  domRowsAfterSearch: number;
  /** Per filter switch, until painted. */
  filterMs: number[];
}

/** Launches headless Chromium. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--allow-file-access-from-files"],
  });
}

async function openPage(browser: Browser, pageUrl: string): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(pageUrl);
  await page
    .waitForFunction(() => (globalThis as ProbeGlobal).__bench?.ready() === true, undefined, {
      timeout: 15_000,
    })
    .catch(() => {
      throw new Error(`the tree webview did not post "ready"${errors.length ? `: ${errors.join("; ")}` : ""}`);
    });
  return page;
}

/**
 * Measures one run against a fresh page. With `profileTo`, the page's JavaScript is CPU-profiled (Chrome
 * DevTools protocol) from the snapshot to the end, and the profile is written there.
 */
export async function measureWebviewRun(
  browser: Browser,
  pageUrl: string,
  snapshotJson: string,
  profileTo?: string,
): Promise<WebviewRun> {
  const page = await openPage(browser, pageUrl);
  const cdp = profileTo ? await page.context().newCDPSession(page) : undefined;
  try {
    // Parse in the page before the clock starts: in VS Code the message arrives already deserialised.
    await page.evaluate((json: string) => {
      (globalThis as ProbeGlobal).__bench.snapshot = JSON.parse(json);
    }, snapshotJson);
    if (cdp) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
    }
    const first = await page.evaluate(() => (globalThis as ProbeGlobal).__bench.firstPaint());
    const domRows = await page.evaluate(() => (globalThis as ProbeGlobal).__bench.rowCount());
    const searchMs: number[] = [];
    for (let i = 1; i <= SEARCH_TEXT.length; i++) {
      const timing = await page.evaluate(
        (text: string) => (globalThis as ProbeGlobal).__bench.searchKeystroke(text),
        SEARCH_TEXT.slice(0, i),
      );
      searchMs.push(timing.painted);
    }
    const domRowsAfterSearch = await page.evaluate(() => (globalThis as ProbeGlobal).__bench.rowCount());
    // A query nothing matches must empty the list, else the keystrokes above did not reach the search.
    await page.evaluate(() => (globalThis as ProbeGlobal).__bench.searchKeystroke("zqxjv-no-such-text"));
    const rowsForNothing = await page.evaluate(() => (globalThis as ProbeGlobal).__bench.rowCount());
    if (rowsForNothing !== 0)
      throw new Error(`search did not filter the tree (${rowsForNothing} rows for a query nothing matches)`);
    searchMs.push((await page.evaluate(() => (globalThis as ProbeGlobal).__bench.searchKeystroke(""))).painted);
    const filterMs: number[] = [];
    for (const filter of FILTERS) {
      const timing = await page.evaluate((f: string) => (globalThis as ProbeGlobal).__bench.setFilter(f), filter);
      filterMs.push(timing.painted);
    }
    if (cdp && profileTo) {
      const { profile } = await cdp.send("Profiler.stop");
      writeFileSync(profileTo, JSON.stringify(profile));
    }
    return { firstPaintMs: first.painted, firstPaintRafMs: first.raf, domRows, searchMs, domRowsAfterSearch, filterMs };
  } finally {
    await page.context().close();
  }
}
