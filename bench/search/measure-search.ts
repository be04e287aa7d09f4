/**
 * A search-benchmark child (bundled to bench/.data/search-child.mjs, run by a fresh `node`): lists the
 * workspace's session files as the extension does, then runs each query with our SessionSearch (worker
 * threads, or in this thread), timing the first hit and the end. Prints one JSON line.
 */
import { findSearchTargets } from "../../src/core/search/search-targets.js";
import { SessionSearch } from "../../src/core/search/session-search.js";
import type { SearchChildConfig, SearchChildResult, QueryTiming } from "./protocol.js";

function cpuMs(since: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? "{}") as SearchChildConfig;
  const listStart = performance.now();
  const targets = await findSearchTargets(config.cwd, {
    sessionDir: config.sessionDir,
    agentDir: config.agentDir,
    claudeDir: null,
  });
  const listMs = performance.now() - listStart;
  const search = new SessionSearch({ workerScript: config.workerScript, workers: config.workers });
  const timings: QueryTiming[] = [];
  try {
    for (const q of config.queries) {
      const cpu = process.cpuUsage();
      const start = performance.now();
      let firstHitMs = Number.NaN;
      const hitIds: string[] = [];
      const outcome = await search.search(
        q.text,
        targets,
        (hit) => {
          if (hitIds.length === 0) firstHitMs = performance.now() - start;
          hitIds.push(hit.entryId);
        },
        { maxHits: q.maxHits },
      );
      timings.push({
        query: q.text,
        firstHitMs,
        totalMs: performance.now() - start,
        cpuMs: cpuMs(cpu),
        hits: hitIds.length,
        firstHitId: hitIds[0],
        truncated: outcome.truncated,
        bytes: outcome.stats.bytes,
        files: outcome.stats.files,
        candidateLines: outcome.stats.candidateLines,
      });
    }
  } finally {
    await search.dispose();
  }
  const result: SearchChildResult = { targets: targets.length, listMs, timings };
  console.log(JSON.stringify(result));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exitCode = 1;
});
