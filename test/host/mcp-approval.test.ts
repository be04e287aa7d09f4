/**
 * MCP tools go through the same approval as the built-in tools: through the SessionController's broker, a call asks
 * unless agentTree.tools.autoApprove names the tool or is true.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { McpPool } from "../../src/core/mcp/mcp-pool.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { summarizeToolCall, type AutoApprove } from "../../src/host/tools/tool-approval.js";
import { fakeServerForSuite } from "../util/fake-server-suite.js";
import { fixtureConfig } from "../util/mcp-fixture.js";
import { createHarness, type Harness } from "./controller-harness.js";

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 10));

describe("approval of MCP tool calls", { timeout: 120_000 }, () => {
  const fake = fakeServerForSuite();
  const pool = new McpPool({ cwd: process.cwd(), loadConfig: () => ({ servers: [fixtureConfig("fx")], issues: [] }) });
  after(() => pool.dispose());

  async function run(autoApprove: AutoApprove): Promise<{ h: Harness; done: Promise<void> }> {
    const h = createHarness({ fakeBaseURL: fake.baseURL, autoApprove, toolSource: pool });
    await h.controller.attach(SessionManager.inMemory("/tmp"));
    fake.enqueue({ toolCalls: [{ id: "m1", name: "mcp__fx__echo", args: { text: "x" } }] }, { text: "done" });
    return { h, done: h.controller.agent!.prompt("go") };
  }

  function lastToolText(h: Harness): string {
    const entries = h.controller.sessionManager!.getEntries();
    const r = entries
      .flatMap((e) => (e.type === "message" && e.message.role === "toolResult" ? [e.message] : []))
      .at(-1);
    return JSON.stringify(r?.content);
  }

  it("asks when autoApprove does not name it, and runs it once allowed", async () => {
    const { h, done } = await run(false);
    for (let i = 0; i < 3000 && h.asked.length === 0; i++) await tick();
    assert.deepEqual(h.asked, ["m1"], "the MCP call waits for the user");
    assert.equal(
      summarizeToolCall("mcp__fx__echo", { text: "x" }),
      'fx/echo {"text":"x"}',
      "the question names the server",
    );
    assert.equal(h.controller.approvals?.answer("m1", true), true);
    await done;
    assert.match(lastToolText(h), /echo: x/);
    await h.controller.close();
  });

  it("a denied call does not run", async () => {
    const { h, done } = await run(["read"]);
    for (let i = 0; i < 3000 && h.asked.length === 0; i++) await tick();
    assert.deepEqual(h.asked, ["m1"]);
    h.controller.approvals?.answer("m1", false);
    await done;
    assert.match(lastToolText(h), /Refused by user/);
    await h.controller.close();
  });

  it("runs without asking when autoApprove names it or is true", async () => {
    for (const auto of [["mcp__fx__echo"], true] as AutoApprove[]) {
      const { h, done } = await run(auto);
      await done;
      assert.deepEqual(h.asked, [], `no question with autoApprove ${JSON.stringify(auto)}`);
      assert.match(lastToolText(h), /echo: x/);
      await h.controller.close();
    }
  });
});
