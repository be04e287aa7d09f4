/**
 * Names of MCP tools as the model sees them, the same as pi's: `mcp__<server>__<tool>` with every character other
 * than letters, digits and `_` replaced by `_`, so a session continued in pi calls the same tools. A name over
 * the providers' 64-character limit, or one that two tools would share after the replacement, is shortened and
 * gets a hash suffix (pi's rule too).
 */
import { createHash } from "node:crypto";

/** Provider tool names are limited to 64 characters. */
const MAX_TOOL_NAME_LENGTH = 64;
/** Every MCP tool name starts with this. */
export const MCP_TOOL_PREFIX = "mcp__";

/** The model-facing name of `tool` of `server`; `isTaken` reports names another MCP tool already has. */
export function mcpToolName(server: string, tool: string, isTaken: (name: string) => boolean = () => false): string {
  const name = `${MCP_TOOL_PREFIX}${server}__${tool}`.replace(/[^A-Za-z0-9_]/g, "_");
  if (name.length <= MAX_TOOL_NAME_LENGTH && !isTaken(name)) return name;
  const hash = createHash("sha256").update(`${server}\0${tool}`).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - hash.length - 1)}_${hash}`;
}

/** True for a tool name of the MCP form. */
export function isMcpToolName(name: string): boolean {
  return name.startsWith(MCP_TOOL_PREFIX);
}
