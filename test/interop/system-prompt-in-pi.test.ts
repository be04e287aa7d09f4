/**
 * The system prompt this extension records, resumed by the real pi: a session written by AgentSession (the real
 * openai client against the fake server) with a first `system` entry, a patch after AGENTS.md changed, a branch
 * switch and a compaction. pi opens it with the same tree and context; pi 1.5+ (its pi-ai getCurrentSystemMessage)
 * replays the same prompt at the leaf and at the older branch point; pi 0.73.1 keeps every entry.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  SessionManager,
  currentSystemMessage,
  systemMessageAt,
  systemPromptText,
  workspacePromptProvider,
  type SystemMessage,
} from "../../src/core/index.js";
import { instructionWorkspace } from "../core/agent/helpers.js";
import { assertSameView, latestRelease, ourView, piOpen, releases, runPi, jsonView } from "./pi.js";
import { recordedSessionForSuite } from "./recorded-session.js";

let firstReply: string;

const recorded = recordedSessionForSuite(async ({ dir, agentOn }) => {
  const { ws, sm, loader, setAgentsMd } = await instructionWorkspace(dir, "Interop word: PELICAN");
  const agent = await agentOn(sm, ws, {
    systemPrompt: workspacePromptProvider({ loader, now: () => new Date(2026, 10, 27, 12), platform: "linux x64" }),
    extractiveSummaries: true,
    compaction: { enabled: true, reserveTokens: 500, keepRecentTokens: 50 },
  });
  await agent.prompt(`first ${"please ".repeat(60)}`);
  firstReply = sm.getLeafId() as string;
  setAgentsMd("Interop word: HERON");
  await agent.prompt(`second ${"please ".repeat(60)}`);
  const moved = await agent.navigateTree(firstReply);
  assert.equal(moved.kind, "moved");
  await agent.prompt(`third ${"please ".repeat(60)}`);
  await agent.prompt(`fourth ${"please ".repeat(60)}`);
  assert.ok(await agent.compact(), "compacted");
  await agent.prompt("after the compaction");
  return agent;
});

for (const pi of releases()) {
  describe(`pi ${pi.version} resumes our recorded system prompt`, () => {
    test("the same tree, leaf and context, system entries and compaction included", async () => {
      const ours = await SessionManager.open(recorded.file, { readOnly: true });
      const kinds = ours.getEntries().filter((e) => e.type === "message" && e.message.role === "system").length;
      assert.equal(kinds, 3, "the first prompt, the AGENTS.md patch, and the patch on the other branch");
      const seen = piOpen(pi, recorded.file);
      const view = ourView(ours);
      if (pi === latestRelease()) assertSameView(seen, view, `pi ${pi.version} opening our file`);
      else {
        // pi 0.73 predates recorded prompts: it keeps every entry and the conversation; it has no prompt to replay.
        const talk = (v: typeof view): unknown => jsonView(v.context.messages.filter((m) => m.role !== "system"));
        assert.deepEqual(jsonView(view.entries), jsonView(seen.entries), "the entries");
        assert.equal(view.leafId, seen.leafId, "the leaf");
        assert.deepEqual(talk(view), talk(seen), "the conversation");
      }
      await ours.close();
    });
  });
}

describe(`pi ${latestRelease().version}: getCurrentSystemMessage`, () => {
  test("equals ours at the leaf (after the compaction) and at the older branch point", async () => {
    const pi = latestRelease();
    const ours = await SessionManager.open(recorded.file, { readOnly: true });
    const atLeaf = currentSystemMessage(ours.buildSessionContext().messages);
    assert.ok(atLeaf);
    assert.match(systemPromptText(atLeaf), /HERON/);
    const [, piLeaf, , piBranch] = runPi(pi, [
      { op: "open", file: recorded.file },
      { op: "systemMessage" },
      { op: "branch", id: firstReply },
      { op: "systemMessage" },
    ]) as [null, SystemMessage, null, SystemMessage];
    assert.deepEqual(jsonView(piLeaf), jsonView(atLeaf), "pi replays the prompt we sent last");
    const atBranch = systemMessageAt(ours, firstReply);
    assert.ok(atBranch);
    assert.match(systemPromptText(atBranch), /PELICAN/);
    assert.deepEqual(jsonView(piBranch), jsonView(atBranch), "and the one the first branch ran under");
    await ours.close();
  });
});
