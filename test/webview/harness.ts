/**
 * Fake-host harness for the webview bundle in real Chromium (playwright-core, /usr/bin/chromium).
 * Builds webview/main.tsx with esbuild into a temp dir, serves it on 127.0.0.1 under the same CSP the
 * host uses, and provides `acquireVsCodeApi` that records posts and keeps state. Reused by the benchmark
 * (openTreeView + measureSnapshot/measureSearchKeystroke).
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { after, before } from "node:test";
import { dirname, extname, join } from "node:path";
import * as esbuild from "esbuild";
import { type Browser, type Page } from "playwright-core";
import type { CompareToHost, HostToCompare, HostToWebview, WebviewToHost } from "../../src/shared/protocol.js";
import { encodeTreeRows } from "../../src/core/rows/row-columns.js";
import type { TreeRow } from "../../src/core/rows/tree-row.js";
import { launchHeadless } from "../util/chromium.js";

/** The repository root: the nearest folder at or above the working directory holding webview/main.tsx. */
function findRoot(): string {
  let dir = process.cwd();
  for (let i = 0; i < 20; i++) {
    if (existsSync(join(dir, "webview", "main.tsx"))) return dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new Error(`webview/main.tsx not found at or above ${process.cwd()}; run from the repository`);
}

const ROOT = findRoot();

/** A built bundle served on loopback. */
export interface WebviewServer {
  origin: string;
  close(): Promise<void>;
}

/** Build the webview bundle (as esbuild.mjs does) into a fresh temp dir and serve it on 127.0.0.1. */
export async function startWebviewServer(): Promise<WebviewServer> {
  const dir = await mkdtemp(join(tmpdir(), "agent-tree-webview-"));
  await esbuild.build({
    entryPoints: { webview: join(ROOT, "webview/main.tsx"), compare: join(ROOT, "webview/compare/main.tsx") },
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "chrome120",
    outdir: dir,
    jsx: "automatic",
    jsxImportSource: "preact",
    loader: { ".ttf": "file" },
    logLevel: "error",
  });
  const types: Record<string, string> = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".ttf": "font/ttf",
    ".html": "text/html",
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/view.html") {
      const asked = url.searchParams.get("view");
      const view = asked === "chat" || asked === "compare" ? asked : "tree";
      const theme = url.searchParams.get("theme") ?? "vscode-dark";
      const state = url.searchParams.get("state") ?? "null";
      const nonce = randomBytes(16).toString("base64");
      const origin = `http://${req.headers.host ?? "127.0.0.1"}`;
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(pageHtml(view, theme, state, nonce, origin));
      return;
    }
    const file = join(dir, url.pathname.replace(/^\/+/, ""));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) => {
        res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
        res.end(body);
      },
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The test page: the host's CSP, theme body class, a nonce'd fake host, then the bundle. */
function pageHtml(view: string, theme: string, stateJson: string, nonce: string, cspSource: string): string {
  // The compare panel has its own bundle (as in the extension: dist/compare.js and dist/compare.css).
  const bundle = view === "compare" ? "compare" : "webview";
  const csp = `default-src 'none'; style-src ${cspSource} 'nonce-${nonce}'; script-src 'nonce-${nonce}'; font-src ${cspSource}; img-src ${cspSource} data:`;
  // A few theme colours so contrast is realistic; VS Code sets many more on <html>.
  const vars = `html { --vscode-foreground: #cccccc; --vscode-descriptionForeground: #9d9d9d; --vscode-sideBar-background: #181818;
    --vscode-font-family: sans-serif; --vscode-font-size: 13px; --vscode-editor-font-family: monospace;
    --vscode-list-activeSelectionBackground: #04395e; --vscode-focusBorder: #007fd4; --vscode-errorForeground: #f88070;
    --vscode-progressBar-background: #0e70c0; --vscode-textLink-foreground: #3794ff; }`;
  const fakeHost = `
    (() => {
      const posted = [];
      let state = ${JSON.stringify(stateJson)} === "null" ? undefined : JSON.parse(${JSON.stringify(stateJson)});
      let acquired = false;
      window.__fake = { posted, violations: [], errors: [], getState: () => state };
      window.acquireVsCodeApi = () => {
        if (acquired) throw new Error("acquireVsCodeApi called twice");
        acquired = true;
        return {
          // A copy as a real webview's message gets one: a structured clone (typed arrays stay typed arrays).
          postMessage: (m) => posted.push(structuredClone(m)),
          getState: () => state,
          setState: (s) => { state = JSON.parse(JSON.stringify(s)); },
        };
      };
      document.addEventListener("securitypolicyviolation", (e) => window.__fake.violations.push(e.violatedDirective + " " + e.blockedURI + " " + e.sourceFile + ":" + e.lineNumber + ":" + e.columnNumber + " " + e.sample));
      window.addEventListener("error", (e) => window.__fake.errors.push(String(e.message)));
    })();`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta property="csp-nonce" content="${nonce}">
<style nonce="${nonce}">${vars}</style>
<link rel="stylesheet" href="${cspSource}/${bundle}.css">
</head><body class="${theme}" data-view="${view}">
<div id="root"></div>
<script nonce="${nonce}">${fakeHost}</script>
<script nonce="${nonce}" src="${cspSource}/${bundle}.js"></script>
</body></html>`;
}

/** Launch headless Debian Chromium. */
export async function launchBrowser(): Promise<Browser> {
  return launchHeadless();
}

/** The views a test file opens on its rig (see webviewRig). */
export interface WebviewRig {
  /** Open a view ("tree" or "chat") and wait for its `ready` message. */
  openView(opts: ViewOptions & { view: "tree" | "chat" }): Promise<ViewPage>;
  /** Open the compare panel and wait for its `compare/ready` message. */
  openCompareView(opts?: ViewOptions): Promise<ViewPage<HostToCompare, CompareToHost>>;
}

/**
 * The served bundle and a Chromium shared by the tests of the calling file (or `describe` block): started
 * before its tests and closed after them (either may be missing when starting failed).
 */
export function webviewRig(): WebviewRig {
  let server: WebviewServer | undefined;
  let browser: Browser | undefined;
  before(async () => {
    server = await startWebviewServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  const started = (): { server: WebviewServer; browser: Browser } => {
    if (!server || !browser) throw new Error("the webview rig is only there inside its tests (it starts in before())");
    return { server, browser };
  };
  return {
    openView: (opts) => openView(started().browser, started().server, opts),
    openCompareView: (opts) => openCompareView(started().browser, started().server, opts),
  };
}

/** A view page with its fake host; `In` is what the host posts to it, `Out` what it posts. */
export interface ViewPage<In = HostToWebview, Out = WebviewToHost> {
  page: Page;
  /** Post a message, as the extension host would. */
  send(msg: In): Promise<void>;
  /** Everything the webview posted so far. */
  posted(): Promise<Out[]>;
  /** Forget recorded posts. */
  clearPosted(): Promise<void>;
  /** The state the webview persisted with setState. */
  state(): Promise<unknown>;
  /** CSP violations and uncaught errors seen by the page. */
  problems(): Promise<{ violations: string[]; errors: string[] }>;
  /** Dialogs (alert/confirm/prompt) that fired — XSS canaries. */
  dialogs: string[];
  close(): Promise<void>;
}

/** Options of a view page. */
export interface ViewOptions {
  state?: unknown;
  theme?: string;
  width?: number;
  height?: number;
}

/** Open a view ("tree" or "chat") on a served bundle and wait for its `ready` message. */
export function openView(
  browser: Browser,
  server: WebviewServer,
  opts: ViewOptions & { view: "tree" | "chat" },
): Promise<ViewPage> {
  return openPage<HostToWebview, WebviewToHost>(browser, server, opts.view, opts, "ready");
}

/** Open the compare panel's bundle and wait for its `compare/ready` message. */
export function openCompareView(
  browser: Browser,
  server: WebviewServer,
  opts: ViewOptions = {},
): Promise<ViewPage<HostToCompare, CompareToHost>> {
  return openPage<HostToCompare, CompareToHost>(browser, server, "compare", opts, "compare/ready");
}

async function openPage<In, Out>(
  browser: Browser,
  server: WebviewServer,
  view: "tree" | "chat" | "compare",
  opts: ViewOptions,
  readyType: string,
): Promise<ViewPage<In, Out>> {
  const page = await browser.newPage({ viewport: { width: opts.width ?? 400, height: opts.height ?? 600 } });
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const q = new URLSearchParams({ view, theme: opts.theme ?? "vscode-dark" });
  if (opts.state !== undefined) q.set("state", JSON.stringify(opts.state));
  await page.goto(`${server.origin}/view.html?${q.toString()}`);
  await page.waitForFunction(
    (ready) => (window as unknown as FakeWindow).__fake.posted.some((m) => m.type === ready),
    readyType,
  );
  return {
    page,
    dialogs,
    send: async (msg) => {
      await page.evaluate((m) => window.postMessage(m, "*"), msg as unknown as Record<string, unknown>);
      // Let the message event run and Preact flush its render.
      await page.evaluate(() => new Promise<void>((ok) => requestAnimationFrame(() => setTimeout(ok, 0))));
    },
    posted: () => page.evaluate(() => (window as unknown as FakeWindow).__fake.posted as unknown as Out[]),
    clearPosted: () => page.evaluate(() => void ((window as unknown as FakeWindow).__fake.posted.length = 0)),
    state: () => page.evaluate(() => (window as unknown as FakeWindow).__fake.getState()),
    problems: () =>
      page.evaluate(() => ({
        violations: [...(window as unknown as FakeWindow).__fake.violations],
        errors: [...(window as unknown as FakeWindow).__fake.errors],
      })),
    close: () => page.close(),
  };
}

interface FakeWindow {
  __fake: { posted: { type: string }[]; violations: string[]; errors: string[]; getState(): unknown };
}

/**
 * Run `body` on the page `open` resolves to and close the page afterwards, whether `body` passed or threw:
 * every test of a view owns exactly one page for its whole run.
 */
export async function withPage<V extends { close(): Promise<void> }>(
  open: Promise<V>,
  body: (vp: V) => Promise<void>,
): Promise<void> {
  const vp = await open;
  try {
    await body(vp);
  } finally {
    await vp.close();
  }
}

/** Wait until the page has processed pending messages and painted. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((ok) => requestAnimationFrame(() => setTimeout(ok, 0))));
}

/** Timings of one snapshot, in milliseconds. */
export interface SnapshotTiming {
  /** From postMessage in the page to the first frame with rows (includes the structured clone). */
  firstPaintMs: number;
  /** From the webview's handler receiving the snapshot to that frame ("after the snapshot arrives"). */
  afterArrivalMs: number;
  /** Building the tree index. */
  indexMs: number;
  /** Filtering and flattening into rows. */
  flattenMs: number;
  /** Tree rows in the DOM at that frame. */
  rowCount: number;
}

/**
 * Benchmark hook: post a snapshot from inside the page and time until its rows are in the DOM and a
 * frame has been produced (message dispatch + index + flatten + render + layout).
 */
export async function measureSnapshot(
  vp: ViewPage,
  snapshot: HostToWebview & { type: "tree/snapshot" },
): Promise<SnapshotTiming> {
  // The snapshot goes into the page first, untimed, as an argument (Playwright keeps its typed arrays typed).
  // Posting it from the script that carries it as a literal made Chromium's first window.postMessage in that
  // script take 300-400 ms at 100k entries whatever was posted (a tiny message too).
  await vp.page.evaluate(
    (s) => void ((window as unknown as { __benchSnapshot: unknown }).__benchSnapshot = s),
    snapshot,
  );
  // In-page code is passed as a string: tsx's name-keeping helpers do not exist in the page.
  const src = `(snap) => new Promise((ok) => {
    delete window.__benchSnapshot;
    performance.mark("bench:post");
    const t0 = performance.now();
    window.postMessage(snap, "*");
    const poll = () => {
      const n = document.querySelectorAll('[role="treeitem"]').length;
      if (n > 0)
        requestAnimationFrame(() =>
          setTimeout(() => {
            performance.mark("bench:painted");
            const at = (name) => {
              const m = performance.getEntriesByName(name, "mark");
              return m.length > 0 ? m[m.length - 1].startTime : NaN;
            };
            const now = performance.now();
            ok({
              firstPaintMs: now - t0,
              afterArrivalMs: now - at("tree:snapshot:received"),
              indexMs: at("tree:snapshot:indexed") - at("tree:snapshot:received"),
              flattenMs: at("tree:snapshot:flattened") - at("tree:snapshot:indexed"),
              rowCount: n,
            });
          }, 0),
        );
      else requestAnimationFrame(poll);
    };
    setTimeout(poll, 0);
  })`;
  return vp.page.evaluate(`(${src})(window.__benchSnapshot)`) as Promise<SnapshotTiming>;
}

/** Timings of one tree update, in milliseconds. */
export interface UpdateTiming {
  /** From posting the update to the frame after its re-render (and the scroll that keeps the active row in view). */
  frameMs: number;
  /**
   * The page's work on it: from posting it until a message posted right after it arrives. Both are posted
   * messages, handled in order, and the view renders (and scrolls) in microtasks of the first: this is the handler,
   * the renders and their layout, without the wait for the next frame.
   */
  workMs: number;
}

/** Benchmark hook: post a `tree/update` from inside the page (as the host posts a reply or a move) and time it. */
export async function measureUpdate(
  vp: ViewPage,
  update: HostToWebview & { type: "tree/update" },
): Promise<UpdateTiming> {
  // In-page code is passed as a string, as in measureSnapshot.
  const src = `(msg) => new Promise((ok) => {
    const channel = new MessageChannel();
    let workMs = NaN;
    channel.port1.onmessage = () => {
      workMs = performance.now() - t0;
      channel.port1.close();
    };
    const t0 = performance.now();
    window.postMessage(msg, "*");
    channel.port2.postMessage(0);
    requestAnimationFrame(() => setTimeout(() => ok({ frameMs: performance.now() - t0, workMs }), 0));
  })`;
  // Put into the page first, untimed, as an argument: its rows are typed arrays, which JSON would not keep.
  await vp.page.evaluate((u) => void ((window as unknown as { __benchUpdate: unknown }).__benchUpdate = u), update);
  return vp.page.evaluate(`(${src})(window.__benchUpdate)`) as Promise<UpdateTiming>;
}

/**
 * Benchmark hook: type `text` into the tree's search box one character at a time; for each keystroke,
 * time from the input event to the next frame after the re-render. Returns milliseconds per keystroke.
 */
export async function measureSearchKeystrokes(vp: ViewPage, text: string): Promise<number[]> {
  const src = `async (t) => {
    const field = document.querySelector(".toolbar vscode-text-field");
    const input = field && field.shadowRoot ? field.shadowRoot.querySelector("input") : null;
    if (input === null) throw new Error("search field not found");
    const times = [];
    for (const ch of t) {
      const t0 = performance.now();
      input.value += ch;
      input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
      await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
      times.push(performance.now() - t0);
    }
    return times;
  }`;
  return vp.page.evaluate(`(${src})(${JSON.stringify(text)})`) as Promise<number[]>;
}

/** Options for a synthetic tree. */
export interface SyntheticTreeOptions {
  /** Every `branchEvery`-th node starts a side branch of `branchLength` nodes. */
  branchEvery?: number;
  branchLength?: number;
  /** Prefix for preview texts (searchable). */
  textPrefix?: string;
}

/**
 * A synthetic session: a main chain of user/assistant/toolResult turns with side branches, ids "n0"…,
 * leaf at the end of the main chain. Deterministic, so tests and benchmarks agree.
 */
export function syntheticTree(count: number, opts: SyntheticTreeOptions = {}): { nodes: TreeRow[]; leafId: string } {
  const branchEvery = opts.branchEvery ?? 50;
  const branchLength = opts.branchLength ?? 5;
  const prefix = opts.textPrefix ?? "message";
  const nodes: TreeRow[] = [];
  const base = Date.UTC(2026, 0, 1);
  const kinds: TreeRow["kind"][] = ["user", "assistant", "toolResult", "assistant"];
  let mainTip: string | null = null;
  let k = 0;
  const add = (parentId: string | null, kind: TreeRow["kind"]): string => {
    const id = `n${nodes.length}`;
    nodes.push({
      id,
      parentId,
      kind,
      timestamp: new Date(base + nodes.length * 1000).toISOString(),
      preview: `${prefix} ${nodes.length} ${kind === "user" ? "question about topic" : "answer text"} w${nodes.length % 97}`,
      ...(kind === "toolResult" ? { toolName: nodes.length % 2 === 0 ? "read" : "bash" } : {}),
    });
    return id;
  };
  while (nodes.length < count) {
    const branchFrom: string | null = mainTip;
    mainTip = add(mainTip, kinds[k++ % kinds.length]);
    if (branchFrom !== null && nodes.length % branchEvery === 0) {
      let tip = branchFrom;
      for (let b = 0; b < branchLength && nodes.length < count; b++) tip = add(tip, b % 2 === 0 ? "user" : "assistant");
    }
  }
  return { nodes, leafId: mainTip ?? "n0" };
}

/** What openTreeBenchmark returns: the first-paint time and a per-keystroke search probe. */
export interface TreeBenchmark extends SnapshotTiming {
  /** Type `text` into the search box; milliseconds per keystroke (input event to next frame). */
  typeSearch(text: string): Promise<number[]>;
  /** The page, for further probes. */
  view: ViewPage;
  close(): Promise<void>;
}

/**
 * One-call benchmark entry: build and serve the bundle, launch Chromium, open the tree view, post a
 * snapshot of `nodes` and time its first paint. Close it when done (browser, server, temp dir).
 */
export async function openTreeBenchmark(
  nodes: TreeRow[],
  leafId: string | null,
  opts: { width?: number; height?: number } = {},
): Promise<TreeBenchmark> {
  const server = await startWebviewServer();
  const browser = await launchBrowser();
  try {
    const view = await openView(browser, server, { view: "tree", width: opts.width, height: opts.height });
    // Encoded here, before timing: the host builds these columns from its store (src/host/tree/tree-sync.ts).
    const rows = encodeTreeRows(nodes);
    const first = await measureSnapshot(view, { type: "tree/snapshot", sessionId: "bench", rows, leafId });
    return {
      ...first,
      view,
      typeSearch: (text) => measureSearchKeystrokes(view, text),
      close: async () => {
        await browser.close();
        await server.close();
      },
    };
  } catch (err) {
    await browser.close();
    await server.close();
    throw err;
  }
}

/**
 * Apply a VS Code colour theme to an open view the way the workbench does: the theme kind as the body class
 * and every colour as a `--vscode-*` property on <html>'s style. The harness's own stand-in colours are
 * dropped first, so a variable the theme leaves unset is really unset (VS Code emits none for null colours).
 */
export async function applyTheme(page: Page, bodyClass: string, vars: Record<string, string>): Promise<void> {
  const src = `(arg) => {
    for (const s of [...document.querySelectorAll("head style")])
      if ((s.textContent || "").includes("--vscode-foreground")) s.remove();
    document.body.classList.remove("vscode-dark", "vscode-light", "vscode-high-contrast", "vscode-high-contrast-light");
    document.body.classList.add(arg.bodyClass);
    for (const [k, v] of Object.entries(arg.vars)) document.documentElement.style.setProperty(k, v);
  }`;
  await page.evaluate(`(${src})(${JSON.stringify({ bodyClass, vars })})`);
  await settle(page);
}
