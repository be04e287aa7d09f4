/**
 * Starting a `bash` tool call (printed by `npm run bench`; alone: `npm run bench -- --bash-only` or
 * `node --import tsx bench/bash/measure-bash.ts`): the same command through the agent's bash tool (key-free
 * environment, the detached helper under `setsid -f`, output collected and formatted) and through a plain
 * `spawn` of `bash -c`, interleaved so the machine's load hits both alike. The tool's cost over the plain spawn is
 * what starting a command away from the extension host adds (target: medians within 150 ms).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createBashTool } from "../../src/core/tools/bash-tool.js";
import { median } from "../stats.js";
import { printAlone } from "../print-alone.js";

/** How much a bash call may cost over a plain spawn of the same command (ms). */
export const OVERHEAD_TARGET_MS = 150;
/** The commands timed: nothing at all, and one that prints. */
const COMMANDS = ["true", "echo hello"];

/** One command's timings, ms per call. */
export interface BashCase {
  command: string;
  toolMs: number[];
  spawnMs: number[];
}

/** What was measured. */
export interface BashMeasurement {
  calls: number;
  cases: BashCase[];
}

const SHELL = existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";

/** A plain spawn of the same shell and command, until it has closed its output. */
function plainSpawn(command: string, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(SHELL, ["-c", command], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.resume();
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${command}: exit ${code}`))));
  });
}

/** Times `calls` calls of each command both ways (after one untimed call each). */
export async function measureBash(calls = 30): Promise<BashMeasurement> {
  const cwd = mkdtempSync(join(tmpdir(), "agent-tree-bench-bash-"));
  try {
    const tool = createBashTool(cwd);
    const viaTool = async (command: string): Promise<void> => {
      const r = await tool.execute({ command }, { cwd });
      if (r.isError) throw new Error(`bash tool, ${command}: ${JSON.stringify(r.content)}`);
    };
    const cases: BashCase[] = [];
    for (const command of COMMANDS) {
      await viaTool(command);
      await plainSpawn(command, cwd);
      const c: BashCase = { command, toolMs: [], spawnMs: [] };
      for (let i = 0; i < calls; i++) {
        let t = performance.now();
        await viaTool(command);
        c.toolMs.push(performance.now() - t);
        t = performance.now();
        await plainSpawn(command, cwd);
        c.spawnMs.push(performance.now() - t);
      }
      cases.push(c);
    }
    return { calls, cases };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

function signed(ms: number): string {
  return `${ms < 0 ? "−" : "+"}${Math.abs(ms).toFixed(1)} ms`;
}

/**
 * The printed lines, one per command. The verdict is on the medians (as the target is stated); the slowest call's
 * overhead (over the plain spawn timed right after it) is shown beside them, since one busy moment of a shared
 * machine can land on any single call.
 */
export function bashLines(m: BashMeasurement): string[] {
  return m.cases.map((c) => {
    const tool = median(c.toolMs);
    const plain = median(c.spawnMs);
    const worst = Math.max(...c.toolMs.map((t, i) => t - c.spawnMs[i]));
    const verdict = tool - plain <= OVERHEAD_TARGET_MS ? "PASS" : "MISS";
    return (
      `bash tool \`${c.command}\` (median of ${m.calls}): ${tool.toFixed(1)} ms through the tool, ` +
      `${plain.toFixed(1)} ms plain spawn: ${signed(tool - plain)} (×${(tool / plain).toFixed(1)}; ` +
      `target ≤ +${OVERHEAD_TARGET_MS} ms: ${verdict}), slowest call ${signed(worst)}`
    );
  });
}

if (process.argv[1]?.endsWith("measure-bash.ts")) printAlone(measureBash(), bashLines);
