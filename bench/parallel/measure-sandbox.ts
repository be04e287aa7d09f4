/**
 * What the branches' confinement costs (printed by `npm run bench`, or alone:
 * `node --import tsx bench/parallel/measure-sandbox.ts [runs]`), medians of `runs`:
 * - starting a command in the bubblewrap sandbox (src/core/tools/sandbox.ts): `bwrap <a branch's mounts> -- true`
 *   beside plain `true`, spawned directly, so the difference is the sandbox's own set-up (namespaces, mounts);
 * - one check of the copies' size cap while a branch runs (src/core/parallel/copies-cap.ts): a walk of the copies
 *   folder holding three copies of a 10,000-file workspace (a check runs after each call of a tool that may change
 *   files, and every 5 s while one runs).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { CopiesMeter } from "../../src/core/parallel/copies-cap.js";
import { bubblewrapArgs, findSandbox } from "../../src/core/tools/sandbox.js";
import { generateWorkspace } from "../checkpoints/workspaces.js";
import { median } from "../stats.js";
import { printAlone } from "../print-alone.js";

/** What was measured (ms per run). */
export interface SandboxMeasurement {
  /** Undefined when this machine has no working sandbox (with the reason). */
  sandboxMs?: number[];
  plainMs: number[];
  noSandbox?: string;
  files: number;
  capCheckMs: number[];
}

function timeSpawn(cmd: string, args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { stdio: "ignore" });
  if (r.status !== 0) throw new Error(`${cmd} exited with ${r.status}`);
  return performance.now() - t0;
}

/** Measures `runs` rounds of each (see the file comment). */
export async function measureSandbox(runs: number): Promise<SandboxMeasurement> {
  const root = mkdtempSync(join(tmpdir(), "agent-tree-bench-sandbox-"));
  try {
    const copiesDir = join(root, "copies");
    const files = 10_000;
    for (const key of ["a", "b", "c"]) generateWorkspace(join(copiesDir, key, "files"), files);
    const ws = join(root, "ws");
    mkdirSync(ws);
    const probe = await findSandbox();
    const plainMs: number[] = [];
    const sandboxMs: number[] = [];
    const policy = { writable: [join(copiesDir, "a", "files")], hidden: [ws], network: false };
    const args = probe.available ? bubblewrapArgs(policy, process.env, policy.writable[0]) : [];
    for (let i = 0; i < runs; i++) {
      plainMs.push(timeSpawn("/bin/true", []));
      if (probe.available) sandboxMs.push(timeSpawn(probe.bwrap, [...args, "--", "/bin/true"]));
    }
    const meter = new CopiesMeter(copiesDir);
    const capCheckMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await meter.measure();
      capCheckMs.push(performance.now() - t0);
    }
    return {
      ...(probe.available ? { sandboxMs } : { noSandbox: probe.reason }),
      plainMs,
      files,
      capCheckMs,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The printed lines. */
export function sandboxLines(m: SandboxMeasurement): string[] {
  const ms = (v: number): string => `${v.toFixed(1)} ms`;
  const start = m.sandboxMs
    ? `a command in the bubblewrap sandbox starts in ${ms(median(m.sandboxMs))} median (max ` +
      `${ms(Math.max(...m.sandboxMs))}) against ${ms(median(m.plainMs))} without it, ${m.plainMs.length} runs`
    : `no sandbox here (${m.noSandbox ?? "unknown"}); a plain command starts in ${ms(median(m.plainMs))}`;
  return [
    `sandbox: ${start}`,
    `sandbox: one check of the copies' size cap (3 copies of ${m.files.toLocaleString("en-US")} files) takes ` +
      `${ms(median(m.capCheckMs))} median (max ${ms(Math.max(...m.capCheckMs))}), ${m.capCheckMs.length} runs`,
  ];
}

if (require.main === module) printAlone(measureSandbox(Number(process.argv[2] ?? 5)), sandboxLines);
