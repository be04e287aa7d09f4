/** A streamable HTTP MCP server (the SDK's server transport on 127.0.0.1): headers with ${VAR}, tools, a call. */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { mergeMcpLayers } from "../../../src/core/mcp/mcp-config.js";
import { McpPool, type McpReport } from "../../../src/core/mcp/mcp-pool.js";

describe("MCP over streamable HTTP", { timeout: 60_000 }, () => {
  let httpServer: http.Server;
  let url = "";
  const authorizations: string[] = [];

  before(async () => {
    const server = new Server({ name: "http-fixture", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        {
          name: "lookup",
          description: "Look a word up.",
          inputSchema: { type: "object", properties: { word: { type: "string" } } },
          annotations: { readOnlyHint: true },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (req) => ({
      content: [{ type: "text", text: `definition of ${String(req.params.arguments?.word)}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await server.connect(transport);
    httpServer = http.createServer((req, res) => {
      authorizations.push(String(req.headers.authorization));
      void transport.handleRequest(req, res);
    });
    await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
  });
  after(async () => {
    httpServer.closeAllConnections();
    await new Promise((resolve) => httpServer.close(resolve));
  });

  it("connects with the configured headers (variables filled in), lists and calls the tools", async () => {
    process.env.AGENT_TREE_MCP_HTTP_TOKEN = "http-token-0123456789";
    const config = mergeMcpLayers([
      {
        source: "test",
        origin: "user",
        servers: { dict: { url, headers: { Authorization: "Bearer ${AGENT_TREE_MCP_HTTP_TOKEN}" } } },
      },
    ]);
    const reports: McpReport[] = [];
    const pool = new McpPool({ cwd: process.cwd(), loadConfig: () => config, onReport: (r) => reports.push(r) });
    try {
      const tools = await pool.ready();
      assert.deepEqual(reports, []);
      assert.deepEqual(
        tools.map((t) => t.name),
        ["mcp__dict__lookup"],
      );
      const result = await tools[0].execute({ word: "tree" }, { cwd: "." });
      assert.deepEqual(result.content, [{ type: "text", text: "definition of tree" }]);
      assert.ok(authorizations.length > 0);
      assert.ok(
        authorizations.every((a) => a === "Bearer http-token-0123456789"),
        authorizations.join(", "),
      );
      const status = pool.status()[0];
      assert.equal(status.transport, "http");
      assert.equal(status.target, url, "the listing shows the URL, never the headers");
    } finally {
      delete process.env.AGENT_TREE_MCP_HTTP_TOKEN;
      await pool.dispose();
    }
  });

  it("a server that cannot be reached is reported once and leaves no tools", async () => {
    const config = mergeMcpLayers([
      { source: "test", origin: "user", servers: { gone: { url: "http://127.0.0.1:9/mcp" } } },
    ]);
    const reports: McpReport[] = [];
    const pool = new McpPool({ cwd: process.cwd(), loadConfig: () => config, onReport: (r) => reports.push(r) });
    try {
      assert.deepEqual(await pool.ready(), []);
      assert.equal(reports.length, 1);
      assert.match(reports[0].message, /MCP server "gone": it failed to start: .*(ECONNREFUSED|fetch failed)/);
      assert.equal(pool.status()[0].state, "failed");
    } finally {
      await pool.dispose();
    }
  });
});
