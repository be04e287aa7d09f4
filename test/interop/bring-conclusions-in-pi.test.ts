/**
 * Bring Conclusions Here, read by the real pi (0.73.1 and 1.6.0): the summary of another branch appended at our
 * leaf is an ordinary branch summary to pi. pi resumes at it with the same tree, leaf and context as ours (the
 * summary last in the context, with its fromId), and what pi appends next hangs off it.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, test } from "node:test";
import { AgentSession, SessionManager } from "../../src/core/index.js";
import { testModels } from "../util/test-models.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { assertSameView, ourView, piContinues, piOpen, releases, timedMessages, openSameAsPi } from "./pi.js";

const { user, assistant } = timedMessages(Date.parse("2026-03-01T10:00:00.000Z"), {
  provider: "openai",
  model: "gpt-4.1",
  usage: { input: 10, output: 5, totalTokens: 15 },
});

/** u1 → a1 ┬→ u2 → a2 (the other branch) ; a1 → u3 → a3 (leaf), then a3's conclusions brought from a2. */
async function writeSession(dir: string): Promise<{ file: string; ids: Record<string, string>; summaryId: string }> {
  const sm = await SessionManager.create("/work/project", dir);
  const ids: Record<string, string> = {};
  ids.u1 = sm.appendMessage(user("Add a config loader", 1));
  ids.a1 = sm.appendMessage(assistant("JSON or YAML?", 2));
  ids.u2 = sm.appendMessage(user("Try JSON and keep it small", 3));
  ids.a2 = sm.appendMessage(assistant("JSON loader written; 40 lines, no dependency.", 4));
  sm.branch(ids.a1);
  ids.u3 = sm.appendMessage(user("Try YAML", 5));
  ids.a3 = sm.appendMessage(assistant("YAML needs a dependency.", 6));
  // No model: the extractive summarizer, as in the extension without a key.
  const agent = new AgentSession({
    sessionManager: sm,
    cwd: "/work/project",
    modelRegistry: testModels(),
    tools: [],
  });
  const result = await agent.bringConclusions(ids.a2);
  agent.dispose();
  assert.ok(result.kind === "moved", result.kind === "failed" ? result.error : result.kind);
  await sm.close();
  return { file: sm.getSessionFile() as string, ids, summaryId: result.summaryEntry.id };
}

const tmp = tempDirPerTest("agent-tree-interop-");

for (const pi of releases()) {
  describe(`pi ${pi.version} reads brought conclusions`, () => {
    test("same tree, leaf and context; the summary is pi's leaf and the last message of its context", async () => {
      const { file, ids, summaryId } = await writeSession(path.join(tmp.dir, `bring-${pi.version}`));
      const ours = await SessionManager.open(file, { readOnly: true });
      const piView = piOpen(pi, file);
      assertSameView(piView, ourView(ours), "pi opening a session with brought conclusions");
      await ours.close();
      assert.equal(piView.leafId, summaryId, "pi resumes at the summary");
      const last = piView.context.messages.at(-1);
      assert.equal(last?.role, "branchSummary");
      assert.equal(last?.role === "branchSummary" && last.fromId, ids.a2);
      assert.match(last?.role === "branchSummary" ? last.summary : "", /Try JSON and keep it small/);
      assert.ok(
        piView.context.messages.some((m) => m.role === "user" && m.content === "Try YAML"),
        "the current branch is still the context",
      );

      // pi goes on from there; its reply hangs off the summary, and we see it the same way.
      const { results, snapshot } = piContinues(pi, file, [
        user("From pi: which one?", 10),
        assistant("JSON, per the summary.", 11),
      ]);
      const piUser = results[0] as string;
      const reopened = await openSameAsPi(file, snapshot, "our view after pi appended");
      assert.equal(reopened.getEntry(piUser as string)?.parentId, summaryId);
      await reopened.close();
    });
  });
}
