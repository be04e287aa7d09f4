/** The pool against real servers: the SDK-written fixture and the published filesystem server, over stdio. */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, describe, it } from "node:test";
import type { McpServerConfig } from "../../../src/core/mcp/mcp-config.js";
import { McpPool, type McpReport } from "../../../src/core/mcp/mcp-pool.js";
import type { McpAgentTool } from "../../../src/core/mcp/mcp-tool.js";
import type { ToolResult } from "../../../src/core/tools/types.js";
import { alive, filesystemConfig, fixtureConfig } from "../../util/mcp-fixture.js";
import { tempDir } from "../../util/temp-dir.js";

const pools: McpPool[] = [];
after(async () => {
  await Promise.all(pools.map((p) => p.dispose()));
});

function pool(
  servers: McpServerConfig[],
  over: { callTimeoutMs?: number } = {},
): { pool: McpPool; reports: McpReport[] } {
  const reports: McpReport[] = [];
  const p = new McpPool({
    cwd: process.cwd(),
    loadConfig: () => ({ servers, issues: [] }),
    callTimeoutMs: () => over.callTimeoutMs ?? 10_000,
    onReport: (r) => reports.push(r),
  });
  pools.push(p);
  return { pool: p, reports };
}

function tool(tools: readonly McpAgentTool[] | readonly unknown[], name: string): McpAgentTool {
  const t = (tools as McpAgentTool[]).find((x) => x.name === name);
  assert.ok(t, `tool ${name} among ${(tools as McpAgentTool[]).map((x) => x.name).join(", ")}`);
  return t;
}

function text(r: ToolResult): string {
  return r.content.map((c) => (c.type === "text" ? c.text : `[image ${c.mimeType}]`)).join("\n");
}

