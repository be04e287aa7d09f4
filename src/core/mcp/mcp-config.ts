/**
 * MCP server configuration: the entries users keep in pi's `mcp.json`, Claude Code's `.mcp.json`, VS Code's
 * `.vscode/mcp.json` and our setting, checked and merged in order (a later entry of the same name replaces an
 * earlier one). Pure: the files are read in mcp-config-files.ts.
 */

/** Where an entry came from (shown in Agent: Show MCP Servers and in errors). */
export type McpConfigSource = string;

/**
 * Who wrote an entry: the user (pi's user file, the user's own settings) or the project (its `mcp.json` files and
 * the workspace's settings, which arrive with a cloned repository). A project entry starts only once the user
 * agreed to it (mcp-agreement.ts), and its `${VAR}` is never filled with a model key (mcp-expand.ts).
 */
export type McpOrigin = "user" | "project";

/** A stdio server: one executable and its arguments (not a shell command line). */
export interface McpStdioTransport {
  type: "stdio";
  command: string;
  args: string[];
  /** Values may name environment variables (`${VAR}`), resolved when the server starts. */
  env: Record<string, string>;
  cwd?: string;
}

/** A streamable HTTP server. */
export interface McpHttpTransport {
  type: "http";
  url: string;
  /** Values may name environment variables (`${VAR}`), resolved when the server connects. */
  headers: Record<string, string>;
}

/** One server, checked. */
export interface McpServerConfig {
  name: string;
  source: McpConfigSource;
  /** Who wrote the entry that says what runs (a project's on/off override leaves the user's entry the user's). */
  origin: McpOrigin;
  enabled: boolean;
  transport: McpStdioTransport | McpHttpTransport;
  /** Per-request timeout of this server (pi's `timeout`, seconds in the file); else the setting's. */
  timeoutMs?: number;
  /** What the server offers, in a sentence (optional). */
  description?: string;
}

/** An entry that could not be used, with why. */
export interface McpConfigIssue {
  source: McpConfigSource;
  server?: string;
  message: string;
}

/** The raw servers of one place, in the order they are read. */
export interface McpConfigLayer {
  source: McpConfigSource;
  origin: McpOrigin;
  /** The `mcpServers` (or VS Code's `servers`) object. */
  servers: Record<string, unknown>;
}

/** The merged configuration. */
export interface McpConfig {
  servers: McpServerConfig[];
  issues: McpConfigIssue[];
}

const SERVER_NAME = /^[A-Za-z0-9_-]+$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function stringMap(v: unknown, field: string): Record<string, string> | string {
  if (v === undefined) return {};
  if (!isRecord(v)) return `"${field}" must be an object of strings`;
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) {
    if (typeof val === "number" || typeof val === "boolean") out[k] = String(val);
    else if (typeof val === "string") out[k] = val;
    else return `"${field}.${k}" must be a string`;
  }
  return out;
}

/**
 * The servers object of a parsed file: `mcpServers` (pi, Claude Code, Cursor) and VS Code's `servers`; both
 * when a file has both (`mcpServers` wins a name clash, as the common shape).
 */
export function serversOfFile(json: unknown): Record<string, unknown> | string {
  if (!isRecord(json)) return "the file must hold a JSON object";
  const vscodeShape = json.servers;
  const common = json.mcpServers;
  if (vscodeShape !== undefined && !isRecord(vscodeShape)) return `"servers" must be an object`;
  if (common !== undefined && !isRecord(common)) return `"mcpServers" must be an object`;
  return { ...(vscodeShape ?? {}), ...(common ?? {}) };
}

/** True for a pi project entry that only switches a server of an earlier layer on or off. */
function isOverrideOnly(raw: Record<string, unknown>): boolean {
  return raw.command === undefined && raw.url === undefined && raw.type === undefined;
}

