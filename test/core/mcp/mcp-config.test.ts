import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { readMcpConfig } from "../../../src/core/mcp/mcp-config-files.js";
import { mergeMcpLayers } from "../../../src/core/mcp/mcp-config.js";
import { expandMap, expandVars } from "../../../src/core/mcp/mcp-expand.js";
import { mcpToolName } from "../../../src/core/mcp/mcp-names.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

function write(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
}

describe("MCP configuration", () => {
  const tmp = tempDirPerTest();

  /** pi's agent folder and a project, each with an mcp.json naming `name` differently. */
  function places(): { agentDir: string; projectDir: string } {
    const agentDir = path.join(tmp.dir, "agent");
    const projectDir = path.join(tmp.dir, "project");
    write(path.join(agentDir, "mcp.json"), {
      mcpServers: {
        a: { command: "from-pi-user" },
        b: { command: "from-pi-user" },
        c: { command: "from-pi-user" },
        d: { command: "from-pi-user" },
        e: { command: "from-pi-user", env: { TOKEN: "${SECRET}" } },
        keep: { command: "only-in-pi-user", args: ["x"] },
      },
    });
    write(path.join(projectDir, ".pi/mcp.json"), {
      mcpServers: { b: { command: "from-.pi" }, c: { command: "from-.pi" } },
    });
    write(path.join(projectDir, ".mcp.json"), {
      mcpServers: { c: { command: "from-.mcp.json" }, d: { command: "from-.mcp.json" } },
    });
    // VS Code's shape, with comments and a trailing comma (JSONC).
    write(
      path.join(projectDir, ".vscode/mcp.json"),
      `{
        // VS Code keeps servers under "servers"
        "servers": { "d": { "type": "stdio", "command": "from-.vscode" }, "web": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer \${DOCS}" } }, },
      }`,
    );
    return { agentDir, projectDir };
  }

  it("reads pi's user file, .pi/mcp.json, .mcp.json, .vscode/mcp.json and the setting; a later entry replaces an earlier one", () => {
    const p = places();
    const config = readMcpConfig({ ...p, trusted: true, setting: { a: { url: "http://127.0.0.1:9/mcp" } } });
    assert.deepEqual(config.issues, []);
    const by = Object.fromEntries(config.servers.map((s) => [s.name, s]));
    const commandOf = (n: string): string => {
      const t = by[n].transport;
      return t.type === "stdio" ? t.command : t.url;
    };
    assert.equal(commandOf("a"), "http://127.0.0.1:9/mcp", "the setting comes last");
    assert.equal(commandOf("b"), "from-.pi");
    assert.equal(commandOf("c"), "from-.mcp.json");
    assert.equal(commandOf("d"), "from-.vscode");
    assert.equal(commandOf("keep"), "only-in-pi-user");
    assert.deepEqual(by.keep.transport, { type: "stdio", command: "only-in-pi-user", args: ["x"], env: {} });
    assert.deepEqual(by.web.transport, {
      type: "http",
      url: "https://example.com/mcp",
      headers: { Authorization: "Bearer ${DOCS}" },
    });
    assert.equal(by.d.source, ".vscode/mcp.json");
    // Variables are kept as written: they are filled in when the server starts.
    assert.deepEqual(by.e.transport.type === "stdio" && by.e.transport.env, { TOKEN: "${SECRET}" });
  });

  it("knows who wrote each entry: pi's user file and the user's settings are the user's; project files and the workspace's settings the project's", () => {
    const p = places();
    write(path.join(p.projectDir, ".pi/mcp.json"), {
      mcpServers: { b: { command: "from-.pi" }, keep: { enabled: false } },
    });
    const config = readMcpConfig({
      ...p,
      trusted: true,
      setting: { mine: { command: "user-setting" } },
      workspaceSettings: [{ ws: { command: "workspace-setting" } }, { folder: { command: "folder-setting" } }],
    });
    assert.deepEqual(config.issues, []);
    const origin = Object.fromEntries(config.servers.map((s) => [s.name, s.origin]));
    assert.equal(origin.a, "user");
    assert.equal(origin.b, "project");
    assert.equal(origin.d, "project");
    assert.equal(origin.web, "project");
    assert.equal(origin.keep, "user", "a project's on/off switch leaves the user's entry the user's");
    assert.equal(config.servers.find((s) => s.name === "keep")?.enabled, false);
    assert.equal(origin.mine, "user");
    assert.equal(origin.ws, "project");
    assert.equal(origin.folder, "project");
    assert.equal(config.servers.find((s) => s.name === "ws")?.source, "agentTree.mcp.servers (workspace settings)");
    // Untrusted: neither the project's files nor the workspace's settings are read.
    const untrusted = readMcpConfig({
      ...p,
      trusted: false,
      setting: { mine: { command: "user-setting" } },
      workspaceSettings: [{ ws: { command: "workspace-setting" } }],
    });
    assert.deepEqual(
      untrusted.servers.filter((s) => s.origin === "project"),
      [],
    );
    assert.ok(untrusted.servers.some((s) => s.name === "mine"));
  });

  it("reads no project file in an untrusted workspace", () => {
    const p = places();
    const config = readMcpConfig({ ...p, trusted: false });
    const by = Object.fromEntries(config.servers.map((s) => [s.name, s]));
    assert.equal(by.b.transport.type === "stdio" && by.b.transport.command, "from-pi-user");
    assert.equal(by.web, undefined);
  });

  it("honours PI_CODING_AGENT_DIR for pi's user file", () => {
    const { agentDir } = places();
    const before = process.env.PI_CODING_AGENT_DIR;
    process.env.PI_CODING_AGENT_DIR = agentDir;
    try {
      const config = readMcpConfig({ trusted: true });
      assert.ok(config.servers.some((s) => s.name === "keep"));
    } finally {
      if (before === undefined) delete process.env.PI_CODING_AGENT_DIR;
      else process.env.PI_CODING_AGENT_DIR = before;
    }
  });

  it("enabled: false disables a server; a project entry with only enabled overrides the user's entry", () => {
    const merged = mergeMcpLayers([
      {
        source: "user",
        origin: "user",
        servers: { docs: { command: "docs-mcp", env: { K: "v" } }, off: { command: "x", enabled: false } },
      },
      { source: ".pi/mcp.json", origin: "project", servers: { docs: { enabled: false } } },
    ]);
    assert.deepEqual(merged.issues, []);
    const docs = merged.servers.find((s) => s.name === "docs");
    assert.equal(docs?.enabled, false);
    assert.deepEqual(docs?.transport, { type: "stdio", command: "docs-mcp", args: [], env: { K: "v" } });
    assert.equal(merged.servers.find((s) => s.name === "off")?.enabled, false);
  });

  it("reports bad entries and bad files with where they are, and keeps the good ones", () => {
    const agentDir = path.join(tmp.dir, "agent");
    const projectDir = path.join(tmp.dir, "project");
    write(path.join(agentDir, "mcp.json"), "{ not json");
    write(path.join(projectDir, ".mcp.json"), {
      mcpServers: {
        good: { command: "ok" },
        "bad name": { command: "x" },
        sse: { type: "sse", url: "http://127.0.0.1/sse" },
        nothing: {},
        args: { command: "x", args: "not a list" },
        ftp: { url: "ftp://example.com" },
      },
    });
    const config = readMcpConfig({ agentDir, projectDir, trusted: true, setting: ["not", "an", "object"] });
    assert.deepEqual(
      config.servers.map((s) => s.name),
      ["good"],
    );
    const text = config.issues.map((i) => `${i.source}: ${i.message}`).join("\n");
    assert.match(text, /agent\/mcp\.json: .*agent\/mcp\.json is not valid JSON/);
    assert.match(text, /invalid server name "bad name"/);
    assert.match(text, /SSE transport is not supported/);
    assert.match(text, /"nothing" needs either "command" \(stdio\) or "url"/);
    assert.match(text, /"args" must be a list of strings/);
    assert.match(text, /"url" must be http\(s\)/);
    assert.match(text, /agentTree\.mcp\.servers must be an object/);
  });

  it("expands ${VAR} and $VAR from the environment; $$ is a dollar; a missing variable is named", () => {
    const env = { TOKEN: "t0k", HOME_DIR: "/h" };
    assert.deepEqual(expandVars("Bearer ${TOKEN}", env), { value: "Bearer t0k" });
    assert.deepEqual(expandVars("$HOME_DIR/x and $$5 and ${not-a-name}", env), {
      value: "/h/x and $5 and ${not-a-name}",
    });
    assert.deepEqual(expandVars("${A}${B}${A}", env), { missing: ["A", "B"] });
    assert.throws(
      () => expandMap({ Authorization: "Bearer ${NOPE}" }, env, 'MCP server "web" header'),
      /MCP server "web" header "Authorization" names \$\{NOPE\}, which is not set/,
    );
  });

  it("names tools as pi does: mcp__<server>__<tool>, other characters as _, a hash when too long or taken", () => {
    assert.equal(mcpToolName("docs", "search"), "mcp__docs__search");
    assert.equal(mcpToolName("my-server", "read.file/v2"), "mcp__my_server__read_file_v2");
    const long = mcpToolName("server", "x".repeat(80));
    assert.equal(long.length, 64);
    assert.match(long, /^mcp__server__x+_[0-9a-f]{8}$/);
    const taken = new Set(["mcp__s__a_b"]);
    const second = mcpToolName("s", "a-b", (n) => taken.has(n));
    assert.match(second, /^mcp__s__a_b_[0-9a-f]{8}$/);
  });

  it("three tools of one name get three distinct names, each within 64 characters", () => {
    for (const tool of ["twin", "t".repeat(80)]) {
      const taken = new Set<string>();
      const names = [1, 2, 3].map(() => {
        const n = mcpToolName("s", tool, (x) => taken.has(x));
        taken.add(n);
        return n;
      });
      assert.equal(new Set(names).size, 3, names.join(", "));
      assert.ok(names.every((n) => n.length <= 64 && /^mcp__s__[A-Za-z0-9_]+$/.test(n)));
    }
    // The first keeps pi's name; a hash suffix is not reused when a tool's own name already looks like it.
    const taken = new Set<string>();
    const first = mcpToolName("s", "x", (n) => taken.has(n));
    taken.add(first);
    const hashed = mcpToolName("s", "x", (n) => taken.has(n));
    taken.add(hashed);
    assert.equal(first, "mcp__s__x");
    const literal = mcpToolName("s", hashed.slice("mcp__s__".length), (n) => taken.has(n));
    assert.notEqual(literal, hashed);
  });
});
