/**
 * One fresh process of the session-listing benchmark (bench/sessions-list/measure-list.ts): lists the corpus's
 * sessions as Open Session… does (`listAllSessions`), twice, and prints one JSON line: the times of both listings
 * and the longest the event loop was held during the first one.
 */
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { listAllSessions } from "../../src/core/import/session-sources.js";

async function main(): Promise<void> {
  const [cwd, sessionDir, agentDir] = process.argv.slice(2);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let t = performance.now();
  const first = await listAllSessions(cwd, { sessionDir, agentDir, claudeDir: null });
  const firstMs = performance.now() - t;
  delay.disable();
  t = performance.now();
  const second = await listAllSessions(cwd, { sessionDir, agentDir, claudeDir: null });
  const secondMs = performance.now() - t;
  if (second.length !== first.length) throw new Error(`the listings differ: ${first.length} vs ${second.length}`);
  console.log(JSON.stringify({ sessions: first.length, firstMs, secondMs, maxBlockMs: delay.max / 1e6 }));
}

void main();
