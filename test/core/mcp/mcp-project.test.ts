/**
 * Servers named by a project file (`.pi/mcp.json`, `.mcp.json`, `.vscode/mcp.json`), read through `readMcpConfig`
 * as the extension reads them: `${VAR}` never hands them a model key (a local streamable HTTP server records the
 * headers it gets; the stdio fixture writes its environment to a file), the user's own file still may; and a
 * project server starts only once the user agreed to its entry, asked again when the entry changes.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { readMcpConfig } from "../../../src/core/mcp/mcp-config-files.js";
import type { McpServerConfig } from "../../../src/core/mcp/mcp-config.js";
import { McpPool, type McpPoolOptions, type McpReport } from "../../../src/core/mcp/mcp-pool.js";
import { keyEnvNames } from "../../../src/core/providers/api-key.js";
import { alive, fixtureEntry } from "../../util/mcp-fixture.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

/** A model key in the environment of this test process; it must reach no project server. */
const CANARY = "sk-canary-0123456789abcdef0123456789";
/** The key variable of a custom model (`apiKeyEnv`): a model key too, though its name is not `*_API_KEY`. */
const CUSTOM_KEY_VAR = "AGENT_TREE_TEST_LLM_SECRET";
const CUSTOM_CANARY = "custom-canary-abcdef0123456789abcdef";
/** A token that is not a model key: a project server may read it (the agreement question names it). */
const DOCS_TOKEN = "docs-token-0123456789abcdef";

type Decision = "allowed" | "refused";

/** Agreements kept in memory, with scripted answers; `asked` records each question. */
function agreements(answers: (Decision | undefined)[] = []): {
  decision: (s: McpServerConfig) => Decision | undefined;
  record: (s: McpServerConfig, d: Decision) => void;
  ask: (s: McpServerConfig, q: { title: string; detail: string }) => Promise<Decision | undefined>;
  asked: { server: string; title: string; detail: string }[];
  stored: Map<string, { entry: string; decision: Decision }>;
} {
  const stored = new Map<string, { entry: string; decision: Decision }>();
  const asked: { server: string; title: string; detail: string }[] = [];
  // The test's own notion of "the entry": what runs and what it gets.
  const entry = (s: McpServerConfig): string => JSON.stringify(s.transport);
  return {
    stored,
    asked,
    decision: (s) => {
      const r = stored.get(s.name);
      return r && r.entry === entry(s) ? r.decision : undefined;
    },
    record: (s, d) => void stored.set(s.name, { entry: entry(s), decision: d }),
    ask: async (s, q) => {
      asked.push({ server: s.name, ...q });
      return answers.shift();
    },
  };
}

/** Waits (bounded) until `cond` holds. */
async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function write(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2));
}

