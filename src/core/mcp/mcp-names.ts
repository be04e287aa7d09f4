/**
 * Names of MCP tools as the model sees them, the same as pi's: `mcp__<server>__<tool>` with every character other
 * than letters, digits and `_` replaced by `_`, so a session continued in pi calls the same tools. A name over
 * the providers' 64-character limit, or one that two tools would share after the replacement, is shortened and
 * gets a hash suffix (pi's rule too). When that name is taken as well (a server listing one tool name three
 * times: the first two get pi's names), the hash also covers a counter, so every tool has a name of its own — a
 * request offering two tools of one name is refused by the providers.
 */
import { createHash } from "node:crypto";

/** Provider tool names are limited to 64 characters. */
const MAX_TOOL_NAME_LENGTH = 64;
/** Every MCP tool name starts with this. */
export const MCP_TOOL_PREFIX = "mcp__";

/** Bound on the counter of `mcpToolName` (each step is a fresh 32-bit hash: a few are ever needed). */
const MAX_COUNTER = 10_000;

/** The model-facing name of `tool` of `server`; `isTaken` reports names another MCP tool already has. */
export function mcpToolName(server: string, tool: string, isTaken: (name: string) => boolean = () => false): string {
  const name = `${MCP_TOOL_PREFIX}${server}__${tool}`.replace(/[^A-Za-z0-9_]/g, "_");
  if (name.length <= MAX_TOOL_NAME_LENGTH && !isTaken(name)) return name;
  for (let n = 0; n < MAX_COUNTER; n++) {
    // n = 0 is pi's suffix; later ones only for names pi would give twice.
    const input = n === 0 ? `${server}\0${tool}` : `${server}\0${tool}\0${n}`;
    const hash = createHash("sha256").update(input).digest("hex").slice(0, 8);
    const candidate = `${name.slice(0, MAX_TOOL_NAME_LENGTH - hash.length - 1)}_${hash}`;
    if (!isTaken(candidate)) return candidate;
  }
  throw new Error(`MCP server "${server}" lists the tool "${tool}" more than ${MAX_COUNTER} times`);
}

/** True for a tool name of the MCP form. */
export function isMcpToolName(name: string): boolean {
  return name.startsWith(MCP_TOOL_PREFIX);
}
