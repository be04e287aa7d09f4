import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentMessage } from "../../../src/core/messages.js";
import { extractiveSummary, EXTRACTIVE_HEADER } from "../../../src/core/summary/extractive.js";
import {
  collectFileOps,
  fileOpsToDetails,
  formatFileOps,
  mergeFileOpsDetails,
} from "../../../src/core/summary/file-ops.js";
import { buildInstructions, BRANCH_SUMMARY_INSTRUCTIONS } from "../../../src/core/summary/prompts.js";
import { serializeConversation, serializeWithinBudget } from "../../../src/core/summary/serialize.js";
import { buildSummaryRequest, summarize } from "../../../src/core/summary/summarize.js";
import type { ModelInfo } from "../../../src/core/providers/types.js";
import { assistant, toolResult, user } from "../../util/session-builder.js";

/** A model the request builder sizes against (no server: these requests are not sent). */
const model: ModelInfo = {
  id: "m",
  name: "m",
  provider: "p",
  api: "openai-completions",
  baseUrl: "http://127.0.0.1:9",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 100_000,
  maxTokens: 8000,
};

const conversation: AgentMessage[] = [
  user("Add a --verbose flag to the CLI. You must not change the public API."),
  assistant("Let me look.", [{ id: "c1", name: "read", args: { path: "src/cli.ts" } }]),
  toolResult("export function main() {}", "read", "c1"),
  assistant("", [
    { id: "c2", name: "edit", args: { path: "src/cli.ts", oldText: "a", newText: "b" } },
    { id: "c3", name: "read", args: { path: "README.md" } },
    { id: "c4", name: "bash", args: { command: "npm test" } },
  ]),
  toolResult("ok", "edit", "c2"),
  toolResult("# readme", "read", "c3"),
  toolResult("1 failing", "bash", "c4", true),
  assistant("The flag is added; one test still fails in cli.test.ts."),
];

describe("file operations", () => {
  it("collects read and modified paths; a modified file is not also listed as read", () => {
    const ops = collectFileOps([
      ...conversation,
      assistant("", [{ id: "c5", name: "write", args: { path: "src/new.ts" } }]),
    ]);
    const d = fileOpsToDetails(ops);
    assert.deepEqual(d.readFiles, ["README.md"]);
    assert.deepEqual(d.modifiedFiles, ["src/cli.ts", "src/new.ts"]);
  });
  it("merges earlier details and formats pi's blocks", () => {
    const ops = mergeFileOpsDetails(collectFileOps(conversation), {
      readFiles: ["old.md", 3],
      modifiedFiles: ["x.ts"],
    });
    const text = formatFileOps(fileOpsToDetails(ops));
    assert.match(text, /<read-files>\nREADME\.md\nold\.md\n<\/read-files>/);
    assert.match(text, /<modified-files>\nsrc\/cli\.ts\nx\.ts\n<\/modified-files>/);
    assert.equal(formatFileOps({ readFiles: [], modifiedFiles: [] }), "");
  });
});

describe("serialization", () => {
  it("writes pi's transcript markers", () => {
    const text = serializeConversation(conversation);
    assert.match(text, /^\[User\]: Add a --verbose flag/);
    assert.match(text, /\[Assistant tool calls\]: read\(path="src\/cli\.ts"\)/);
    assert.match(text, /\[Tool result: read\]: export function main/);
    assert.match(text, /\[Tool result: bash \(error\)\]: 1 failing/);
    assert.match(text, /\[Assistant\]: The flag is added/);
  });
  it("keeps the newest messages within the budget, shortens big tool results and says what was left out", () => {
    const big = "x".repeat(200_000);
    const msgs: AgentMessage[] = [
      user("first request"),
      assistant("", [{ id: "a", name: "read", args: { path: "big.txt" } }]),
    ];
    msgs.push(toolResult(big, "read", "a"));
    for (let i = 0; i < 40; i++) msgs.push(user(`question ${i} ${"y".repeat(400)}`), assistant(`answer ${i}`));
    const out = serializeWithinBudget(msgs, 2000);
    assert.ok(out.text.length <= 2000 * 4 + 200, `transcript is ${out.text.length} chars`);
    assert.match(out.text, /answer 39/);
    assert.ok(out.omittedMessages > 0);
    assert.match(out.text, /earlier messages omitted/);
    const all = serializeWithinBudget(msgs.slice(0, 3), 10_000);
    assert.equal(all.omittedMessages, 0);
    assert.match(all.text, /characters omitted/, "a 200k tool result is shortened, not sent whole");
    assert.ok(all.text.length < 5000);
  });
});

describe("instructions", () => {
  it("appends custom instructions as Additional focus, or replaces the defaults", () => {
    assert.equal(buildInstructions(BRANCH_SUMMARY_INSTRUCTIONS), BRANCH_SUMMARY_INSTRUCTIONS);
    assert.match(
      buildInstructions(BRANCH_SUMMARY_INSTRUCTIONS, "the parser"),
      /## Next Steps[\s\S]*\n\nAdditional focus: the parser$/,
    );
    assert.equal(buildInstructions(BRANCH_SUMMARY_INSTRUCTIONS, "Only list files.", true), "Only list files.");
  });
  it("builds a request with the sections, the transcript and an output limit", () => {
    const req = buildSummaryRequest({
      kind: "branch",
      messages: conversation,
      fileOps: { readFiles: [], modifiedFiles: [] },
      reserveTokens: 16384,
      model,
    });
    const text = JSON.stringify(req.messages);
    for (const s of [
      "## Goal",
      "## Constraints & Preferences",
      "### Done",
      "### In Progress",
      "### Blocked",
      "## Key Decisions",
      "## Next Steps",
      "<conversation>",
    ])
      assert.ok(text.includes(s), s);
    assert.equal(req.maxTokens, 8000);
    assert.match(req.systemPrompt ?? "", /summarization/);
  });
});

describe("extractive summarizer", () => {
  it("extracts requests, constraints, actions, failures and the last conclusion; deterministic", () => {
    const a = extractiveSummary({ messages: conversation });
    assert.equal(a, extractiveSummary({ messages: conversation }));
    assert.ok(a.startsWith(EXTRACTIVE_HEADER));
    assert.match(a, /## Goal\nAdd a --verbose flag/);
    assert.match(a, /must not change the public API/);
    assert.match(a, /- \[x\] edit `src\/cli\.ts`/);
    assert.match(a, /bash `npm test` failed: 1 failing/);
    assert.match(a, /## Last Conclusions\nThe flag is added/);
  });
  it("summarize() without a model is extractive, marked, with file lists appended", async () => {
    const r = await summarize({
      kind: "compaction",
      messages: conversation,
      fileOps: fileOpsToDetails(collectFileOps(conversation)),
      previousSummary: "## Goal\nEarlier goal",
      reserveTokens: 1000,
    });
    assert.equal(r.details.extractive, true);
    assert.match(r.summary, /## Earlier Context\n## Goal\nEarlier goal/);
    assert.match(r.summary, /<modified-files>\nsrc\/cli\.ts\n<\/modified-files>$/);
  });
  it("a model failure is an error, never a silent extractive fallback", async () => {
    await assert.rejects(
      summarize({
        kind: "branch",
        messages: conversation,
        fileOps: { readFiles: [], modifiedFiles: [] },
        reserveTokens: 1000,
        model,
        complete: async () => {
          throw new Error("HTTP 500");
        },
      }),
      /Summarization failed: HTTP 500/,
    );
  });
});
