/**
 * Child process for mcp-key-isolation.test.ts, standing in for the extension host: it is started with model keys in
 * its environment (so `/proc/<its pid>/environ` holds them, as the extension host's does), starts the fixture MCP
 * server through the pool as the extension does, asks the server for its ancestors and for its own pid, stops the
 * pool and prints what it saw as JSON.
 * argv: <names of the key variables, comma-separated>
 */
import { McpPool } from "../../../src/core/mcp/mcp-pool.js";
import type { McpAgentTool } from "../../../src/core/mcp/mcp-tool.js";
import { fixtureConfig } from "../../util/mcp-fixture.js";

async function main(): Promise<void> {
  const names = process.argv[2].split(",");
  const pool = new McpPool({
    cwd: process.cwd(),
    loadConfig: () => ({ servers: [fixtureConfig("fx", ["--ancestors"])], issues: [] }),
  });
  try {
    const tools = (await pool.ready()) as McpAgentTool[];
    const call = async (name: string, args: Record<string, unknown>): Promise<string> => {
      const tool = tools.find((t) => t.name === name);
      if (!tool) throw new Error(`no tool ${name}: ${JSON.stringify(pool.status())}`);
      const r = await tool.execute(args, { cwd: "." });
      return r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    };
    const ancestors = JSON.parse(await call("mcp__fx__ancestors", { names })) as unknown;
    const serverPid = Number(await call("mcp__fx__pid", {}));
    process.stdout.write(JSON.stringify({ host: process.pid, ancestors, serverPid, poolPids: pool.pids() }));
  } finally {
    await pool.dispose();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
