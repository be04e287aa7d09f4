/**
 * An MCP server's tool as an ordinary tool of the agent: pi's name, the server's JSON schema, approval like any
 * tool that may change something, the call through the server's client, the result converted as pi stores it.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchemaObject } from "../providers/types.js";
import type { AgentTool } from "../tools/types.js";
import type { McpConnection } from "./mcp-connection.js";
import { convertMcpResult } from "./mcp-result.js";

/** An agent tool backed by an MCP server. */
export interface McpAgentTool extends AgentTool {
  /** The server's name, as configured. */
  server: string;
  /** The tool's own name on the server. */
  mcpName: string;
  /** The server marks it read-only (`annotations.readOnlyHint`). */
  readOnly: boolean;
}

/** Tool parameters must be an object schema with `properties` (some providers reject one without). */
export function normalizeInputSchema(schema: Tool["inputSchema"] | undefined): JsonSchemaObject {
  const s: Record<string, unknown> = { ...(schema ?? {}) };
  return {
    ...s,
    type: "object",
    properties:
      typeof s.properties === "object" && s.properties !== null ? (s.properties as Record<string, unknown>) : {},
  } as JsonSchemaObject;
}

/** The model-facing description: the server's, else its title, else where the tool comes from. */
function describe(server: string, tool: Tool): string {
  const text = tool.description?.trim() || tool.title?.trim() || tool.annotations?.title?.trim();
  return text || `MCP tool ${tool.name} from server ${server}`;
}

/** `tool` of `conn` named `name`; each call uses the timeout in force at its start. */
export function createMcpAgentTool(
  conn: McpConnection,
  tool: Tool,
  name: string,
  timeoutMs: () => number,
): McpAgentTool {
  const server = conn.name;
  return {
    name,
    description: describe(server, tool),
    parameters: normalizeInputSchema(tool.inputSchema),
    // An MCP tool may change anything: it asks unless the user allowed it (agentTree.tools.autoApprove).
    mutates: true,
    server,
    mcpName: tool.name,
    readOnly: tool.annotations?.readOnlyHint === true,
    async execute(args, ctx) {
      const result = await conn.callTool(tool.name, args, {
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        timeoutMs: conn.config.timeoutMs ?? timeoutMs(),
      });
      return conn.redact(convertMcpResult(server, tool.name, result));
    },
  };
}
