/** The records of the user's answers about project servers, and the question they are asked. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  agreementQuestion,
  agreementRecords,
  mcpEntryHash,
  type AgreementStore,
} from "../../../src/core/mcp/mcp-agreement.js";
import type { McpServerConfig } from "../../../src/core/mcp/mcp-config.js";

function stdio(over: Partial<McpServerConfig> = {}, env: Record<string, string> = {}): McpServerConfig {
  return {
    name: "docs",
    source: ".mcp.json",
    origin: "project",
    enabled: true,
    transport: { type: "stdio", command: "npx", args: ["-y", "docs-mcp", "my folder"], env },
    ...over,
  };
}

function http(headers: Record<string, string>): McpServerConfig {
  return {
    name: "web",
    source: ".vscode/mcp.json",
    origin: "project",
    enabled: true,
    transport: { type: "http", url: "https://example.com/mcp", headers },
  };
}

/** VS Code's Memento, in memory. */
function memento(): AgreementStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return { data, get: <T>(k: string) => data.get(k) as T | undefined, update: (k, v) => void data.set(k, v) };
}

describe("agreements to project MCP servers", () => {
  it("the entry's hash covers what runs and what it gets, not its on/off, timeout or description", () => {
    const base = mcpEntryHash(stdio());
    assert.equal(mcpEntryHash(stdio({ enabled: false, timeoutMs: 5000, description: "Docs." })), base);
    assert.equal(mcpEntryHash(stdio({ source: ".pi/mcp.json" })), base, "moving the entry to another file");
    assert.notEqual(mcpEntryHash(stdio({ name: "docs2" })), base);
    assert.notEqual(mcpEntryHash(stdio({}, { TOKEN: "${X}" })), base);
    const t = stdio().transport;
    if (t.type !== "stdio") throw new Error("stdio");
    assert.notEqual(mcpEntryHash(stdio({ transport: { ...t, args: [...t.args, "--write"] } })), base);
    assert.notEqual(mcpEntryHash(stdio({ transport: { ...t, command: "other" } })), base);
    assert.notEqual(mcpEntryHash(stdio({ transport: { ...t, cwd: "sub" } })), base);
    assert.notEqual(mcpEntryHash(http({ A: "1" })), mcpEntryHash(http({ A: "2" })));
    // Key order does not matter.
    assert.equal(mcpEntryHash(http({ A: "1", B: "2" })), mcpEntryHash(http({ B: "2", A: "1" })));
  });

  it("keeps one answer per server name; a changed entry is 'changed' until answered again", async () => {
    const m = memento();
    const records = agreementRecords(m, "k");
    assert.equal(records.decision(stdio()), undefined);
    await records.record(stdio(), "allowed");
    assert.equal(records.decision(stdio()), "allowed");
    assert.equal(records.decision(stdio({}, { TOKEN: "${X}" })), "changed");
    await records.record(stdio({}, { TOKEN: "${X}" }), "refused");
    assert.equal(records.decision(stdio({}, { TOKEN: "${X}" })), "refused");
    assert.equal(records.decision(stdio()), "changed");
    assert.deepEqual([...(m.data.keys() as Iterable<string>)], ["k"]);
    // Garbage in the store is no answer.
    m.data.set("k", { docs: { entry: "x", decision: "maybe" } });
    assert.equal(records.decision(stdio()), undefined);
    m.data.set("k", ["not", "a", "record"]);
    assert.equal(records.decision(stdio()), undefined);
  });

  it("the question shows the file, the command line, the variables read, and names a model key as such", () => {
    const isKey = (n: string): boolean => n === "OPENAI_API_KEY";
    const env = { TOKEN: "${DOCS_TOKEN}", KEY: "${OPENAI_API_KEY}", MODE: "fast" };
    const transport = {
      type: "stdio" as const,
      command: "npx",
      args: ["-y", "docs-mcp", "my folder"],
      env,
      cwd: "tools",
    };
    const q = agreementQuestion(stdio({ transport }), isKey);
    assert.equal(q.title, 'Allow the MCP server "docs" from .mcp.json to start?');
    assert.match(q.detail, /\.mcp\.json/);
    assert.match(q.detail, /npx -y docs-mcp "my folder"/);
    assert.match(q.detail, /in tools/);
    assert.match(q.detail, /TOKEN \(from \$\{DOCS_TOKEN\}\)/);
    assert.match(q.detail, /KEY \(from \$\{OPENAI_API_KEY\} — a model key, not given to a project's server\)/);
    assert.match(q.detail, /MODE/);
    assert.doesNotMatch(q.detail, /fast/, "literal values are not shown");
    assert.match(q.detail, /asked again when this entry changes/);

    const h = agreementQuestion(
      http({ Authorization: "Bearer ghp_literal_token_123", "X-Docs": "$DOCS" }),
      isKey,
      true,
    );
    assert.match(h.title, /changed since you answered\. Allow it to connect\?/);
    assert.match(h.detail, /connects to https:\/\/example\.com\/mcp/);
    assert.match(h.detail, /Authorization; X-Docs \(from \$\{DOCS\}\)/);
    assert.doesNotMatch(h.detail, /ghp_literal_token_123/, "a token written in the file is never shown");
  });
});
