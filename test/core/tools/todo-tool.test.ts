/**
 * The `todo` tool: its arguments' checks (Claude Code's shape), its result and the tree row it makes (`todo 3/7`),
 * and the list in force on a path — each branch its own, a switch shows the other branch's.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTodoTool } from "../../../src/core/tools/todo-tool.js";
import {
  MAX_TODOS,
  parseTodos,
  todoListOnPath,
  todoResultText,
  todoRowProgress,
  type TodoItem,
} from "../../../src/core/tools/todo-list.js";
import { rowWords } from "../../../src/core/entries/row-words.js";
import { treeRowOf } from "../../../src/core/rows/tree-row.js";
import type { SessionManager } from "../../../src/core/session/session-manager.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { newAgent, openAIModel } from "../agent/helpers.js";
import { fileSession } from "../../util/session-builder.js";
import { SEVEN_TODOS } from "../../util/todo-fixtures.js";

describe("todo tool", () => {
  const tool = createTodoTool();
  const run = (args: Record<string, unknown>) => tool.execute(args, { cwd: "/nowhere" });
  const text = (r: { content: { type: string; text?: string }[] }): string => r.content[0]?.text ?? "";

  it("takes Claude Code's shape, changes nothing, and answers with the progress first", async () => {
    assert.equal(tool.name, "todo");
    assert.equal(tool.mutates, false, "read-only: it runs without an approval");
    assert.match(tool.description, /three or more/);
    const r = await run({ todos: SEVEN_TODOS });
    assert.equal(r.isError, undefined);
    assert.match(text(r), /^3\/7 completed\. In progress: Run the tests\./);
    assert.deepEqual(r.details, { progress: { done: 3, total: 7 } });
    // Claude Code's activeForm (and any other field of a task) is dropped, not refused.
    const parsed = parseTodos({ todos: [{ content: " Fix it ", status: "pending", activeForm: "Fixing it" }] });
    assert.deepEqual(parsed, { ok: true, todos: [{ content: "Fix it", status: "pending" }] });
  });

  it("refuses bad arguments with an error that names what is wrong", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /Missing or invalid "todos"/],
      [{ todos: "do it" }, /expected an array/],
      [{ todos: [{ content: "a", status: "done" }] }, /todos\[0\]\.status must be one of "pending", "in_progress"/],
      [
        {
          todos: [
            { content: "a", status: "pending" },
            { content: "  ", status: "pending" },
          ],
        },
        /todos\[1\]\.content/,
      ],
      [{ todos: [{ content: 3, status: "pending" }] }, /todos\[0\]\.content must be a non-empty string/],
      [{ todos: ["a"] }, /todos\[0\] must be an object/],
      [{ todos: [{ content: "x".repeat(501), status: "pending" }] }, /at most 500/],
      [{ todos: Array.from({ length: MAX_TODOS + 1 }, () => ({ content: "a", status: "pending" })) }, /at most 100/],
      [{ _raw: '{"todos": [' }, /not valid JSON/],
    ];
    for (const [args, error] of cases) {
      const r = await run(args);
      assert.equal(r.isError, true, JSON.stringify(args).slice(0, 80));
      assert.match(text(r), error);
      assert.match(text(r), /^todo: /);
    }
  });

  it("the result's row reads `todo 3/7`; an error result or another text keeps the usual row", () => {
    const row = (preview: string) =>
      rowWords(
        treeRowOf({
          id: "t",
          parentId: "a",
          type: "message",
          role: "toolResult",
          toolName: "todo",
          timestamp: "",
          preview,
        }),
      );
    assert.deepEqual(row(todoResultText(SEVEN_TODOS)), { role: "todo", text: "3/7" });
    assert.deepEqual(row(todoResultText([])), { role: "todo", text: "0/0" });
    assert.deepEqual(row('todo: Missing or invalid "todos"'), {
      role: "tool todo:",
      text: 'todo: Missing or invalid "todos"',
    });
    assert.equal(todoRowProgress("8/7 completed."), undefined);
  });
});

describe("the todo list of a path", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  const listAt = (sm: SessionManager): TodoItem[] | undefined =>
    todoListOnPath({ envelopes: sm.getPathEnvelopes(), entry: (id) => sm.getEntry(id) });

  it("is the newest valid todo call on the path: each branch has its own, a switch shows the other's", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: [createTodoTool()] });
    const planA = [
      { content: "Try approach A", status: "in_progress" },
      { content: "Measure it", status: "pending" },
    ];
    const doneA = [
      { content: "Try approach A", status: "completed" },
      { content: "Measure it", status: "in_progress" },
    ];
    fake.enqueue(
      { toolCalls: [{ name: "todo", args: { todos: planA }, id: "call_1" }] },
      { toolCalls: [{ name: "todo", args: { todos: doneA }, id: "call_2" }] },
      // An invalid call later on the path does not replace the list.
      { toolCalls: [{ name: "todo", args: { todos: [{ content: "x", status: "someday" }] }, id: "call_3" }] },
      { text: "Approach A is measured." },
    );
    assert.equal(listAt(sm), undefined, "no list before the first call");
    await agent.prompt("Plan approach A");
    const tipA = sm.getLeafId() as string;
    assert.deepEqual(listAt(sm), doneA);
    const results = sm
      .getEntries()
      .flatMap((e) => (e.type === "message" && e.message.role === "toolResult" ? [e] : []));
    const rows = results.map((e) => rowWords(treeRowOf(sm.getEnvelope(e.id)!)));
    assert.deepEqual(
      rows.slice(0, 2).map((r) => `${r.role} ${r.text}`),
      ["todo 0/2", "todo 1/2"],
    );
    assert.equal(rows[2].role, "tool todo:", "the refused call's row is the usual one");

    // Branch B, from before the first user message.
    const firstUser = sm.getEntries().find((e) => e.type === "message" && e.message.role === "user")!;
    assert.equal((await agent.navigateTree(firstUser.id, { summarize: false })).cancelled, false);
    assert.equal(listAt(sm), undefined, "before any call there is no list");
    const planB = [{ content: "Try approach B", status: "in_progress" }];
    fake.enqueue({ toolCalls: [{ name: "todo", args: { todos: planB }, id: "call_4" }] }, { text: "B started." });
    await agent.prompt("Plan approach B");
    assert.deepEqual(listAt(sm), planB);

    await agent.navigateTree(tipA, { summarize: false });
    assert.deepEqual(listAt(sm), doneA, "back on A: A's list");
  });
});
