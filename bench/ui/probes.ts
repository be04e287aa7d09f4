/**
 * In-page probes for the real-UI benchmark: each frame notes, on its own clock, when what the user waits for
 * is drawn (the next animation frame after the DOM change), so the numbers carry no polling or DevTools
 * round trips. Times are epoch milliseconds (`performance.timeOrigin + performance.now()`), comparable
 * across the workbench and its webview frames.
 *
 * In-page code is passed as strings: the page has no TypeScript helpers (as in test/webview/harness.ts).
 */
import type { Frame, Page } from "playwright-core";

/** Bound of every wait here: a huge session on a loaded 2-core machine is slow, but not this slow. */
export const PROBE_TIMEOUT_MS = 120_000;

/**
 * Init script for every frame (BrowserContext.addInitScript). The webview shell frame (pre/index.html) notes
 * when its content frame first shows the tree's active leaf (`__agentTreeLeafAt`) and a chat message
 * (`__agentTreeChatAt`). The content frame itself is written by the shell (document.open/write), which this
 * script does not run in, so the shell looks into it (same origin) every 10 ms until it shows one of them.
 */
export const LOAD_PROBE = `(() => {
  if (!location.pathname.endsWith("/webview/browser/pre/index.html") || window.__agentTreeProbe) return;
  window.__agentTreeProbe = true;
  const now = () => performance.timeOrigin + performance.now();
  const tick = () => {
    const frame = document.getElementById("active-frame");
    const doc = frame && frame.contentDocument;
    if (doc) {
      if (window.__agentTreeLeafAt === undefined && doc.querySelector('[role="treeitem"].active-leaf') !== null)
        window.__agentTreeLeafAt = now();
      if (window.__agentTreeChatAt === undefined && doc.querySelector(".chat-row") !== null)
        window.__agentTreeChatAt = now();
    }
    // One shell holds one view: done once it showed what that view waits for.
    if (window.__agentTreeLeafAt === undefined && window.__agentTreeChatAt === undefined) setTimeout(tick, 10);
  };
  tick();
})()`;

/** What a watch waits for. */
export type WatchTarget =
  /** The quick pick titled `title` is shown with its items. */
  | { kind: "quickPick"; title: string }
  /** The tree marks `id` as the active leaf. */
  | { kind: "leaf"; id: string }
  /** The chat's last row is the message `id`. */
  | { kind: "chatEnds"; id: string }
  /** The tree shows the row of `id` as selected. */
  | { kind: "selected"; id: string };

const TESTS = `{
  quickPick: (t) => {
    const w = document.querySelector(".quick-input-widget");
    if (w === null || w.style.display === "none") return false;
    const title = w.querySelector(".quick-input-title");
    return title !== null && title.textContent.includes(t.title) && w.querySelector(".quick-input-list .monaco-list-row") !== null;
  },
  leaf: (t) => document.querySelector('[role="treeitem"].active-leaf[data-entry-id="' + t.id + '"]') !== null,
  selected: (t) => document.querySelector('[role="treeitem"].selected[data-entry-id="' + t.id + '"]') !== null,
  chatEnds: (t) => {
    const rows = document.querySelectorAll("[data-row-key]");
    return rows.length > 0 && rows[rows.length - 1].getAttribute("data-row-key") === t.id;
  },
}`;

/**
 * Arms a watch in `frame` under `slot`: a promise on the page that resolves with the time of the first frame
 * in which `target` holds. Armed before the action it measures; read with {@link watchTime}.
 */
export async function armWatch(frame: Frame | Page, slot: string, target: WatchTarget): Promise<void> {
  await frame.evaluate(`(() => {
    const target = ${JSON.stringify(target)};
    const test = ${TESTS}[target.kind];
    window.__agentTreeWatch = window.__agentTreeWatch || {};
    window.__agentTreeWatch[${JSON.stringify(slot)}] = new Promise((resolve) => {
      const done = () => requestAnimationFrame(() => resolve(performance.timeOrigin + performance.now()));
      if (test(target)) return done();
      const observer = new MutationObserver(() => {
        if (!test(target)) return;
        observer.disconnect();
        done();
      });
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    });
  })()`);
}

/** Arms a note of the next user input of `type` (click, keydown) in `frame`, read with {@link watchTime}. */
export async function armInput(frame: Frame | Page, slot: string, type: "click" | "keydown"): Promise<void> {
  await frame.evaluate(`(() => {
    window.__agentTreeWatch = window.__agentTreeWatch || {};
    window.__agentTreeWatch[${JSON.stringify(slot)}] = new Promise((resolve) => {
      document.addEventListener(${JSON.stringify(type)}, () => resolve(performance.timeOrigin + performance.now()), { capture: true, once: true });
    });
  })()`);
}

