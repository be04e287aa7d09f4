/** Tools from MCP servers (docs/core-api.md, "MCP servers"). */
export { readMcpConfig, PROJECT_MCP_FILES, type McpConfigPlaces } from "./mcp-config-files.js";
export {
  mergeMcpLayers,
  parseServerEntry,
  serversOfFile,
  type McpConfig,
  type McpConfigIssue,
  type McpConfigLayer,
  type McpServerConfig,
} from "./mcp-config.js";
export { mcpToolName, isMcpToolName, MCP_TOOL_PREFIX } from "./mcp-names.js";
export {
  McpPool,
  DEFAULT_MCP_CALL_TIMEOUT_MS,
  type McpPoolOptions,
  type McpReport,
  type McpServerStatus,
  type McpToolFilter,
  type McpToolStatus,
} from "./mcp-pool.js";
export type { McpServerState } from "./mcp-connection.js";
export type { McpAgentTool } from "./mcp-tool.js";
export { convertMcpResult, type McpResultDetails } from "./mcp-result.js";
