/**
 * How rows and the chat name a tool: an MCP tool as `server/tool` (pi's label), so the row says which server
 * answered; other tools by their name. Pure (no Node), for the webviews too.
 */

const MCP_NAME = /^mcp__(.+?)__(.+)$/;

/** `mcp__docs__search` → `{ server: "docs", tool: "search" }`; undefined for a tool that is not an MCP one. */
export function splitMcpToolName(name: string): { server: string; tool: string } | undefined {
  const m = MCP_NAME.exec(name);
  return m ? { server: m[1], tool: m[2] } : undefined;
}

/** `docs/search` for an MCP tool, the name itself for any other. */
export function toolLabel(name: string): string {
  const parts = splitMcpToolName(name);
  return parts ? `${parts.server}/${parts.tool}` : name;
}

/** A row's comma-separated tool names, each as `toolLabel` shows it. */
export function toolLabels(names: string): string {
  return names.includes("mcp__")
    ? names
        .split(", ")
        .map((n) => toolLabel(n))
        .join(", ")
    : names;
}
