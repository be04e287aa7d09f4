/**
 * Prints the functions with the most self time in a V8 CPU profile (from `npm run bench -- --cpu-prof`,
 * written to bench/.data/profiles/). Usage: node --import tsx bench/profile-summary.ts <file.cpuprofile> [top]
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function (ms), most first. */
export function selfTimes(profile: CpuProfile): { name: string; ms: number }[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const name = `${functionName || "(anonymous)"} ${url ? `${basename(url)}:${lineNumber + 1}` : ""}`.trim();
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  return [...totals.entries()].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}

if (process.argv[1] && basename(process.argv[1]).startsWith("profile-summary")) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: node --import tsx bench/profile-summary.ts <file.cpuprofile> [top]");
    process.exit(2);
  }
  const top = Number(process.argv[3] ?? 25);
  const rows = selfTimes(JSON.parse(readFileSync(file, "utf8")) as CpuProfile);
  const total = rows.reduce((sum, r) => sum + r.ms, 0);
  for (const r of rows.slice(0, top)) {
    console.log(`${r.ms.toFixed(1).padStart(9)} ms ${((r.ms / total) * 100).toFixed(1).padStart(5)} %  ${r.name}`);
  }
}
