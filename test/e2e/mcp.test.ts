/**
 * End to end, in a real VS Code (code-server + Chromium): a workspace whose `.pi/mcp.json` names the fixture MCP
 * server. Being a project's server, it is listed as not allowed yet and starts only after the user allows it in
 * the modal question the first prompt brings (name, file and command line shown). The fake model's request then
 * offers the server's tools, the model calls one, the call runs in the server the extension started, and the
 * result shows in the chat and the tree (with its server); "Agent: Show MCP Servers" lists the server as running
 * with its tools. When the window goes away, the server's process ends. Screenshots are left in test-results/e2e/.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { chatView, MODEL_TIMEOUT_MS, readSession, sendAndAwait, sendPrompt } from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import { alive, FIXTURE_ECHO_SCHEMA, fixtureEntry } from "../util/mcp-fixture.js";
import {
  dialog,
  expectVisible,
  quickPickRows,
  runCommand,
  screenshot,
  UI_TIMEOUT_MS,
  waitUntil,
} from "../util/workbench.js";

const { demo, fake, step, wb, page, openAgentTree } = demoWorkbenchSuite({
  name: "mcp",
  model: { chunkDelayMs: 5 },
  isolateOtherTools: true,
  // The echo and pid tools run without the approval prompt (approval itself: test/host/mcp-approval.test.ts).
  settings: { "agentTree.tools.autoApprove": ["mcp__fixture__echo", "mcp__fixture__pid"] },
  prepare({ demo }) {
    mkdirSync(join(demo.workspace, ".pi"), { recursive: true });
    writeFileSync(
      join(demo.workspace, ".pi", "mcp.json"),
      JSON.stringify({ mcpServers: { fixture: fixtureEntry() } }, null, 2),
    );
  },
});

type Line = ReturnType<typeof readSession>[number];
/** The session's tool results (message lines with role toolResult). */
function toolResults(): { toolName: string; content: { type: string; text?: string }[]; details?: unknown }[] {
  return readSession(demo().sessionFile).flatMap((l: Line) => {
    const m = l.message as { role?: string } | undefined;
    return l.type === "message" && m?.role === "toolResult" ? [m as never] : [];
  });
}

/** The server's pid, as its `pid` tool said it (set by the second step). */
let serverPid: number | undefined;

describe("MCP servers' tools in VS Code (code-server)", { timeout: 6 * 60_000 }, () => {
  it(
    "before the user agreed, the project's server is listed as not allowed yet",
    step("unapproved", async () => {
      await openAgentTree();
      await runCommand(page(), "Agent: Show MCP Servers");
      const rows = await quickPickRows(page(), "MCP Servers");
      const fixtureRow = rows.find((r) => r.includes("fixture"));
      assert.ok(fixtureRow, `a row for the fixture server (rows: ${rows.join(" | ")})`);
      assert.match(fixtureRow, /not allowed yet/);
      assert.match(fixtureRow, /fixture-server\.mjs/, "the row shows what it would run");
      await page().keyboard.press("Escape");
    }),
  );

  it(
    "the first prompt asks to allow the server, showing its file and command line; once allowed the model is offered its tools, calls one, and the result shows in the chat and the tree",
    step("call", async () => {
      const t = await openAgentTree();
      const chat = await chatView(page());
      const before = fake().requests.length;
      await sendPrompt(chat, '/tool mcp__fixture__echo {"text": "hello from the e2e test"}');
      await expectVisible(dialog(page()), "the question about the project's MCP server", MODEL_TIMEOUT_MS);
      const question = await dialog(page()).innerText();
      assert.match(question, /Allow the MCP server "fixture" from \.pi\/mcp\.json to start\?/);
      assert.match(question, /fixture-server\.mjs/, "the question shows the command line");
      assert.equal(fake().requests.length, before, "no request before the answer");
      await screenshot(page(), "mcp-00-agree");
      await dialog(page())
        .locator(".dialog-buttons .monaco-button", { hasText: /^Allow$/ })
        .click();
      await dialog(page()).waitFor({ state: "hidden", timeout: UI_TIMEOUT_MS });
      await expectVisible(
        chat.getByText("Tool result from mcp__fixture__echo"),
        "the model's answer after the MCP tool result",
        MODEL_TIMEOUT_MS,
      );
      const first = fake().requests[before];
      const offered = ((first.tools ?? []) as { function: { name: string; parameters: unknown } }[]).map(
        (x) => x.function,
      );
      const echo = offered.find((f) => f.name === "mcp__fixture__echo");
      assert.ok(echo, `the request offers the MCP tool (offered: ${offered.map((f) => f.name).join(", ")})`);
      assert.deepEqual(echo.parameters, FIXTURE_ECHO_SCHEMA);
      // The system prompt the extension built lists the MCP tool, with its description.
      const system = (first.messages as { role: string; content: unknown }[]).find((m) => m.role === "system");
      assert.match(String(system?.content), /- mcp__fixture__echo: Echo the given text back\./);
      // The chat shows the call, labelled with its server, and its result.
      await expectVisible(
        chat.locator(".tool-call .tool-name", { hasText: "fixture/echo" }),
        "the MCP call in the chat",
      );
      await chat.locator(".tool-call", { hasText: "fixture/echo" }).first().locator("summary").click();
      await expectVisible(chat.getByText("echo: hello from the e2e test"), "the MCP tool's result in the chat");
      // Stored as pi stores it.
      const result = toolResults().at(-1);
      assert.equal(result?.toolName, "mcp__fixture__echo");
      assert.deepEqual(result?.content, [{ type: "text", text: "echo: hello from the e2e test" }]);
      assert.deepEqual(result?.details, { server: "fixture", tool: "echo" });
      // The tree's row names the tool's server.
      await expectVisible(
        t.locator('[role="treeitem"].kind-toolResult', { hasText: "tool fixture/echo:" }),
        "the MCP tool result in the tree",
      );
      await screenshot(page(), "mcp-01-call");
    }),
  );

  it(
    "Agent: Show MCP Servers lists the server as running, with its tools",
    step("list", async () => {
      const chat = await chatView(page());
      await sendAndAwait(
        chat,
        "/tool mcp__fixture__pid {}",
        "Tool result from mcp__fixture__pid",
        "the pid tool's answer",
      );
      serverPid = Number(toolResults().at(-1)?.content[0]?.text);
      assert.ok(Number.isInteger(serverPid) && serverPid > 0, `the server said its pid (${serverPid})`);
      assert.ok(alive(serverPid), "the server runs while the window is open");

      await runCommand(page(), "Agent: Show MCP Servers");
      const rows = await quickPickRows(page(), "MCP Servers");
      const fixtureRow = rows.find((r) => r.includes("fixture"));
      assert.ok(fixtureRow, `a row for the fixture server (rows: ${rows.join(" | ")})`);
      assert.match(fixtureRow, /running · 11 tools/);
      assert.match(fixtureRow, /\.pi\/mcp\.json/);
      assert.match(fixtureRow, /echo, fail, hang, image/);
      await screenshot(page(), "mcp-02-servers");
      await page().keyboard.press("Escape");
    }),
  );

  it(
    "the server's process ends with the window",
    step("stop", async () => {
      assert.ok(serverPid, "the previous step found the pid");
      await wb().close();
      await waitUntil(async () => (alive(serverPid!) ? undefined : true), "the MCP server's process to end", 30_000);
    }),
  );
});
