/**
 * The stdio transport of a server started away from the extension host (src/core/mcp/mcp-stdio-transport.ts),
 * under the SDK's own Client against the SDK-written fixture server: it speaks MCP, the pid it reports is the
 * server's, and a server closed before its pid was known is gone when the close resolves.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { DetachedStdioTransport } from "../../../src/core/mcp/mcp-stdio-transport.js";
import { endProcess, startedGroup } from "../../../src/core/mcp/mcp-process.js";
import { FIXTURE_SERVER } from "../../util/mcp-fixture.js";

const HAS_SETSID = ["/usr/bin/setsid", "/bin/setsid"].some((p) => fs.existsSync(p));

/** pids of the processes whose command line holds `marker`. */
function withMarker(marker: string): number[] {
  return fs.readdirSync("/proc").flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      return fs.readFileSync(path.join("/proc", name, "cmdline"), "utf8").includes(marker) ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

describe("the detached stdio transport", { timeout: 60_000, skip: !HAS_SETSID && "needs setsid (Linux)" }, () => {
  it("speaks MCP through the SDK's Client; the pid it reports is the server's own", async () => {
    const started: number[] = [];
    const transport = new DetachedStdioTransport(
      { command: process.execPath, args: [FIXTURE_SERVER], cwd: process.cwd(), env: {} },
      (pid) => started.push(pid),
    );
    let stderr = "";
    transport.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const client = new Client({ name: "test", version: "1" }, { capabilities: {} });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === "echo"));
      const echo = await client.callTool({ name: "echo", arguments: { text: "hi" } });
      assert.deepEqual(echo.content, [{ type: "text", text: "echo: hi" }]);
      const pid = await client.callTool({ name: "pid", arguments: {} });
      assert.deepEqual(started, [transport.pid]);
      assert.deepEqual(pid.content, [{ type: "text", text: String(transport.pid) }]);
      assert.match(stderr, /fixture server \d+ starting/, "its stderr is passed on");
    } finally {
      await client.close();
      for (const pid of started) assert.ok(await endProcess(startedGroup(pid)), "the server ended");
    }
  });

  it("a server closed before its pid was known is gone when the close resolves", async () => {
    const marker = `agent-tree-marker-${randomBytes(6).toString("hex")}`;
    const started: number[] = [];
    const transport = new DetachedStdioTransport(
      { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)", marker], cwd: process.cwd(), env: {} },
      (pid) => started.push(pid),
    );
    const start = transport.start();
    await transport.close();
    assert.deepEqual(withMarker(marker), [], "the server runs after the close resolved");
    await start;
    assert.deepEqual(started, [], "a server closed before it ran is not handed to an owner");
  });
});
