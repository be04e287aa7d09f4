/**
 * Reads the MCP configuration from where users keep it, in this order: pi's user file (`mcp.json` in pi's agent
 * folder), then the project's `.pi/mcp.json`, `.mcp.json` and `.vscode/mcp.json` (only in a trusted workspace), then
 * the editor's setting. A file that is missing is skipped; one that cannot be read or parsed is an issue, and the
 * other places still count.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseJsonc, printParseErrorCode, type ParseError } from "jsonc-parser";
import { getAgentDir } from "../session/paths.js";
import {
  mergeMcpLayers,
  serversOfFile,
  type McpConfig,
  type McpConfigIssue,
  type McpConfigLayer,
} from "./mcp-config.js";

/** Where to look. */
export interface McpConfigPlaces {
  /** pi's agent folder (default: $PI_CODING_AGENT_DIR, else ~/.pi/agent). */
  agentDir?: string;
  /** The workspace folder, if any. */
  projectDir?: string;
  /** Project files are read only when the workspace is trusted (they name programs to run). */
  trusted: boolean;
  /** The setting `agentTree.mcp.servers` (the `mcpServers` shape: names to entries). */
  setting?: unknown;
  /** Name of the setting in messages. */
  settingName?: string;
}

/** The project files, in the order they are read (relative to the workspace folder). */
export const PROJECT_MCP_FILES = [".pi/mcp.json", ".mcp.json", ".vscode/mcp.json"] as const;

function readLayer(file: string, source: string, issues: McpConfigIssue[]): McpConfigLayer | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT")
      issues.push({ source, message: `cannot read ${file}: ${(e as Error).message}` });
    return undefined;
  }
  // VS Code's mcp.json is JSONC (comments, trailing commas); the parser reads plain JSON the same way.
  const errors: ParseError[] = [];
  const json: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const e = errors[0];
    issues.push({
      source,
      message: `${file} is not valid JSON: ${printParseErrorCode(e.error)} at offset ${e.offset}`,
    });
    return undefined;
  }
  const servers = serversOfFile(json);
  if (typeof servers === "string") {
    issues.push({ source, message: `${file}: ${servers}` });
    return undefined;
  }
  return { source, servers };
}

/** The merged configuration of every place (see the file comment). */
export function readMcpConfig(places: McpConfigPlaces): McpConfig {
  const issues: McpConfigIssue[] = [];
  const layers: McpConfigLayer[] = [];
  const agentDir = places.agentDir ?? getAgentDir();
  const userFile = path.join(agentDir, "mcp.json");
  const home = os.homedir();
  const userLabel = userFile.startsWith(home + path.sep) ? `~${userFile.slice(home.length)}` : userFile;
  const user = readLayer(userFile, userLabel, issues);
  if (user) layers.push(user);
  if (places.projectDir && places.trusted) {
    for (const rel of PROJECT_MCP_FILES) {
      const layer = readLayer(path.join(places.projectDir, rel), rel, issues);
      if (layer) layers.push(layer);
    }
  }
  const settingName = places.settingName ?? "agentTree.mcp.servers";
  if (places.setting !== undefined && places.setting !== null) {
    if (typeof places.setting === "object" && !Array.isArray(places.setting))
      layers.push({ source: settingName, servers: places.setting as Record<string, unknown> });
    else issues.push({ source: settingName, message: `${settingName} must be an object of servers` });
  }
  const merged = mergeMcpLayers(layers);
  return { servers: merged.servers, issues: [...issues, ...merged.issues] };
}