/** The time a watch or input note armed under `slot` fired (waits for it, bounded). */
export async function watchTime(frame: Frame | Page, slot: string, what: string): Promise<number> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out after ${PROBE_TIMEOUT_MS} ms waiting for ${what}`)),
      PROBE_TIMEOUT_MS,
    );
  });
  try {
    return (await Promise.race([
      frame.evaluate(`window.__agentTreeWatch[${JSON.stringify(slot)}]`),
      timeout,
    ])) as number;
  } finally {
    clearTimeout(timer);
  }
}

/** A load-probe time noted by the shell of the webview content `frame`, once it is set. */
export async function loadTime(frame: Frame, name: "__agentTreeLeafAt" | "__agentTreeChatAt"): Promise<number> {
  const shell = frame.parentFrame();
  if (shell === null) throw new Error(`the webview frame ${frame.url().slice(0, 80)} has no shell frame`);
  const deadline = Date.now() + PROBE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const at = (await shell.evaluate(`window.${name}`)) as number | null | undefined;
    if (typeof at === "number") return at;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out after ${PROBE_TIMEOUT_MS} ms waiting for ${name} in ${frame.url().slice(0, 80)}`);
}

/** The webview frame that holds `selector` (the tree: `[role="tree"]`, the chat: `.chat-messages`), bounded. */
export async function webviewFrame(page: Page, selector: string): Promise<Frame> {
  const deadline = Date.now() + PROBE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (!frame.url().includes("/webview/")) continue;
      const found = await frame
        .evaluate(`document.querySelector(${JSON.stringify(selector)}) !== null`)
        .catch(() => false);
      if (found === true) return frame;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no webview frame holding ${selector} within ${PROBE_TIMEOUT_MS} ms`);
}

/**
 * Starts noting the time between animation frames in `frame` (requestAnimationFrame timestamps: when each frame
 * began), until {@link stopFrameTimes}.
 */
export async function startFrameTimes(frame: Frame): Promise<void> {
  await frame.evaluate(`(() => {
    const s = { deltas: [], last: undefined, on: true };
    window.__agentTreeFrames = s;
    const tick = (t) => {
      if (!s.on) return;
      if (s.last !== undefined) s.deltas.push(t - s.last);
      s.last = t;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
}

/** Stops the frame times started by {@link startFrameTimes} and returns them (ms between frames). */
export async function stopFrameTimes(frame: Frame): Promise<number[]> {
  return (await frame.evaluate(`(() => {
    const s = window.__agentTreeFrames;
    if (s === undefined) throw new Error("no frame times were started in this frame");
    s.on = false;
    window.__agentTreeFrames = undefined;
    return s.deltas;
  })()`)) as number[];
}

/** Long animation frames (> 50 ms) seen by one document, and where their script time went. */
export interface LongFrames {
  count: number;
  totalMs: number;
  /** Script time by source file (last path segment, or the invoker when there is no file), largest first. */
  scripts: [string, number][];
  /** Style, layout and paint time of those frames. */
  renderMs: number;
}

/** Starts collecting long animation frames (Chromium's Long Animation Frames API) in `frame`. */
export async function startLongFrames(frame: Frame | Page): Promise<void> {
  await frame.evaluate(`(() => {
    const s = { entries: [] };
    s.observer = new PerformanceObserver((list) => s.entries.push(...list.getEntries()));
    s.observer.observe({ type: "long-animation-frame" });
    window.__agentTreeLongFrames = s;
  })()`);
}

/** Stops {@link startLongFrames} and sums what it saw. */
export async function stopLongFrames(frame: Frame | Page): Promise<LongFrames> {
  return (await frame.evaluate(`(() => {
    const s = window.__agentTreeLongFrames;
    if (s === undefined) throw new Error("no long-frame collection was started in this frame");
    s.entries.push(...s.observer.takeRecords());
    s.observer.disconnect();
    window.__agentTreeLongFrames = undefined;
    const scripts = new Map();
    let totalMs = 0;
    let renderMs = 0;
    for (const e of s.entries) {
      totalMs += e.duration;
      if (e.renderStart > 0) renderMs += e.startTime + e.duration - e.renderStart;
      for (const sc of e.scripts) {
        const key = (sc.sourceURL && sc.sourceURL.split(/[?#]/)[0].split("/").pop()) || sc.invoker || sc.invokerType;
        scripts.set(key, (scripts.get(key) || 0) + sc.duration);
      }
    }
    return { count: s.entries.length, totalMs, renderMs, scripts: [...scripts].sort((a, b) => b[1] - a[1]).slice(0, 5) };
  })()`)) as LongFrames;
}
