/**
 * Accept writes what was reviewed (issue 31, item 3): a `write` or `edit` approved from its diff runs only on the
 * file the diff showed. A file changed between the diff and Accept is not overwritten: the call is asked about
 * again with the new diff (a bounded number of times), through the real tools and the agent loop's tool execution.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { executeToolCall } from "../../../src/core/agent/tool-execution.js";
import type { AgentEvent } from "../../../src/core/agent/events.js";
import type { ToolCall } from "../../../src/core/messages.js";
import { proposedFileChange, type ProposedFileChange } from "../../../src/core/tools/file-change.js";
import { createEditTool, createWriteTool } from "../../../src/core/tools/index.js";
import { MAX_REVIEWS, reviewTestHooks } from "../../../src/core/tools/reviewed-file.js";
import type { AgentTool, ToolApprovalRequest } from "../../../src/core/tools/types.js";
import { tempDir } from "../../util/temp-dir.js";

let dir = "";
beforeEach(() => {
  dir = tempDir("agent-tree-reviewed-").dir;
});
afterEach(() => {
  reviewTestHooks.beforeWrite = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

const file = (name: string): string => path.join(dir, name);
const text = (name: string): string => fs.readFileSync(file(name), "utf8");

/** One review as the host does it: the diff computed when the call asks, kept with the request. */
interface Review {
  request: ToolApprovalRequest;
  diff: ProposedFileChange;
}

/**
 * Runs `call` through the agent loop's tool execution with a host that computes each diff when asked, lets
 * `meanwhile(n)` change the workspace while the n-th diff is shown (the user saving in the editor), then accepts.
 */
async function runReviewed(
  call: ToolCall,
  meanwhile: (review: number) => void,
): Promise<{ reviews: Review[]; resultText: string; isError: boolean; events: AgentEvent[] }> {
  const reviews: Review[] = [];
  const events: AgentEvent[] = [];
  const tools = new Map<string, AgentTool>([
    ["write", createWriteTool(dir)],
    ["edit", createEditTool(dir)],
  ]);
  const message = await executeToolCall(call, {
    tools,
    cwd: dir,
    signal: new AbortController().signal,
    emit: (e) => events.push(e),
    redact: (r) => r,
    approve: async (request) => {
      const diff = await proposedFileChange(dir, request.toolName, request.args);
      assert.ok(diff);
      reviews.push({ request, diff });
      meanwhile(reviews.length);
      return { approved: true, reviewed: diff.reviewed };
    },
  });
  const first = message.content[0];
  return { reviews, resultText: first?.type === "text" ? first.text : "", isError: message.isError, events };
}

const writeCall = (p: string, content: string): ToolCall => ({
  type: "toolCall",
  id: "call_1",
  name: "write",
  arguments: { path: p, content },
});

