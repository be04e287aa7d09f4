/**
 * Sessions this extension writes, opened by the real pi (0.73.1 under the project's Node, 1.6.0 under Node 22):
 * the same tree, leaf, context and labels; then pi appends and we see what pi sees; then we append and pi sees
 * what we see. Branches, labels, summaries, compactions, leaf moves, forks and a torn last line.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import { emptyUsage, SessionManager, type AgentMessage } from "../../src/core/index.js";
import { assistant, toolResult, user } from "../util/session-builder.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { assertSameView, ourView, piContinues, piOpen, releases, openSameAsPi } from "./pi.js";

const T0 = Date.parse("2026-03-01T10:00:00.000Z");
const ask = (text: string, n: number): AgentMessage => user(text, T0 + n);
const reply = (text: string, n: number, call?: string): AgentMessage =>
  assistant(text, call ? [{ id: call, name: "read", args: { path: "src/a.ts" } }] : [], {
    provider: "openai",
    model: "gpt-4.1",
    usage: { ...emptyUsage(), input: 10, output: 5, totalTokens: 15 },
    timestamp: T0 + n,
  });
const readResult = (call: string): AgentMessage => toolResult("export const a = 1;", "read", call);

/** A session with every kind of move this extension makes. Returns its file and some ids. */
async function writeBranchedSession(dir: string): Promise<{ file: string; ids: Record<string, string> }> {
  const sm = await SessionManager.create("/work/project", dir);
  const u1 = sm.appendMessage(ask("Add a config loader", 1));
  const a1 = sm.appendMessage(reply("Reading the code first.", 2, "call_1"));
  sm.appendMessage(readResult("call_1"));
  const a2 = sm.appendMessage(reply("Approach A: a JSON file.", 4));
  sm.appendLabelChange(a1, "start");
  sm.appendModelChange("anthropic", "claude-sonnet");
  sm.appendThinkingLevelChange("high");
  const u2 = sm.appendMessage(ask("Go with A", 5));
  sm.appendMessage(reply("Done with A.", 6));
  // Back to a2 and another way, leaving a summary of A.
  sm.branchWithSummary(a2, "Tried approach A: JSON config, works but verbose.");
  const u3 = sm.appendMessage(ask("Try YAML instead", 7));
  const a3 = sm.appendMessage(reply("YAML loader written.", 8));
  sm.appendCustomEntry("my-ext/state", { step: 3 });
  sm.appendCustomMessageEntry("my-ext/note", "Remember the tests", true);
  sm.appendCompaction("Config loader: JSON tried, YAML chosen.", u3, 4200, { readFiles: ["src/a.ts"] });
  sm.appendMessage(ask("Now add tests", 9));
  const a4 = sm.appendMessage(reply("Tests added.", 10));
  sm.appendLabelChange(u3, "yaml");
  sm.appendLabelChange(a1, undefined);
  // A leaf move with nothing after it: pi must resume there too.
  sm.branch(a3);
  await sm.close();
  return { file: sm.getSessionFile() as string, ids: { u1, a1, a2, u2, u3, a3, a4 } };
}

const tmp = tempDirPerTest("agent-tree-interop-");

