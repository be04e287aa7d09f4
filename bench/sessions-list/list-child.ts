/**
 * One fresh process of the session-listing benchmark (bench/sessions-list/measure-list.ts): lists the corpus's
 * sessions as Open Session… does (`listAllSessions`), twice, and prints one JSON line: the times of both listings,
 * the longest the event loop was held during the first one, and its CPU time (the whole process, workers included).
 * With a worker script (the bundled list worker) and a count, the files are read in that many worker threads, as
 * the extension does; without, in this thread.
 */
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { listAllSessions } from "../../src/core/import/session-sources.js";
import { SessionInfoReader } from "../../src/core/session/session-info-reader.js";

async function main(): Promise<void> {
  const [cwd, sessionDir, agentDir, workerScript, workers] = process.argv.slice(2);
  const reader = workerScript ? new SessionInfoReader({ workerScript, workers: Number(workers) }) : undefined;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  let t = performance.now();
  const first = await listAllSessions(cwd, { sessionDir, agentDir, claudeDir: null, reader });
  const firstMs = performance.now() - t;
  const cpuMs = ((u) => (u.user + u.system) / 1000)(process.cpuUsage(cpu));
  delay.disable();
  // How long this thread's event loop was busy during the first listing: its share of the work, which the longest
  // delay (also a measure of the machine's load) does not tell.
  const busyMs = performance.eventLoopUtilization(elu).active;
  t = performance.now();
  const second = await listAllSessions(cwd, { sessionDir, agentDir, claudeDir: null, reader });
  const secondMs = performance.now() - t;
  if (second.length !== first.length) throw new Error(`the listings differ: ${first.length} vs ${second.length}`);
  if (reader && reader.readInWorkers === 0) throw new Error("the workers read nothing");
  await reader?.dispose();
  console.log(
    JSON.stringify({ sessions: first.length, firstMs, secondMs, maxBlockMs: delay.max / 1e6, busyMs, cpuMs }),
  );
}

void main();
