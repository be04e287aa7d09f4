/** The test MCP servers: the fixture written with the SDK (test/fixtures/mcp) and the published filesystem server. */
import * as fs from "node:fs";
import * as path from "node:path";
import type { McpServerConfig } from "../../src/core/mcp/mcp-config.js";

const REPO = path.resolve(path.dirname(__filename), "..", "..");

/** Path of the fixture server's script. */
export const FIXTURE_SERVER = path.join(REPO, "test/fixtures/mcp/fixture-server.mjs");

/** The input schema the fixture server declares for its `echo` tool, as a client lists it. */
export const FIXTURE_ECHO_SCHEMA = {
  type: "object",
  properties: { text: { type: "string", description: "What to echo" } },
  required: ["text"],
} as const;

/** A `mcpServers` entry that starts the fixture with `flags`. */
export function fixtureEntry(flags: string[] = [], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [FIXTURE_SERVER, ...flags], ...extra };
}

/** A checked config of the fixture named `name`. */
export function fixtureConfig(name = "fx", flags: string[] = [], over: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    name,
    source: "test",
    origin: "user",
    enabled: true,
    transport: { type: "stdio", command: process.execPath, args: [FIXTURE_SERVER, ...flags], env: {} },
    ...over,
  };
}

/** The published `@modelcontextprotocol/server-filesystem`, started from node_modules, allowed `dir`. */
export function filesystemConfig(dir: string, name = "files"): McpServerConfig {
  const pkg = path.join(REPO, "node_modules/@modelcontextprotocol/server-filesystem/package.json");
  const manifest = JSON.parse(fs.readFileSync(pkg, "utf8")) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : Object.values(manifest.bin)[0];
  return {
    name,
    source: "test",
    origin: "user",
    enabled: true,
    transport: { type: "stdio", command: process.execPath, args: [path.join(path.dirname(pkg), bin), dir], env: {} },
  };
}

/** True while a process with this pid exists (the core's check, under the name the MCP tests use). */
export { pidAlive as alive } from "../../src/core/session/processes.js";
