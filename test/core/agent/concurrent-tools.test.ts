/**
 * The loop runs a reply's consecutive calls of a `concurrent` tool at once and records every result in call order;
 * other tools' calls run one at a time; each call knows the entry of the message holding it (`callEntryId`).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentTool } from "../../../src/core/tools/types.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { fileSession } from "../../util/session-builder.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { newAgent, openAIModel } from "./helpers.js";

const fake = fakeServerForSuite();
const tmp = tempDirPerTest();

/** A tool whose calls wait until `release(name)`; `running` lists the calls under way. */
function gatedTool(name: string, concurrent: boolean) {
  const running = new Set<string>();
  const gates = new Map<string, () => void>();
  const started: string[] = [];
  const entries: (string | undefined)[] = [];
  let most = 0;
  const tool: AgentTool = {
    name,
    description: name,
    mutates: false,
    concurrent,
    parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
    async execute(args, ctx) {
      const id = String(args.id);
      started.push(id);
      entries.push(ctx.callEntryId);
      running.add(id);
      most = Math.max(most, running.size);
      await new Promise<void>((resolve) => gates.set(id, resolve));
      running.delete(id);
      return { content: [{ type: "text", text: `${name} ${id} done` }] };
    },
  };
  const release = (id: string): boolean => {
    const gate = gates.get(id);
    gates.delete(id);
    gate?.();
    return gate !== undefined;
  };
  return { tool, started, entries, release, most: () => most };
}

/** Resolves once `check` holds (bounded). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(check(), "the condition never held");
}

describe("concurrent tool calls", { timeout: 30_000 }, () => {
  it("start a reply's concurrent calls together, record results in call order, and run the others one by one", async () => {
    const sm = await fileSession(tmp.dir);
    const par = gatedTool("par", true);
    const seq = gatedTool("seq", false);
    fake.enqueue(
      {
        text: "calls",
        toolCalls: [
          { name: "par", args: { id: "a" } },
          { name: "par", args: { id: "b" } },
          { name: "seq", args: { id: "c" } },
          { name: "seq", args: { id: "d" } },
        ],
      },
      { text: "done" },
    );
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: [par.tool, seq.tool] });
    const prompt = agent.prompt("go");
    await until(() => par.started.length === 2);
    assert.deepEqual(par.started, ["a", "b"], "both concurrent calls run at once");
    assert.deepEqual(seq.started, [], "the next tool's calls wait for them");
    // The second finishes first; its result is still recorded after the first's.
    par.release("b");
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(seq.started, [], "nothing more starts before the first concurrent call ended");
    par.release("a");
    await until(() => seq.started.length === 1);
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(seq.started, ["c"], "a non-concurrent call runs alone");
    seq.release("c");
    await until(() => seq.started.length === 2);
    seq.release("d");
    await prompt;
    assert.equal(seq.most(), 1);
    const results = sm
      .getEntries()
      .flatMap((e) => (e.type === "message" && e.message.role === "toolResult" ? [e.message] : []))
      .map((m) => m.content.map((c) => (c.type === "text" ? c.text : "")).join(""));
    assert.deepEqual(results, ["par a done", "par b done", "seq c done", "seq d done"]);
    const call = sm.getEntries().find((e) => e.type === "message" && e.message.role === "assistant");
    assert.ok(call);
    assert.deepEqual([...par.entries, ...seq.entries], [call.id, call.id, call.id, call.id], "each call's entry");
    await sm.close();
  });
});
