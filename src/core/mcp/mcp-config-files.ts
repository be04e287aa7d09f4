/**
 * Reads the MCP configuration from where users keep it, in this order: pi's user file (`mcp.json` in pi's agent
 * folder), then the project's `.pi/mcp.json`, `.mcp.json` and `.vscode/mcp.json` (only in a trusted workspace), then
 * the editor's setting — the user's own value, then the workspace's (trusted only; it comes with the project, so its
 * entries are project entries). A file that is missing is skipped; one that cannot be read or parsed is an issue,
 * and the other places still count.
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
  type McpOrigin,
} from "./mcp-config.js";
import { errorText } from "../error-text.js";

/** Where to look. */
export interface McpConfigPlaces {
  /** pi's agent folder (default: $PI_CODING_AGENT_DIR, else ~/.pi/agent). */
  agentDir?: string;
  /** The workspace folder, if any. */
  projectDir?: string;
  /** Project files are read only when the workspace is trusted (they name programs to run). */
  trusted: boolean;
  /** The user's own value of the setting `agentTree.mcp.servers` (the `mcpServers` shape: names to entries). */
  setting?: unknown;
  /** The workspace's values of that setting (workspace, then folder), read only when trusted: project entries. */
  workspaceSettings?: readonly unknown[];
  /** Name of the setting in messages. */
  settingName?: string;
}

/** The project files, in the order they are read (relative to the workspace folder). */
export const PROJECT_MCP_FILES = [".pi/mcp.json", ".mcp.json", ".vscode/mcp.json"] as const;

function readLayer(
  file: string,
  source: string,
  origin: McpOrigin,
  issues: McpConfigIssue[],
): McpConfigLayer | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT")
      issues.push({ source, message: `cannot read ${file}: ${errorText(e)}` });
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
  return { source, origin, servers };
}

/** The merged configuration of every place (see the file comment). */
export function readMcpConfig(places: McpConfigPlaces): McpConfig {
  const issues: McpConfigIssue[] = [];
  const layers: McpConfigLayer[] = [];
  const agentDir = places.agentDir ?? getAgentDir();
  const userFile = path.join(agentDir, "mcp.json");
  const home = os.homedir();
  const userLabel = userFile.startsWith(home + path.sep) ? `~${userFile.slice(home.length)}` : userFile;
  const user = readLayer(userFile, userLabel, "user", issues);
  if (user) layers.push(user);
  if (places.projectDir && places.trusted) {
    for (const rel of PROJECT_MCP_FILES) {
      const layer = readLayer(path.join(places.projectDir, rel), rel, "project", issues);
      if (layer) layers.push(layer);
    }
  }
  const settingName = places.settingName ?? "agentTree.mcp.servers";
  const settingLayer = (value: unknown, source: string, origin: McpOrigin): void => {
    if (value === undefined || value === null) return;
    if (typeof value === "object" && !Array.isArray(value))
      layers.push({ source, origin, servers: value as Record<string, unknown> });
    else issues.push({ source, message: `${settingName} must be an object of servers` });
  };
  settingLayer(places.setting, settingName, "user");
  if (places.trusted)
    for (const value of places.workspaceSettings ?? [])
      settingLayer(value, `${settingName} (workspace settings)`, "project");
  const merged = mergeMcpLayers(layers);
  return { servers: merged.servers, issues: [...issues, ...merged.issues] };
}