/** Checks one entry; a string is why it cannot be used. */
export function parseServerEntry(
  name: string,
  raw: unknown,
  source: McpConfigSource,
  origin: McpOrigin,
): McpServerConfig | string {
  if (!SERVER_NAME.test(name)) return `invalid server name "${name}" (use letters, digits, "_" and "-")`;
  if (!isRecord(raw)) return `server "${name}" must be an object`;
  const type = raw.type;
  if (type === "sse") return `server "${name}": the legacy SSE transport is not supported; use the streamable HTTP URL`;
  if (type !== undefined && type !== "stdio" && type !== "http" && type !== "streamable-http")
    return `server "${name}": "type" must be "stdio", "http" or "streamable-http"`;
  if (raw.enabled !== undefined && typeof raw.enabled !== "boolean")
    return `server "${name}": "enabled" must be true or false`;
  if (raw.timeout !== undefined && (typeof raw.timeout !== "number" || !(raw.timeout > 0)))
    return `server "${name}": "timeout" must be a positive number of seconds`;
  const common = {
    name,
    source,
    origin,
    enabled: raw.enabled !== false,
    ...(typeof raw.timeout === "number" ? { timeoutMs: Math.round(raw.timeout * 1000) } : {}),
    ...(typeof raw.description === "string" && raw.description.trim() ? { description: raw.description.trim() } : {}),
  };
  if (typeof raw.url === "string" && type !== "stdio") {
    let url: URL;
    try {
      url = new URL(raw.url);
    } catch {
      return `server "${name}": "url" is not a valid URL`;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return `server "${name}": "url" must be http(s)`;
    const headers = stringMap(raw.headers, "headers");
    if (typeof headers === "string") return `server "${name}": ${headers}`;
    return { ...common, transport: { type: "http", url: raw.url, headers } };
  }
  if (typeof raw.command === "string" && raw.command.trim() !== "" && type !== "http" && type !== "streamable-http") {
    const args = raw.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === "string"))
      return `server "${name}": "args" must be a list of strings`;
    const env = stringMap(raw.env, "env");
    if (typeof env === "string") return `server "${name}": ${env}`;
    if (raw.cwd !== undefined && typeof raw.cwd !== "string") return `server "${name}": "cwd" must be a string`;
    return {
      ...common,
      transport: {
        type: "stdio",
        command: raw.command,
        args: args as string[],
        env,
        ...(typeof raw.cwd === "string" ? { cwd: raw.cwd } : {}),
      },
    };
  }
  return `server "${name}" needs either "command" (stdio) or "url" (streamable HTTP)`;
}

/**
 * Merges the layers in order. A later entry of the same name replaces an earlier one; an entry without
 * `command`, `url` or `type` (pi's project override) only changes `enabled`, `timeout` and `description` of the
 * earlier one. Names that differ only in `-` and `_` are one server (their tools would share names).
 */
export function mergeMcpLayers(layers: readonly McpConfigLayer[]): McpConfig {
  const byKey = new Map<string, McpServerConfig>();
  const issues: McpConfigIssue[] = [];
  for (const layer of layers) {
    for (const [name, raw] of Object.entries(layer.servers)) {
      const key = name.replace(/-/g, "_");
      const earlier = byKey.get(key);
      if (earlier && isRecord(raw) && isOverrideOnly(raw)) {
        if (raw.enabled !== undefined && typeof raw.enabled !== "boolean") {
          issues.push({
            source: layer.source,
            server: name,
            message: `server "${name}": "enabled" must be true or false`,
          });
          continue;
        }
        byKey.set(key, {
          ...earlier,
          ...(typeof raw.enabled === "boolean" ? { enabled: raw.enabled } : {}),
          ...(typeof raw.timeout === "number" && raw.timeout > 0 ? { timeoutMs: Math.round(raw.timeout * 1000) } : {}),
          ...(typeof raw.description === "string" ? { description: raw.description } : {}),
          source: `${earlier.source}, ${layer.source}`,
        });
        continue;
      }
      const parsed = parseServerEntry(name, raw, layer.source, layer.origin);
      if (typeof parsed === "string") {
        issues.push({ source: layer.source, server: name, message: parsed });
        continue;
      }
      // Delete first so the server takes the place of its last definition in the listing.
      byKey.delete(key);
      byKey.set(key, parsed);
    }
  }
  return { servers: [...byKey.values()], issues };
}