for (const pi of releases()) {
  describe(`pi ${pi.version} opens our sessions`, () => {
    test("branches, labels, summaries, a compaction, a leaf move: same tree, leaf, context, labels", async () => {
      const dir = path.join(tmp.dir, `branched-${pi.version}`);
      const { file, ids } = await writeBranchedSession(dir);
      const ours = await SessionManager.open(file, { readOnly: true });
      assert.equal(ours.getLeafId(), ids.a3);
      assertSameView(piOpen(pi, file), ourView(ours), "pi opening our file");
      await ours.close();

      // pi continues from where it resumed; we see what pi sees.
      const { results, snapshot: after } = piContinues(
        pi,
        file,
        [ask("From pi: rename the loader", 20), reply("Renamed.", 21)],
        [{ op: "label", targetId: ids.u2, label: "json" }],
      );
      const piUser = results[0] as string;
      const reopened = await SessionManager.open(file);
      assertSameView(after, ourView(reopened), "our view after pi appended");
      // pi's entry hangs off our leaf marker, which names a3: pi went on from the leaf we moved to.
      const piPath = reopened.getPath(piUser).map((e) => e.id);
      assert.ok(piPath.includes(ids.a3) && !piPath.includes(ids.a4));

      // We move and append; pi sees the same.
      reopened.branch(ids.a4);
      reopened.appendMessage(ask("Back on the tests branch", 30));
      reopened.branchWithSummary(ids.u1, "Explored JSON and YAML loaders.");
      reopened.resetLeaf();
      await reopened.close();
      const again = await openSameAsPi(file, piOpen(pi, file), "pi after our moves (ending with a reset)");
      assert.equal(again.getLeafId(), null);
      await again.close();
    });

    test("a fork (createBranchedSession) opens in pi as the path we forked, with its labels", async () => {
      const dir = path.join(tmp.dir, `fork-${pi.version}`);
      const { file, ids } = await writeBranchedSession(dir);
      const sm = await SessionManager.open(file, { readOnly: true });
      const fork = (await sm.createBranchedSession(ids.a4)) as string;
      await sm.close();
      const ours = await SessionManager.open(fork, { readOnly: true });
      assert.equal(ours.getHeader().parentSession, file);
      assert.equal(ours.getLabel(ids.u3), "yaml");
      const piView = piOpen(pi, fork);
      assertSameView(piView, ourView(ours), "pi opening our fork");
      await ours.close();
    });

    test("our fork of a named session keeps the name, as pi's fork does: pi reads it", async () => {
      const dir = path.join(tmp.dir, `named-fork-${pi.version}`);
      const { file } = await writeBranchedSession(dir);
      const sm = await SessionManager.open(file);
      sm.appendSessionInfo("Config loader");
      const fork = (await sm.createBranchedSession(sm.getLeafId())) as string;
      await sm.close();
      const ours = await SessionManager.open(fork, { readOnly: true });
      assert.equal(ours.getSessionName(), "Config loader");
      assert.equal(ours.isSessionNameInherited(), true);
      const piView = piOpen(pi, fork);
      assert.equal(piView.name, "Config loader");
      assertSameView(piView, ourView(ours), "pi opening our named fork");
      await ours.close();
    });

    test("a torn last line: pi and we skip it; after pi appends we see pi's entries; it is reported", async () => {
      const dir = path.join(tmp.dir, `torn-${pi.version}`);
      const { file, ids } = await writeBranchedSession(dir);
      // A crash mid-append: half of a line, no newline.
      const line = JSON.stringify({
        type: "message",
        id: "deadbeef",
        parentId: ids.a3,
        timestamp: new Date(T0 + 40).toISOString(),
        message: ask("this write was cut", 40),
      });
      const tornLine = fs.readFileSync(file, "utf8").split("\n").length;
      fs.appendFileSync(file, line.slice(0, 60));
      const ours = await SessionManager.open(file, { readOnly: true });
      assert.equal(ours.getLoadIssues()[0]?.torn, true);
      assertSameView(piOpen(pi, file), ourView(ours), "pi opening a file with a torn last line");
      await ours.close();

      const after = piContinues(pi, file, [ask("From pi after the crash", 41), reply("Continuing.", 42)]).snapshot;
      // pi 1.5 ends the torn line before appending; pi 0.73 appends right after it, gluing its first entry to the
      // torn bytes. Either way we read every entry pi wrote, and report the damaged line.
      const reopened = await openSameAsPi(file, after, "our view after pi appended to a torn file");
      assert.ok(
        reopened.getLoadIssues().some((i) => i.line === tornLine),
        "the damaged line is reported",
      );
      await reopened.close();
    });
  });
}
