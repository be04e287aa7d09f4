/**
 * Probe (printed, not part of `npm run bench`): the tree webview's style and layout work per branch switch, from a
 * DevTools trace of the page (Playwright's CDP session). Each move is posted as the host posts one (tree/busy on,
 * the update with the leaf marker's row and the reveal, tree/busy off; a frame after each) between two assistant
 * rows above the leaf in view, as bench/ui/measure-ui.ts moves in the real UI. The trace's UpdateLayoutTree (style)
 * and Layout events over the moves are summed per phase: time, elements styled, objects laid out.
 *
 *   npx tsx bench/webview/probe-tree-layout.ts <session.jsonl | demo> [--runs N] [--moves N] [--short N]
 *     [--no-busy] [--far] [--mutations]
 *
 * `demo` generates the demo session; `--short N` cuts every preview to N characters (the same tree, short texts);
 * `--no-busy` posts the updates alone; `--far` uses bench/webview's leaf moves (far jumps that scroll);
 * `--mutations` prints the DOM mutations the moves made.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CDPSession, Page } from "playwright-core";
import { generateDemo } from "../../demo/generate-demo.js";
import { decodeRows, encodeTreeRows } from "../../src/core/rows/row-columns.js";
import type { HostToWebview } from "../../src/shared/protocol.js";
import { launchBrowser, measureSnapshot, openView, settle, startWebviewServer } from "../../test/webview/harness.js";
import { leafMoves } from "./measure-webview.js";
import { buildSnapshot } from "./snapshot.js";

type Snapshot = HostToWebview & { type: "tree/snapshot" };
interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time: tts at a B/E pair's ends, tdur on a complete event. */
  tts?: number;
  tdur?: number;
  tid: number;
  args?: Record<string, unknown>;
}

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const source = args[0];
if (source === undefined) throw new Error("usage: probe-tree-layout.ts <session.jsonl | demo> [options]: see the file");
const short = opt("--short") === undefined ? undefined : Number(opt("--short"));
const runs = Number(opt("--runs") ?? "3");
const moveCount = Number(opt("--moves") ?? "6");
const busy = !args.includes("--no-busy");
const far = args.includes("--far");

/** A move's update aimed at `target`: the leaf marker's row under it, the leaf on it. */
function moveTo(u: HostToWebview & { type: "tree/update" }, target: string, i: number): typeof u {
  const [row] = decodeRows(u.rows ?? encodeTreeRows([]));
  if (row === undefined) throw new Error("a move's update carries the leaf marker's row");
  const marker = { ...row, id: `probe-move-${i}`, parentId: target };
  return { ...u, rows: encodeTreeRows([marker]), leafId: target };
}

/** The snapshot the host would post for the session (previews cut with --short). */
async function loadSnapshot(): Promise<Snapshot> {
  let file = source as string;
  if (file === "demo") {
    const dir = mkdtempSync(join(tmpdir(), "probe-demo-"));
    file = generateDemo(dir, { baseUrl: "http://127.0.0.1:9/v1" }).sessionFile;
  }
  const snap = (await buildSnapshot(file)).message;
  if (short === undefined) return snap;
  const rows = decodeRows(snap.rows).map((r) => ({ ...r, preview: r.preview.slice(0, short) }));
  return { ...snap, rows: encodeTreeRows(rows) };
}

/** A user-timing mark in the page: the trace's events after it belong to phase `name`. */
async function mark(page: Page, name: string): Promise<void> {
  await page.evaluate(`performance.mark("probe:${name}")`);
}

/** The page's trace events (style, layout, user timing) while `body` runs. */
async function trace(cdp: CDPSession, body: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  // The protocol types trace events as string maps; these are the fields read here.
  const onData = (e: { value: object[] }): void => void events.push(...(e.value as TraceEvent[]));
  cdp.on("Tracing.dataCollected", onData);
  await cdp.send("Tracing.start", {
    categories: "devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing",
    transferMode: "ReportEvents",
  });
  await body();
  const done = new Promise<void>((ok) => cdp.once("Tracing.tracingComplete", () => ok()));
  await cdp.send("Tracing.end");
  await done;
  cdp.off("Tracing.dataCollected", onData);
  return events;
}

interface Sum {
  n: number;
  ms: number;
  /** The same events' thread (CPU) time, less moved by the machine's load than their wall time. */
  cpuMs: number;
  /** Layout: the objects it laid out (dirtyObjects); UpdateLayoutTree: the elements it styled (elementCount). */
  touched: number;
}

