/** The test MCP servers: the fixture written with the SDK (test/fixtures/mcp) and the published filesystem server. */
import * as fs from "node:fs";
import * as path from "node:path";
import type { McpServerConfig } from "../../src/core/mcp/mcp-config.js";

const REPO = path.resolve(path.dirname(__filename), "..", "..");

/** Path of the fixture server's script. */
export const FIXTURE_SERVER = path.join(REPO, "test/fixtures/mcp/fixture-server.mjs");

/** A `mcpServers` entry that starts the fixture with `flags`. */
export function fixtureEntry(flags: string[] = [], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [FIXTURE_SERVER, ...flags], ...extra };
}

/** A checked config of the fixture named `name`. */
export function fixtureConfig(name = "fx", flags: string[] = [], over: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    name,
    source: "test",
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
    enabled: true,
    transport: { type: "stdio", command: process.execPath, args: [path.join(path.dirname(pkg), bin), dir], env: {} },
  };
}

/** True while a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