describe("Accept writes what was reviewed", () => {
  it("write: a file saved after its diff is not overwritten; the new diff is asked about, then written", async () => {
    fs.writeFileSync(file("a.txt"), "as reviewed\n");
    const run = await runReviewed(writeCall("a.txt", "from the model\n"), (n) => {
      if (n === 1) fs.writeFileSync(file("a.txt"), "saved by the user meanwhile\n");
      // While the second diff is shown nothing changes: Accept writes.
      if (n === 2) assert.equal(text("a.txt"), "saved by the user meanwhile\n", "nothing overwritten before");
    });
    assert.equal(run.reviews.length, 2, "asked again with a new diff");
    assert.equal(run.reviews[0].diff.before, "as reviewed\n");
    assert.equal(run.reviews[1].diff.before, "saved by the user meanwhile\n", "the new diff shows the saved file");
    assert.equal(run.reviews[0].request.changed, undefined);
    assert.match(run.reviews[1].request.changed ?? "", /a\.txt changed after its diff was shown; nothing was written/);
    assert.equal(run.reviews[1].request.toolCallId, "call_1");
    assert.equal(run.isError, false, run.resultText);
    assert.equal(text("a.txt"), "from the model\n");
  });

  it("edit: a file changed after its diff is not edited into something else than the diff", async () => {
    fs.writeFileSync(file("b.txt"), "one\ntwo\nthree\n");
    const call: ToolCall = {
      type: "toolCall",
      id: "call_e",
      name: "edit",
      arguments: { path: "b.txt", oldText: "two", newText: "TWO" },
    };
    const run = await runReviewed(call, (n) => {
      if (n === 1) fs.writeFileSync(file("b.txt"), "zero\none\ntwo\nthree\n");
    });
    assert.equal(run.reviews.length, 2);
    assert.equal(run.reviews[0].diff.after, "one\nTWO\nthree\n");
    assert.equal(run.reviews[1].diff.after, "zero\none\nTWO\nthree\n", "the second diff is what gets written");
    assert.equal(text("b.txt"), run.reviews[1].diff.after);
  });

  it("a new file created by someone else after its diff is kept; one deleted after its diff is not re-created", async () => {
    const created = await runReviewed(writeCall("new.txt", "model's\n"), (n) => {
      if (n === 1) fs.writeFileSync(file("new.txt"), "someone else's\n");
      if (n === 2) assert.equal(text("new.txt"), "someone else's\n");
    });
    assert.match(created.reviews[1].request.changed ?? "", /new\.txt was created after its diff was shown/);
    assert.equal(created.reviews[1].diff.before, "someone else's\n");
    assert.equal(text("new.txt"), "model's\n", "written once the user accepted the new diff");

    fs.writeFileSync(file("gone.txt"), "here\n");
    const deleted = await runReviewed(writeCall("gone.txt", "model's\n"), (n) => {
      if (n === 1) fs.rmSync(file("gone.txt"));
      if (n === 2) assert.equal(fs.existsSync(file("gone.txt")), false, "not re-created before the new diff");
    });
    assert.match(deleted.reviews[1].request.changed ?? "", /gone\.txt was deleted after its diff was shown/);
    assert.equal(deleted.reviews[1].diff.before, undefined, "the new diff shows a new file");
    assert.equal(text("gone.txt"), "model's\n");
  });

  it(`a file that keeps changing is given up on after ${MAX_REVIEWS} diffs: refused, said, nothing written`, async () => {
    fs.writeFileSync(file("c.txt"), "v0\n");
    const run = await runReviewed(writeCall("c.txt", "model's\n"), (n) => fs.writeFileSync(file("c.txt"), `v${n}\n`));
    assert.equal(run.reviews.length, MAX_REVIEWS);
    assert.equal(run.isError, true);
    assert.match(
      run.resultText,
      /c\.txt kept changing while its diff was reviewed \(3 diffs shown\); nothing was written/,
    );
    assert.equal(text("c.txt"), `v${MAX_REVIEWS}\n`, "the user's last save is kept");
    const error = run.events.find((e) => e.type === "error");
    assert.ok(error?.type === "error" && error.source === "tool" && /kept changing/.test(error.error));
  });

  it("a save by rename right before the write (a new file at the path) is seen: that file is left as it is", async () => {
    fs.writeFileSync(file("d.txt"), "as reviewed\n");
    let swapped = false;
    reviewTestHooks.beforeWrite = async () => {
      if (swapped) return;
      swapped = true;
      // An editor saving by writing a new file and renaming it over the old one, between the check and the write.
      fs.writeFileSync(file("d.txt.tmp"), "saved by rename\n");
      fs.renameSync(file("d.txt.tmp"), file("d.txt"));
    };
    const run = await runReviewed(writeCall("d.txt", "model's\n"), (n) => {
      if (n === 2) assert.equal(text("d.txt"), "saved by rename\n");
    });
    assert.equal(run.reviews.length, 2);
    assert.match(run.reviews[1].request.changed ?? "", /d\.txt was replaced by another program/);
    assert.equal(run.reviews[1].diff.before, "saved by rename\n");
    assert.equal(text("d.txt"), "model's\n");
  });

  it("a call approved without a diff (auto-approve) runs on the file as it is, as before", async () => {
    fs.writeFileSync(file("e.txt"), "old\n");
    const result = await createWriteTool(dir).execute({ path: "e.txt", content: "new\n" }, { cwd: dir });
    assert.notEqual(result.isError, true);
    assert.equal(text("e.txt"), "new\n");
  });
});
