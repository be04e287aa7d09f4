/**
 * Commands the user types (`!command`, `!!command`): pi's bashExecution entry, what the next request holds (the
 * command and its output, as pi sends it; nothing for `!!`), abort, a command ending while a prompt runs, one at a
 * time, and the key-free environment of the bash tool.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseUserCommand, COMMAND_RUNNING_TEXT } from "../../../src/core/agent/user-command.js";
import type { BashExecutionMessage } from "../../../src/core/messages.js";
import { convertToLlm } from "../../../src/core/messages.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { fileSession } from "../../util/session-builder.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { gatedAgent, newAgent, openAIModel, promptAtGate, requestText, transcript } from "./helpers.js";

/** The bashExecution messages of the session file, in order. */
function commands(entries: ReturnType<Awaited<ReturnType<typeof fileSession>>["getEntries"]>): BashExecutionMessage[] {
  return entries.flatMap((e) => (e.type === "message" && e.message.role === "bashExecution" ? [e.message] : []));
}

describe("parseUserCommand", () => {
  it("reads `!` and `!!` as pi does", () => {
    assert.deepEqual(parseUserCommand("!ls -la"), { command: "ls -la", excludeFromContext: false });
    assert.deepEqual(parseUserCommand("!! git status "), { command: "git status", excludeFromContext: true });
    assert.equal(parseUserCommand("! "), undefined, "nothing to run: sent as typed");
    assert.equal(parseUserCommand("!!"), undefined);
    assert.equal(parseUserCommand("run !this"), undefined);
  });
});

describe("AgentSession.executeBash", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  it("`!echo hi` records pi's bashExecution entry, and the next request holds it as pi sends it", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent, events } = newAgent(sm, { model: openAIModel(fake) });
    const message = await agent.executeBash("echo hi");
    assert.equal(message.output, "hi");
    assert.equal(message.exitCode, 0);
    const [recorded] = commands(sm.getEntries());
    assert.deepEqual(Object.keys(recorded), [
      "role",
      "command",
      "output",
      "exitCode",
      "cancelled",
      "truncated",
      "timestamp",
      "excludeFromContext",
    ]);
    assert.deepEqual(
      { ...recorded, timestamp: 0 },
      {
        role: "bashExecution",
        command: "echo hi",
        output: "hi",
        exitCode: 0,
        cancelled: false,
        truncated: false,
        timestamp: 0,
        excludeFromContext: false,
      },
    );
    // The output so far may come in between (bash_execution_update), as it arrives.
    assert.deepEqual(
      events.map((e) => e.type).filter((t) => t !== "bash_execution_update"),
      ["bash_execution_start", "bash_execution_end", "message_end"],
    );

    fake.enqueue({ text: "I see hi." });
    await agent.prompt("what did it print?");
    const sent = fake.requests.at(-1) as Record<string, unknown>;
    assert.match(requestText(sent), /Ran `echo hi`\\n```\\nhi\\n```/);
    // pi's conversion, user text before the question.
    const messages = sent.messages as { role: string; content: unknown }[];
    const users = messages.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));
    assert.equal(users.length, 2);
    assert.match(users[0], /Ran `echo hi`/);
    assert.deepEqual(transcript(sm.getEntries()), ["bashExecution", "user:what did it print?", "assistant"]);
  });

  it("`!!` records the command but keeps it out of the context; a failing command says its exit code", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent, events } = newAgent(sm, { model: openAIModel(fake) });
    await agent.executeBash("echo secret-output", { excludeFromContext: true });
    const failed = await agent.executeBash("echo oops >&2; exit 3");
    assert.equal(failed.exitCode, 3);
    assert.equal(failed.output, "oops");
    const [excluded] = commands(sm.getEntries());
    assert.equal(excluded.excludeFromContext, true);
    assert.equal(excluded.output, "secret-output");
    const llm = JSON.stringify(convertToLlm(sm.buildSessionContext().messages));
    assert.doesNotMatch(llm, /secret-output/);
    assert.match(llm, /Command exited with code 3/);

    fake.enqueue({ text: "ok" });
    await agent.prompt("next");
    assert.equal(fake.requests.length, 1, JSON.stringify(events.filter((e) => e.type === "error")));
    const sent = requestText(fake.requests.at(-1) as Record<string, unknown>);
    assert.doesNotMatch(sent, /secret-output/, "a `!!` command never reaches the model");
    assert.match(sent, /Ran `echo oops >&2; exit 3`/);
  });

  it("abortBash stops the command (its process group) and records what it printed, cancelled", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent, events } = newAgent(sm, { model: openAIModel(fake) });
    const running = agent.executeBash("echo started; sleep 30; echo never");
    // The output so far is reported while it runs.
    for (let i = 0; i < 200 && !events.some((e) => e.type === "bash_execution_update"); i++)
      await new Promise((r) => setTimeout(r, 25));
    assert.equal(agent.isBashRunning, true);
    await assert.rejects(agent.executeBash("echo second"), new RegExp(COMMAND_RUNNING_TEXT.slice(0, 20)));
    await assert.rejects(agent.navigateTree(sm.getLeafId() ?? "x"), /while a command runs/);
    const update = events.find((e) => e.type === "bash_execution_update");
    assert.equal(update?.type === "bash_execution_update" ? update.output : "", "started");
    agent.abortBash();
    const message = await running;
    assert.equal(message.cancelled, true);
    assert.equal(message.exitCode, undefined);
    assert.equal(message.output, "started");
    assert.equal(agent.isBashRunning, false);
    assert.equal(commands(sm.getEntries())[0].cancelled, true);
    assert.match(JSON.stringify(convertToLlm(sm.buildSessionContext().messages)), /\(command cancelled\)/);
  });

  it("a command that ends while a prompt runs is recorded once the prompt ended", async () => {
    const { sm, gate, agent } = await gatedAgent(tmp.dir, openAIModel(fake));
    const run = await promptAtGate(agent, gate, fake, "start", { text: "Done waiting." });
    await agent.executeBash("echo during");
    assert.deepEqual(commands(sm.getEntries()), [], "not between a tool call and its result");
    await run.finish();
    assert.deepEqual(transcript(sm.getEntries()), [
      "user:start",
      "assistant",
      "toolResult",
      "assistant",
      "bashExecution",
    ]);
  });

  it("runs without the models' key variables, as the bash tool does", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    const before = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "sk-test-not-for-commands";
    try {
      const message = await agent.executeBash('echo "key=[$OPENAI_API_KEY]"');
      assert.equal(message.output, "key=[]");
    } finally {
      if (before === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = before;
    }
  });
});
