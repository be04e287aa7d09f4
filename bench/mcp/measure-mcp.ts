/**
 * Starting an MCP stdio server (printed by `npm run bench`; alone: `npm run bench -- --mcp-only` or
 * `node --import tsx bench/mcp/measure-mcp.ts`): the fixture server (test/fixtures/mcp) from start to its tools
 * listed, through the extension's pool (on Linux away from this process: `setsid` and the command helper, then the
 * detached transport) and through the SDK's own StdioClientTransport (a child of this process, as before) with the
 * same environment, interleaved so the machine's load hits both alike; then one `echo` call each way. The difference is what starting
 * the server away from the extension host adds (target: medians within 150 ms, as for a `bash` call).
 */
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpPool } from "../../src/core/mcp/mcp-pool.js";
import type { McpAgentTool } from "../../src/core/mcp/mcp-tool.js";
import { withoutKeys } from "../../src/core/providers/api-key.js";
import { canDetach } from "../../src/core/tools/command-process.js";
import { FIXTURE_SERVER, fixtureConfig } from "../../test/util/mcp-fixture.js";
import { median } from "../stats.js";
import { printAlone } from "../print-alone.js";

/** How much a server's start may cost over the SDK's own start of it (ms). */
export const OVERHEAD_TARGET_MS = 150;

/** What was measured, ms per run. */
export interface McpMeasurement {
  runs: number;
  /** True when the pool started the server away from this process (setsid); false: it used the SDK's transport. */
  detached: boolean;
  poolStartMs: number[];
  sdkStartMs: number[];
  poolCallMs: number[];
  sdkCallMs: number[];
}

/** Start to tools listed, and one echo call, through the pool; stopped after (not timed). */
async function viaPool(): Promise<{ startMs: number; callMs: number }> {
  const pool = new McpPool({ cwd: process.cwd(), loadConfig: () => ({ servers: [fixtureConfig("fx")], issues: [] }) });
  try {
    let t = performance.now();
    const tools = (await pool.ready()) as McpAgentTool[];
    const startMs = performance.now() - t;
    const echo = tools.find((x) => x.name === "mcp__fx__echo");
    if (!echo) throw new Error(`the pool did not start the fixture: ${JSON.stringify(pool.status())}`);
    t = performance.now();
    await echo.execute({ text: "bench" }, { cwd: "." });
    return { startMs, callMs: performance.now() - t };
  } finally {
    await pool.dispose();
  }
}

/** The environment the pool gives a server by default (this process's without the model keys), as strings. */
function poolEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(withoutKeys(process.env)).filter((e): e is [string, string] => e[1] !== undefined),
  );
}

/** The same through the SDK's Client and StdioClientTransport, with the same environment. */
async function viaSdk(): Promise<{ startMs: number; callMs: number }> {
  const client = new Client({ name: "agent-tree-bench", version: "1" }, { capabilities: {} });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FIXTURE_SERVER],
    env: poolEnv(),
    stderr: "pipe",
  });
  transport.stderr?.on("data", () => undefined);
  try {
    let t = performance.now();
    await client.connect(transport);
    await client.listTools();
    const startMs = performance.now() - t;
    t = performance.now();
    await client.callTool({ name: "echo", arguments: { text: "bench" } });
    return { startMs, callMs: performance.now() - t };
  } finally {
    await client.close();
  }
}

/** Times `runs` starts each way (after one untimed start each). */
export async function measureMcp(runs = 10): Promise<McpMeasurement> {
  await viaPool();
  await viaSdk();
  const m: McpMeasurement = {
    runs,
    detached: canDetach(),
    poolStartMs: [],
    sdkStartMs: [],
    poolCallMs: [],
    sdkCallMs: [],
  };
  for (let i = 0; i < runs; i++) {
    const pool = await viaPool();
    m.poolStartMs.push(pool.startMs);
    m.poolCallMs.push(pool.callMs);
    const sdk = await viaSdk();
    m.sdkStartMs.push(sdk.startMs);
    m.sdkCallMs.push(sdk.callMs);
  }
  return m;
}

function signed(ms: number): string {
  return `${ms < 0 ? "−" : "+"}${Math.abs(ms).toFixed(1)} ms`;
}

/** The printed lines: the start (with the verdict on the medians) and the call. */
export function mcpLines(m: McpMeasurement): string[] {
  const how = m.detached ? "away from this process (setsid)" : "as a child (no setsid here)";
  const start = median(m.poolStartMs);
  const sdkStart = median(m.sdkStartMs);
  const verdict = start - sdkStart <= OVERHEAD_TARGET_MS ? "PASS" : "MISS";
  return [
    `MCP stdio server start to tools listed (median of ${m.runs}): ${start.toFixed(1)} ms through the pool, ${how}; ` +
      `${sdkStart.toFixed(1)} ms through the SDK's StdioClientTransport: ${signed(start - sdkStart)} ` +
      `(target ≤ +${OVERHEAD_TARGET_MS} ms: ${verdict})`,
    `MCP tool call (echo, median of ${m.runs}): ${median(m.poolCallMs).toFixed(1)} ms through the pool, ` +
      `${median(m.sdkCallMs).toFixed(1)} ms through the SDK's client alone`,
  ];
}

if (process.argv[1]?.endsWith("measure-mcp.ts")) printAlone(measureMcp(), mcpLines);
