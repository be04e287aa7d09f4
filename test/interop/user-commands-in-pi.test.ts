/**
 * What this extension writes for the conveniences of the chat input and the todo list, opened by the real pi 1.6.0:
 * `!command` and `!!command` (pi's bashExecution entries), and `todo` calls (an ordinary toolCall and toolResult).
 * pi sees the same entries, leaf and context as we do, and converts the context for the model as we do (the
 * command's output in, the `!!` one out); then pi continues the file and we see what pi sees.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { convertToLlm, SessionManager } from "../../src/core/index.js";
import { createTodoTool } from "../../src/core/tools/todo-tool.js";
import { newAgent, openAIModel } from "../core/agent/helpers.js";
import { fakeServerForSuite } from "../util/fake-server-suite.js";
import { user } from "../util/session-builder.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { assertSameView, latestRelease, ourView, piContinues, piOpen, runPi, openSameAsPi } from "./pi.js";

const fake = fakeServerForSuite();
const tmp = tempDirPerTest("agent-tree-interop-");

describe("typed commands and todo lists in pi", { timeout: 120_000 }, () => {
  test("pi 1.6.0 opens them as we do and sends the model the same context", async () => {
    const pi = latestRelease();
    const sm = await SessionManager.create(tmp.dir, tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: [createTodoTool()] });
    await agent.executeBash("echo hello from the shell");
    await agent.executeBash("echo kept out", { excludeFromContext: true });
    await agent.executeBash("echo failing >&2; exit 2");
    fake.enqueue(
      {
        toolCalls: [
          {
            name: "todo",
            args: { todos: [{ content: "Read the output", status: "in_progress" }] },
            id: "call_t",
          },
        ],
      },
      { text: "The shell said hello." },
    );
    await agent.prompt("What did the shell say?");
    const file = sm.getSessionFile() as string;
    await sm.close();

    const ours = await SessionManager.open(file, { readOnly: true });
    const view = ourView(ours);
    assert.equal(view.entries.filter((e) => e.type === "message" && e.message.role === "bashExecution").length, 3);
    assertSameView(piOpen(pi, file), view, "pi opening our file");
    const [piLlm] = runPi(pi, [{ op: "open", file }, { op: "llmMessages" }]).slice(1);
    const ourLlm = JSON.parse(JSON.stringify(convertToLlm(ours.buildSessionContext().messages))) as unknown;
    assert.deepEqual(ourLlm, piLlm, "the messages the model gets");
    const sent = JSON.stringify(piLlm);
    assert.match(sent, /Ran `echo hello from the shell`\\n```\\nhello from the shell\\n```/);
    assert.match(sent, /Command exited with code 2/);
    assert.doesNotMatch(sent, /kept out/);
    await ours.close();

    // pi goes on from our leaf; we see what pi sees.
    const { snapshot } = piContinues(pi, file, [user("From pi: thanks", Date.now())]);
    const reopened = await openSameAsPi(file, snapshot, "our view after pi appended");
    await reopened.close();
  });
});
