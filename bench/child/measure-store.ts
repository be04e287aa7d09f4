/**
 * A measuring child: opens one session with one implementation, times each operation and prints one JSON line
 * (ChildResult). Run in a fresh process per measurement, so peak RSS belongs to this run alone.
 * Usage (by bench/run.ts): node child.mjs '<ChildConfig as JSON>'
 */
import { performance } from "node:perf_hooks";
import type { AgentMessage } from "../../src/core/messages.js";
import { textReply } from "../generate/text-reply.js";
import { readFloor } from "./floor.js";
import { peakRssBytes } from "./proc-stats.js";
import type { ChildConfig, ChildResult } from "./protocol.js";
import { loadPi, openOurs, type StoreUnderTest } from "./store-adapters.js";

/** Times `fn` in milliseconds. */
function time<T>(fn: () => T): [T, number] {
  const start = performance.now();
  const value = fn();
  return [value, performance.now() - start];
}

/** CPU time of a process.cpuUsage() difference, in ms. */
function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

/** Messages appended during the append test: a short prompt and a ~1 KB reply, alternating. */
function appendMessageAt(i: number): AgentMessage {
  const timestamp = Date.now();
  if (i % 2 === 0)
    return { role: "user", content: `benchmark prompt ${i}: please continue with the next step`, timestamp };
  return textReply(`Reply ${i}. `.padEnd(1000, "lorem ipsum dolor sit amet "), timestamp);
}

async function measureStore(config: ChildConfig): Promise<ChildResult> {
  let open: (file: string) => Promise<StoreUnderTest> | StoreUnderTest;
  if (config.impl === "ours") open = openOurs;
  else if (config.piModule) open = await loadPi(config.piModule, config.scratchDir);
  else throw new Error(`${config.impl}: no pi module given`);
  const rssBaseline = peakRssBytes();

  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const store = await open(config.file);
  const openMs = performance.now() - start;
  const openCpuMs = cpuMs(process.cpuUsage(cpuStart));
  const peakRssOpen = peakRssBytes();
  // What a user waits for: the tree drawn (every node with its preview) and the context for the next prompt.
  const [, getTreeMs] = time(() => store.getTree());
  const [, buildContextMs] = time(() => store.buildSessionContext());
  const readyMs = openMs + getTreeMs + buildContextMs;
  const peakRssReady = peakRssBytes();

  const entries = store.entryCount();
  const navigateMs = config.navTargets.map((id) => time(() => store.branch(id))[1]);
  // Appends continue from the last navigation target, like a user typing after a move.
  const appendMs: number[] = [];
  for (let i = 0; i < config.appends; i++) {
    const message = appendMessageAt(i);
    appendMs.push(time(() => store.appendMessage(message))[1]);
  }
  await store.close();
  return {
    impl: config.impl,
    entries,
    openMs,
    openCpuMs,
    peakRssOpen,
    readyMs,
    peakRssReady,
    rssBaseline,
    peakRssEnd: peakRssBytes(),
    getTreeMs,
    buildContextMs,
    navigateMs,
    appendMs,
  };
}

function measureFloor(config: ChildConfig): ChildResult {
  const rssBaseline = peakRssBytes();
  const cpuStart = process.cpuUsage();
  const [lines, openMs] = time(() => readFloor(config.file));
  const openCpuMs = cpuMs(process.cpuUsage(cpuStart));
  const peakRssOpen = peakRssBytes();
  return {
    impl: "floor",
    entries: lines - 1,
    openMs,
    openCpuMs,
    peakRssOpen,
    readyMs: openMs,
    peakRssReady: peakRssOpen,
    rssBaseline,
  };
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? "{}") as ChildConfig;
  const result = config.impl === "floor" ? measureFloor(config) : await measureStore(config);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