/** Waits (bounded) until `cond` holds. */
async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("MCP pool with the fixture server", { timeout: 120_000 }, () => {
  it("starts lazily, lists the tools with pi's names and their schemas, filters read-only ones", async () => {
    const { pool: p } = pool([fixtureConfig("fx")]);
    assert.deepEqual(p.pids(), [], "nothing runs before a prompt asks");
    assert.equal(p.status()[0].state, "stopped");
    const tools = (await p.ready()) as McpAgentTool[];
    assert.ok(tools.length >= 8);
    const echo = tool(tools, "mcp__fx__echo");
    assert.deepEqual(echo.parameters, {
      type: "object",
      properties: { text: { type: "string", description: "What to echo" } },
      required: ["text"],
    });
    assert.equal(echo.description, "Echo the given text back.");
    assert.equal(echo.mutates, true, "an MCP tool asks before it runs");
    assert.deepEqual(
      p.tools({ readOnly: true }).map((t) => t.name),
      ["mcp__fx__echo", "mcp__fx__pid"],
    );
    const readOnly = await p.source({ readOnly: true }).ready();
    assert.deepEqual(
      readOnly.map((t) => t.name),
      ["mcp__fx__echo", "mcp__fx__pid"],
    );
    assert.equal(p.status()[0].state, "running");
    assert.equal(p.pids().length, 1);
  });

  it("converts text, images, resources and error results as pi stores them", async () => {
    const { pool: p } = pool([fixtureConfig("fx")]);
    const tools = await p.ready();
    const echo = await tool(tools, "mcp__fx__echo").execute({ text: "hi" }, { cwd: "." });
    assert.deepEqual(echo, { content: [{ type: "text", text: "echo: hi" }], details: { server: "fx", tool: "echo" } });
    const image = await tool(tools, "mcp__fx__image").execute({}, { cwd: "." });
    assert.equal(image.content[0].type, "image");
    assert.equal(image.content[0].type === "image" && image.content[0].mimeType, "image/png");
    assert.deepEqual(image.content[1], { type: "text", text: "notes text" });
    const fail = await tool(tools, "mcp__fx__fail").execute({ message: "no such page" }, { cwd: "." });
    assert.equal(fail.isError, true);
    assert.equal(text(fail), "no such page");
  });

  it("cancels a call that takes longer than the timeout, with an error naming it", async () => {
    const { pool: p } = pool([fixtureConfig("fx")], { callTimeoutMs: 300 });
    const tools = await p.ready();
    await assert.rejects(
      tool(tools, "mcp__fx__hang").execute({}, { cwd: "." }),
      /MCP tool fx\/hang did not answer within 0 s and was cancelled|did not answer within/,
    );
    // The server got the cancellation and is still usable.
    assert.equal(text(await tool(tools, "mcp__fx__echo").execute({ text: "after" }, { cwd: "." })), "echo: after");
  });

  it("an abort stops the call", async () => {
    const { pool: p } = pool([fixtureConfig("fx")]);
    const tools = await p.ready();
    const ac = new AbortController();
    const call = tool(tools, "mcp__fx__hang").execute({}, { cwd: ".", signal: ac.signal });
    setTimeout(() => ac.abort(), 100);
    const started = Date.now();
    await assert.rejects(call);
    assert.ok(Date.now() - started < 5_000);
    await until(() => p.status()[0].state === "running", "the server to stay up");
  });

  it("a malformed response is a tool error, not a crash", async () => {
    const { pool: p } = pool([fixtureConfig("fx")]);
    const tools = await p.ready();
    await assert.rejects(
      tool(tools, "mcp__fx__malformed").execute({}, { cwd: "." }),
      /MCP server "fx" sent a malformed result for malformed \(content: /,
    );
  });

  it("a server writing garbage on stdout is disconnected with a message, reported once", async () => {
    const { pool: p, reports } = pool([fixtureConfig("fx")]);
    const tools = await p.ready();
    const pid = p.pids()[0];
    await assert.rejects(
      tool(tools, "mcp__fx__garbage").execute({}, { cwd: "." }),
      /wrote something other than MCP messages on its standard output/,
    );
    assert.equal(p.status()[0].state, "failed");
    assert.deepEqual(p.tools(), [], "its tools are gone");
    assert.equal(reports.length, 1);
    assert.match(reports[0].message, /servers must log to stderr/);
    await until(() => !alive(pid), "the disconnected server's process to end");
  });

  it("a server that dies is reported once with the last lines of its stderr; Restart brings it back", async () => {
    const { pool: p, reports } = pool([fixtureConfig("fx")]);
    const tools = await p.ready();
    await assert.rejects(tool(tools, "mcp__fx__crash").execute({}, { cwd: "." }), /stopped unexpectedly/);
    await until(() => reports.length > 0, "the report");
    assert.equal(reports.length, 1);
    assert.match(
      reports[0].message,
      /MCP server "fx": it stopped unexpectedly\nLast lines of its stderr:\n.*fixture server \d+ starting\ncrashing on request/,
    );
    assert.equal(p.status()[0].state, "failed");
    await p.restart("fx");
    assert.equal(p.status()[0].state, "running");
    assert.equal(text(await tool(p.tools(), "mcp__fx__echo").execute({ text: "back" }, { cwd: "." })), "echo: back");
    assert.equal(reports.length, 1);
  });

  it("a server that fails to start is reported with its stderr, and the others go on", async () => {
    const { pool: p, reports } = pool([fixtureConfig("broken", ["--exit-at-start"]), fixtureConfig("ok")]);
    const tools = await p.ready();
    assert.ok(tools.some((t) => t.name === "mcp__ok__echo"));
    assert.ok(!tools.some((t) => t.name.startsWith("mcp__broken__")));
    assert.equal(reports.length, 1);
    assert.match(reports[0].message, /MCP server "broken": .*\n.*\n.*fatal: the fixture was told to exit at start/s);
    const broken = p.status().find((s) => s.name === "broken");
    assert.equal(broken?.state, "failed");
  });

  it("a server whose command or folder does not exist fails to start with a message naming it", async () => {
    const { pool: p, reports } = pool([
      fixtureConfig("nocommand", [], {
        transport: { type: "stdio", command: "agent-tree-no-such-mcp-server", args: [], env: {} },
      }),
      fixtureConfig("nofolder", [], {
        transport: { type: "stdio", command: process.execPath, args: [], env: {}, cwd: "/no-such-folder-for-mcp" },
      }),
    ]);
    assert.deepEqual(await p.ready(), []);
    const message = (name: string): string =>
      reports.find((r) => r.kind === "failed" && r.server === name)?.message ?? "";
    assert.match(message("nocommand"), /MCP server "nocommand": it failed to start: .*agent-tree-no-such-mcp-server/s);
    assert.match(message("nofolder"), /MCP server "nofolder": it failed to start: .*no-such-folder-for-mcp/);
  });

  it("a server printing a banner on stdout at start is disconnected with a message", async () => {
    const { pool: p, reports } = pool([fixtureConfig("noisy", ["--garbage-at-start"])]);
    assert.deepEqual(await p.ready(), []);
    assert.equal(p.status()[0].state, "failed");
    assert.match(reports[0]?.message ?? "", /wrote something other than MCP messages/);
  });

  it("fills ${VAR} in env from the environment and passes no model key", async () => {
    process.env.AGENT_TREE_MCP_TEST_TOKEN = "tok-123";
    const config = fixtureConfig("fx");
    process.env.AGENT_TREE_MCP_TEST_LONG = "secret-token-0123456789abcdef";
    if (config.transport.type === "stdio")
      config.transport.env = {
        FROM_CONFIG: "x-${AGENT_TREE_MCP_TEST_TOKEN}",
        LONG: "Bearer $AGENT_TREE_MCP_TEST_LONG",
      };
    const reports: McpReport[] = [];
    const p = new McpPool({
      cwd: process.cwd(),
      loadConfig: () => ({ servers: [config], issues: [] }),
      baseEnv: () => ({ ...process.env, OPENAI_API_KEY: undefined }),
      onReport: (r) => reports.push(r),
    });
    pools.push(p);
    process.env.OPENAI_API_KEY = "sk-should-not-reach-the-server-0000";
    try {
      const tools = await p.ready();
      const env = tool(tools, "mcp__fx__env");
      assert.equal(text(await env.execute({ name: "FROM_CONFIG" }, { cwd: "." })), "x-tok-123");
      assert.equal(text(await env.execute({ name: "OPENAI_API_KEY" }, { cwd: "." })), "(unset)");
      // A token taken from the environment does not come back in a result.
      assert.equal(text(await env.execute({ name: "LONG" }, { cwd: "." })), "Bearer [redacted]");
    } finally {
      delete process.env.OPENAI_API_KEY;
      delete process.env.AGENT_TREE_MCP_TEST_TOKEN;
      delete process.env.AGENT_TREE_MCP_TEST_LONG;
    }
    // A missing variable: the server does not start, and says which variable.
    const missing = fixtureConfig("needs");
    if (missing.transport.type === "stdio") missing.transport.env = { K: "${AGENT_TREE_MCP_TEST_UNSET}" };
    const { pool: q, reports: qr } = pool([missing]);
    await q.ready();
    assert.match(qr[0]?.message ?? "", /env "K" names \$\{AGENT_TREE_MCP_TEST_UNSET\}, which is not set/);
  });

  it("Disable stops a server and hides its tools; Enable starts it again", async () => {
    const { pool: p } = pool([fixtureConfig("fx")]);
    await p.ready();
    const pid = p.pids()[0];
    await p.setEnabled("fx", false);
    assert.equal(p.status()[0].state, "disabled");
    assert.deepEqual(p.tools(), []);
    assert.equal(alive(pid), false, "the disabled server's process ended");
    assert.deepEqual(await p.ready(), [], "a prompt does not start a disabled server");
    await p.setEnabled("fx", true);
    assert.equal(p.status()[0].state, "running");
    assert.deepEqual(p.enabledOverrides(), { fx: true });
  });

  it("leaves no process behind when disposed (checked by pid)", async () => {
    const { pool: p } = pool([fixtureConfig("one"), fixtureConfig("two")]);
    await p.ready();
    const pids = p.pids();
    assert.equal(pids.length, 2);
    assert.ok(pids.every(alive));
    // A call in flight does not keep its server alive.
    void tool(p.tools(), "mcp__one__hang")
      .execute({}, { cwd: "." })
      .catch(() => undefined);
    await p.dispose();
    assert.deepEqual(pids.filter(alive), [], "every server process ended");
  });
});

describe("MCP pool: big and odd results, odd servers", { timeout: 120_000 }, () => {
  it("a long single-line result reaches the model as the cap's worth of text", async () => {
    const { pool: p } = pool([fixtureConfig("fx")]);
    const big = tool(await p.ready(), "mcp__fx__big");
    const r = await big.execute({ bytes: 72_000 }, { cwd: "." });
    const out = text(r);
    assert.ok(out.startsWith('["item-00000000","item-00000001"'));
    assert.ok(out.length > 49_000, `kept ${out.length} characters`);
    assert.match(out, /\[Output truncated/);
  });

  it("a stdio message over the client's buffer is reported as a result too large, not as garbage", async () => {
    const { pool: p, reports } = pool([fixtureConfig("fx")]);
    const big = tool(await p.ready(), "mcp__fx__big");
    const err = await big.execute({ bytes: 11 * 1024 * 1024 }, { cwd: "." }).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(err instanceof Error, "the call fails");
    assert.match(err.message, /result too large/i);
    assert.match(err.message, /MCP tool fx\/big/);
    assert.doesNotMatch(err.message, /other than MCP messages/);
    await until(() => reports.length > 0, "the report");
    assert.match(reports[0].message, /too large/);
    assert.doesNotMatch(reports.map((r) => r.message).join("\n"), /other than MCP messages/);
    // Restart brings it back (the SDK drops the connection that overflowed).
    await p.restart("fx");
    assert.equal(text(await tool(p.tools(), "mcp__fx__echo").execute({ text: "ok" }, { cwd: "." })), "echo: ok");
  });

  it("image results are checked like pasted images: an 8 MB SVG and a wrong type are named, not stored", async () => {
    const { pool: p } = pool([fixtureConfig("fx")]);
    const picture = tool(await p.ready(), "mcp__fx__picture");
    const svg = await picture.execute({ mimeType: "image/svg+xml", chars: 8 * 1024 * 1024 }, { cwd: "." });
    assert.deepEqual(
      svg.content.map((c) => c.type),
      ["text"],
    );
    assert.match(
      text(svg),
      /\[image image\/svg\+xml \(6\.0 MB\) omitted: images of type image\/svg\+xml cannot be sent/,
    );
    const png = await picture.execute({ mimeType: "image/png", chars: 8 }, { cwd: "." });
    assert.deepEqual(png.content, [{ type: "image", mimeType: "image/png", data: "AAAAAAAA" }]);
  });

  it("three tools of one name get three distinct names", async () => {
    const { pool: p } = pool([fixtureConfig("fx", ["--duplicates"])]);
    const names = (await p.ready()).map((t) => t.name).filter((n) => n.startsWith("mcp__fx__twin"));
    assert.equal(names.length, 3);
    assert.equal(new Set(names).size, 3, names.join(", "));
  });

  it("a server that ignores SIGTERM is gone once the pool is disposed", async () => {
    const { pool: p } = pool([fixtureConfig("stubborn", ["--stubborn"])]);
    await p.ready();
    const pid = p.pids()[0];
    assert.ok(pid && alive(pid));
    await p.dispose();
    assert.equal(alive(pid), false, "the process ended before dispose resolved");
  });

  it("a process the server started that ignores SIGTERM is gone too (a server behind npx)", async () => {
    const { pool: p } = pool([fixtureConfig("launcher", ["--stubborn-child"])]);
    const child = Number(text(await tool(await p.ready(), "mcp__launcher__child").execute({}, { cwd: "." })));
    assert.ok(child > 0 && alive(child));
    const pid = p.pids()[0];
    await p.dispose();
    assert.equal(alive(pid), false);
    assert.equal(alive(child), false, "the child ended before dispose resolved");
  });

  it("a server that ignores SIGTERM and failed to start is gone once the pool is disposed", async () => {
    const p = new McpPool({
      cwd: process.cwd(),
      loadConfig: () => ({ servers: [fixtureConfig("mute", ["--stubborn", "--silent"])], issues: [] }),
      startupTimeoutMs: 500,
    });
    pools.push(p);
    const ready = p.ready();
    await until(() => p.pids().length === 1, "the server's process to be spawned");
    const pid = p.pids()[0];
    await ready;
    assert.equal(p.status()[0].state, "failed");
    assert.match(p.status()[0].error ?? "", /did not answer within/);
    await p.dispose();
    assert.equal(alive(pid), false, "the process ended before dispose resolved");
  });
});

describe("MCP pool with @modelcontextprotocol/server-filesystem", { timeout: 120_000 }, () => {
  it("lists the published server's tools and reads a file through it", async () => {
    const tmp = tempDir();
    try {
      const dir = fs.realpathSync(tmp.dir);
      fs.writeFileSync(path.join(dir, "hello.txt"), "hello from the filesystem server\n");
      const { pool: p } = pool([filesystemConfig(dir)]);
      const tools = await p.ready();
      const names = tools.map((t) => t.name);
      assert.ok(names.includes("mcp__files__read_text_file"), names.join(", "));
      assert.ok(names.includes("mcp__files__list_directory"));
      const read = tool(tools, "mcp__files__read_text_file");
      assert.ok("path" in read.parameters.properties);
      const result = await read.execute({ path: path.join(dir, "hello.txt") }, { cwd: dir });
      assert.match(text(result), /hello from the filesystem server/);
      const listed = await tool(tools, "mcp__files__list_directory").execute({ path: dir }, { cwd: dir });
      assert.match(text(listed), /\[FILE\] hello\.txt/);
      // Outside the allowed folder: the server refuses, and that is an error result, not a crash.
      const outside = await read.execute({ path: "/etc/hostname" }, { cwd: dir }).catch((e: Error) => e);
      assert.ok(
        outside instanceof Error ? /denied|outside|not allowed/i.test(outside.message) : outside.isError === true,
      );
      const pid = p.pids()[0];
      await p.dispose();
      assert.equal(alive(pid), false);
    } finally {
      tmp.cleanup();
    }
  });
});