describe("MCP servers from project files", { timeout: 120_000 }, () => {
  const tmp = tempDirPerTest();
  const pools: McpPool[] = [];
  let httpServer: http.Server;
  let base = "";
  /** Headers of every request, by URL path. */
  const received = new Map<string, IncomingHttpHeaders[]>();

  before(async () => {
    // Stateless streamable HTTP: a server and a transport per request (the SDK's pattern for it).
    httpServer = http.createServer((req, res) => {
      const p = new URL(req.url ?? "/", "http://x").pathname;
      received.set(p, [...(received.get(p) ?? []), req.headers]);
      const server = new Server({ name: "keys-fixture", version: "1.0.0" }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [{ name: "ping", description: "Ping.", inputSchema: { type: "object", properties: {} } }],
      }));
      server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: "text", text: "pong" }] }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on("close", () => void transport.close());
      void server.connect(transport).then(() => transport.handleRequest(req, res));
    });
    await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
    process.env.OPENAI_API_KEY = CANARY;
    process.env[CUSTOM_KEY_VAR] = CUSTOM_CANARY;
    process.env.AGENT_TREE_TEST_DOCS_TOKEN = DOCS_TOKEN;
  });
  after(async () => {
    await Promise.all(pools.map((p) => p.dispose()));
    delete process.env.OPENAI_API_KEY;
    delete process.env[CUSTOM_KEY_VAR];
    delete process.env.AGENT_TREE_TEST_DOCS_TOKEN;
    httpServer.closeAllConnections();
    await new Promise((resolve) => httpServer.close(resolve));
  });

  /** A pool over pi's user file and the project's files of this test's folder, as the extension builds it. */
  function pool(over: Partial<McpPoolOptions> = {}): { pool: McpPool; reports: McpReport[]; projectDir: string } {
    const reports: McpReport[] = [];
    const projectDir = path.join(tmp.dir, "project");
    fs.mkdirSync(projectDir, { recursive: true });
    const p = new McpPool({
      cwd: projectDir,
      loadConfig: () => readMcpConfig({ agentDir: path.join(tmp.dir, "agent"), projectDir, trusted: true }),
      keyEnvNames: () => keyEnvNames(process.env, { keyEnvNames: () => [CUSTOM_KEY_VAR] }),
      onReport: (r) => reports.push(r),
      startupTimeoutMs: 10_000,
      ...over,
    });
    pools.push(p);
    return { pool: p, reports, projectDir };
  }

  it("a project file's ${VAR} gets no model key: not in a header to an HTTP server, not in a stdio server's env; the user's file still does", async () => {
    const projectEnvFile = path.join(tmp.dir, "project-env.json");
    const userEnvFile = path.join(tmp.dir, "user-env.json");
    write(path.join(tmp.dir, "agent", "mcp.json"), {
      mcpServers: {
        mine: { url: `${base}/user`, headers: { Authorization: "Bearer ${OPENAI_API_KEY}" } },
        mylocal: fixtureEntry(["--write-env", userEnvFile], { env: { HANDED: "${OPENAI_API_KEY}" } }),
      },
    });
    write(path.join(tmp.dir, "project", ".mcp.json"), {
      mcpServers: {
        web: { url: `${base}/project-web`, headers: { Authorization: "Bearer ${OPENAI_API_KEY}" } },
        custom: { url: `${base}/project-custom`, headers: { "X-Key": "$" + `{${CUSTOM_KEY_VAR}}` } },
        docs: { url: `${base}/project-docs`, headers: { Authorization: "Bearer ${AGENT_TREE_TEST_DOCS_TOKEN}" } },
      },
    });
    write(path.join(tmp.dir, "project", ".vscode", "mcp.json"), {
      servers: { local: fixtureEntry(["--write-env", projectEnvFile], { env: { RENAMED: "${OPENAI_API_KEY}" } }) },
    });
    const allowAll = agreements();
    for (const s of readMcpConfig({
      agentDir: path.join(tmp.dir, "agent"),
      projectDir: path.join(tmp.dir, "project"),
      trusted: true,
    }).servers)
      allowAll.record(s, "allowed");
    const { pool: p, reports } = pool({ agreement: allowAll });
    const tools = await p.ready();

    // No request of a project server carried a key, whatever the header's name.
    for (const where of ["/project-web", "/project-custom"]) {
      const text = JSON.stringify(received.get(where) ?? []);
      assert.ok(!text.includes(CANARY) && !text.includes(CUSTOM_CANARY), `${where} got no key: ${text}`);
    }
    // The stdio server of the project file never had the key in its environment.
    if (fs.existsSync(projectEnvFile)) {
      const env = fs.readFileSync(projectEnvFile, "utf8");
      assert.ok(!env.includes(CANARY), "the project's stdio server got no key");
    }
    // They do not start, and say why.
    const state = Object.fromEntries(p.status().map((s) => [s.name, s]));
    for (const name of ["web", "custom", "local"]) {
      assert.equal(state[name].state, "failed", name);
      assert.match(state[name].error ?? "", /model key/, name);
      assert.match(state[name].error ?? "", /your own .*mcp\.json|user settings/, name);
    }
    assert.match(state.custom.error ?? "", new RegExp(CUSTOM_KEY_VAR));
    assert.ok(reports.some((r) => r.kind === "failed" && r.server === "web" && /model key/.test(r.message)));
    // A token that is not a model key still reaches the project server it was written for.
    assert.equal(state.docs.state, "running");
    assert.ok(received.get("/project-docs")?.some((h) => h.authorization === `Bearer ${DOCS_TOKEN}`));

    // pi's user file is the user's own: its variables are filled in, keys included.
    assert.equal(state.mine.state, "running");
    assert.ok((received.get("/user") ?? []).length > 0);
    assert.ok(received.get("/user")?.every((h) => h.authorization === `Bearer ${CANARY}`));
    assert.equal(state.mylocal.state, "running", state.mylocal.error);
    const userEnv = JSON.parse(fs.readFileSync(userEnvFile, "utf8")) as Record<string, string>;
    assert.equal(userEnv.HANDED, CANARY);
    assert.equal(userEnv.OPENAI_API_KEY, undefined, "inherited only without the key variables");
    assert.ok(tools.some((t) => t.name === "mcp__mine__ping"));
  });

  it("a project server starts only after the user agreed to its entry; asked again when the entry changes", async () => {
    write(path.join(tmp.dir, "agent", "mcp.json"), { mcpServers: { own: fixtureEntry() } });
    const projectFile = path.join(tmp.dir, "project", ".pi", "mcp.json");
    write(projectFile, {
      mcpServers: { fx: fixtureEntry([], { env: { TOKEN: "${AGENT_TREE_TEST_DOCS_TOKEN}" } }) },
    });
    // Dismissed, then allowed, then (after the change) refused.
    const agree = agreements([undefined, "allowed", "refused"]);
    const { pool: p } = pool({ agreement: agree });

    // First prompt: the user's own server starts; the project's asks, and without an answer stays off.
    const tools = await p.ready();
    assert.deepEqual(
      agree.asked.map((a) => a.server),
      ["fx"],
      "one question, for the project's server only",
    );
    assert.match(agree.asked[0].title, /fx/);
    assert.match(agree.asked[0].detail, /\.pi\/mcp\.json/, "the question says where the entry is");
    assert.match(agree.asked[0].detail, /fixture-server\.mjs/, "the question shows the command line");
    assert.match(agree.asked[0].detail, /AGENT_TREE_TEST_DOCS_TOKEN/, "and the variables it reads");
    assert.ok(!tools.some((t) => t.name.startsWith("mcp__fx__")), "its tools are absent");
    assert.ok(tools.some((t) => t.name === "mcp__own__echo"));
    const fx = (): string => p.status().find((s) => s.name === "fx")?.state ?? "";
    assert.equal(fx(), "unapproved");
    assert.equal(p.pids().length, 1, "only the user's server runs");
    // Another prompt does not ask again in this window.
    await p.ready();
    assert.equal(agree.asked.length, 1);

    // Allow (Agent: Show MCP Servers): asked, allowed, started.
    await p.allow("fx");
    assert.equal(agree.asked.length, 2);
    assert.equal(fx(), "running");
    assert.ok(p.tools().some((t) => t.name === "mcp__fx__echo"));
    assert.equal(agree.stored.get("fx")?.decision, "allowed");

    // The same entry after a reload (a new window): no question.
    await p.reload();
    await p.ready();
    assert.equal(agree.asked.length, 2);
    assert.equal(fx(), "running");

    // The entry changes: asked again; refused, it does not start, and is not asked about again.
    write(projectFile, { mcpServers: { fx: fixtureEntry(["--name", "other"]) } });
    await p.reload();
    const pidsBefore = p.pids();
    await p.ready();
    assert.equal(agree.asked.length, 3);
    assert.equal(fx(), "refused");
    assert.ok(!p.tools().some((t) => t.server === "fx"));
    assert.equal(p.pids().length, pidsBefore.length + 1, "only the user's server started again");
    await p.reload();
    await p.ready();
    assert.equal(agree.asked.length, 3, "a refused entry is not asked about again");
    assert.equal(fx(), "refused");
  });

  it("without an agreement store no project server starts", async () => {
    write(path.join(tmp.dir, "project", ".mcp.json"), { mcpServers: { fx: fixtureEntry() } });
    const { pool: p } = pool();
    assert.deepEqual(await p.ready(), []);
    assert.equal(p.status()[0]?.state, "unapproved");
    assert.deepEqual(p.pids(), []);
    await p.dispose();
    assert.ok(p.pids().every((pid) => !alive(pid)));
  });

  it("Start and Enable of a server not agreed to ask first", async () => {
    write(path.join(tmp.dir, "project", ".mcp.json"), { mcpServers: { fx: fixtureEntry() } });
    const agree = agreements([undefined, "refused", "allowed"]);
    const { pool: p } = pool({ agreement: agree });
    await p.ready();
    assert.equal(agree.asked.length, 1);
    await p.restart("fx");
    assert.equal(agree.asked.length, 2);
    assert.equal(p.status()[0].state, "refused");
    await p.setEnabled("fx", false);
    await p.setEnabled("fx", true);
    assert.equal(agree.asked.length, 3);
    await until(() => p.status()[0].state === "running", "the allowed server to run");
  });
});