/** Sums of one trace's main-thread Layout and UpdateLayoutTree events, keyed "<phase> <event>". */
function summarise(events: TraceEvent[]): Record<string, Sum> {
  let phase = "";
  const main = events.find((e) => e.name === "thread_name" && (e.args?.name as string) === "CrRendererMain")?.tid;
  const out: Record<string, Sum> = {};
  const open = new Map<string, TraceEvent>();
  events.sort((a, b) => a.ts - b.ts);
  for (const e of events) {
    if (e.name.startsWith("probe:")) phase = e.name.slice(6);
    if (e.tid !== main) continue;
    if (e.name !== "Layout" && e.name !== "UpdateLayoutTree") continue;
    let dur = e.dur;
    let cpu = e.tdur;
    let begin = e;
    if (e.ph === "B") {
      open.set(e.name, e);
      continue;
    }
    if (e.ph === "E") {
      const b = open.get(e.name);
      if (!b) continue;
      open.delete(e.name);
      dur = e.ts - b.ts;
      cpu = e.tts !== undefined && b.tts !== undefined ? e.tts - b.tts : undefined;
      begin = b;
    }
    if (dur === undefined) continue;
    const s = (out[`${phase} ${e.name}`] ??= { n: 0, ms: 0, cpuMs: 0, touched: 0 });
    s.n++;
    s.ms += dur / 1000;
    s.cpuMs += (cpu ?? NaN) / 1000;
    const bd = begin.args?.beginData as Record<string, unknown> | undefined;
    const touched = e.name === "Layout" ? Number(bd?.dirtyObjects ?? 0) : Number(begin.args?.elementCount ?? 0);
    s.touched += touched;
  }
  return out;
}

async function main(): Promise<void> {
  const snapshot = await loadSnapshot();
  const server = await startWebviewServer();
  const browser = await launchBrowser();
  try {
    for (let run = 0; run < runs; run++) {
      const view = await openView(browser, server, { view: "tree", width: 400, height: 800 });
      try {
        await measureSnapshot(view, snapshot);
        // As bench/ui/measure-ui.ts moves: between two assistant rows above the leaf, in view (no scroll).
        const ids = (await view.page.evaluate(`(() => {
        const rows = [...document.querySelectorAll('[role="treeitem"]')].sort((a, b) => a.offsetTop - b.offsetTop);
        const leaf = rows.findIndex((r) => r.classList.contains("active-leaf"));
        const box = document.querySelector(".tree-scroll").getBoundingClientRect();
        const inView = (r) => { const b = r.getBoundingClientRect(); return b.top >= box.top && b.bottom <= box.bottom; };
        return rows.slice(0, leaf < 0 ? rows.length : leaf).reverse()
          .filter((r) => r.classList.contains("kind-assistant") && inView(r))
          .map((r) => r.getAttribute("data-entry-id"));
      })()`)) as string[];
        const targets = far ? undefined : [ids[Math.min(1, ids.length - 2)], ids[Math.min(3, ids.length - 1)]];
        const moves = leafMoves(snapshot)
          .slice(-moveCount)
          .map((u, i) => (targets ? moveTo(u, targets[i % 2] as string, i) : u));
        const domRows = await view.page.evaluate(`document.querySelectorAll('[role="treeitem"]').length`);
        const cdp = await view.page.context().newCDPSession(view.page);
        if (args.includes("--mutations"))
          await view.page.evaluate(`(() => {
          window.__muts = [];
          new MutationObserver((ms) => { for (const m of ms) window.__muts.push(m.type + " " + (m.attributeName ?? "") + " " + (m.target.className ?? m.target.nodeName) + " +" + m.addedNodes.length + " -" + m.removedNodes.length); })
            .observe(document.querySelector(".tree-view"), { subtree: true, attributes: true, childList: true, characterData: true });
        })()`);
        const events = await trace(cdp, async () => {
          for (const update of moves) {
            if (busy) {
              await mark(view.page, "busy-on");
              await view.send({ type: "tree/busy", busy: true, message: "Switching branch…" });
              await settle(view.page);
            }
            await mark(view.page, "update");
            await view.send(update);
            await view.send({ type: "tree/reveal", entryId: update.leafId as string });
            await settle(view.page);
            if (busy) {
              await mark(view.page, "busy-off");
              await view.send({ type: "tree/busy", busy: false });
              await settle(view.page);
            }
          }
        });
        const sums = summarise(events);
        if (args.includes("--mutations")) {
          const muts = (await view.page.evaluate("window.__muts")) as string[];
          const counts = new Map<string, number>();
          for (const m of muts) counts.set(m, (counts.get(m) ?? 0) + 1);
          console.log([...counts].map(([k, v]) => `${v}× ${k}`).join("\n"));
        }
        const f = (k: string): string => {
          const s = sums[k];
          return s ? `${s.ms.toFixed(1)} ms (CPU ${s.cpuMs.toFixed(1)}) / ${s.n} (${s.touched} touched)` : "-";
        };
        console.log(`run ${run}: ${domRows} rows`);
        const total = (name: string): [number, number, number] =>
          Object.entries(sums)
            .filter(([k]) => k.endsWith(` ${name}`))
            .reduce(([ms, cpu, n], [, v]) => [ms + v.ms, cpu + v.cpuMs, n + v.touched], [0, 0, 0]);
        const [lms, lcpu, ln] = total("Layout");
        const [sms, scpu, sn] = total("UpdateLayoutTree");
        console.log(
          `TOTAL layout ${lms.toFixed(1)} ms (${ln} objects), style ${sms.toFixed(1)} ms (${sn} elements), sum ${(lms + sms).toFixed(1)} ms, CPU ${(lcpu + scpu).toFixed(1)} ms`,
        );
        for (const ph of ["busy-on", "update", "busy-off"])
          console.log(`  ${ph}: Layout ${f(`${ph} Layout`)}; UpdateLayoutTree ${f(`${ph} UpdateLayoutTree`)}`);
      } finally {
        await view.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

void main();
