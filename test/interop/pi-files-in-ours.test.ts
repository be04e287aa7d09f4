/**
 * Sessions the real pi writes through its own API (0.73.1 under the project's Node, 1.6.0 under Node 22), opened
 * by this extension: the same tree, leaf, context and labels; then we append and pi sees what we see; then pi
 * appends again and we see what pi sees. Also pi's forks (createBranchedSession).
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, test } from "node:test";
import { SessionManager } from "../../src/core/index.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import {
  piContinues,
  assertSameView,
  ourView,
  piOpen,
  releases,
  runPi,
  type PiSnapshot,
  type PiStep,
  timedMessages,
  openSameAsPi,
} from "./pi.js";

const { user, assistant } = timedMessages(Date.parse("2026-04-01T08:00:00.000Z"), {
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage: { input: 100, output: 20, totalTokens: 120 },
});

/** A branched session built with pi's API; the ids come back from the steps' results. */
function piSession(dir: string): PiStep[] {
  return [
    { op: "create", cwd: "/work/project", dir },
    { op: "model", provider: "anthropic", modelId: "claude-sonnet-4-5" }, // 1
    { op: "message", message: user("Write a CSV parser", 1) }, // 2: u1
    { op: "message", message: assistant("Here is a parser.", 2) }, // 3: a1
    { op: "message", message: user("Handle quotes", 3) }, // 4: u2
    { op: "message", message: assistant("Quotes handled.", 4) }, // 5: a2
    { op: "thinking", level: "medium" }, // 6
    { op: "custom", customType: "pi-ext/state", data: { n: 1 } }, // 7
    { op: "customMessage", customType: "pi-ext/hint", content: "Use the stdlib", display: true }, // 8
  ];
}

const tmp = tempDirPerTest("agent-tree-interop-");

for (const pi of releases()) {
  describe(`we open pi ${pi.version}'s sessions`, () => {
    test("messages, labels, a branch with a summary, a compaction: same view; then each side appends", async () => {
      const dir = path.join(tmp.dir, `pi-${pi.version}`);
      const base = piSession(dir);
      const first = runPi(pi, base);
      const file = first[0] as string;
      const [u1, a1] = [first[2] as string, first[3] as string];
      const r = runPi(pi, [
        { op: "open", file },
        { op: "label", targetId: a1, label: "first answer" },
        { op: "branchWithSummary", id: a1, summary: "Quote handling was added, then abandoned." },
        { op: "message", message: user("Stream the input instead", 5) },
        { op: "message", message: assistant("Streaming parser.", 6) },
        { op: "compaction", summary: "CSV parser, streaming.", firstKeptEntryId: a1, tokensBefore: 3000 },
        { op: "message", message: user("Add a test", 7) },
        { op: "message", message: assistant("Test added.", 8) },
        { op: "label", targetId: u1, label: "task" },
        { op: "label", targetId: a1 },
        { op: "snapshot" },
      ]);
      const piView = r.at(-1) as PiSnapshot;
      const ours = await SessionManager.open(file);
      assertSameView(piView, ourView(ours), "our view of pi's session");

      // We move back and continue; pi resumes where we are.
      ours.branch(a1);
      ours.appendMessage(user("From the extension", 10));
      ours.appendMessage(assistant("Answered in the extension.", 11));
      ours.appendLabelChange(u1, "renamed task");
      await ours.close();
      const again = await SessionManager.open(file, { readOnly: true });
      const piAfter = piOpen(pi, file);
      assertSameView(piAfter, ourView(again), "pi's view after we appended");
      await again.close();

      // And pi goes on: we see it.
      const last = piContinues(pi, file, [user("pi again", 12), assistant("Still here.", 13)]).snapshot;
      const final = await openSameAsPi(file, last, "our view after pi appended again");
      assert.ok(
        final.getPath().some((e) => e.id === a1),
        "pi went on from the branch we moved to",
      );
      await final.close();
    });

    test("pi's fork (createBranchedSession) opens here as pi sees it", async () => {
      const dir = path.join(tmp.dir, `pi-fork-${pi.version}`);
      const r = runPi(pi, piSession(dir));
      const file = r[0] as string;
      const a1 = r[3] as string;
      const forked = runPi(pi, [
        { op: "open", file },
        { op: "label", targetId: a1, label: "kept" },
        { op: "fork", leafId: a1 },
        { op: "snapshot" },
      ]);
      const forkFile = forked[2] as string;
      const piView = forked[3] as PiSnapshot;
      assert.equal(piView.file, forkFile);
      const ours = await openSameAsPi(forkFile, piView, "our view of pi's fork");
      assert.equal(ours.getLabel(a1), "kept");
      assert.equal(ours.getHeader().parentSession, file);
      await ours.close();
    });

    test("pi's fork of a named session keeps the name: here it is the name that came with the fork", async () => {
      const dir = path.join(tmp.dir, `pi-named-fork-${pi.version}`);
      const r = runPi(pi, piSession(dir));
      const file = r[0] as string;
      const a1 = r[3] as string;
      const forked = runPi(pi, [
        { op: "open", file },
        { op: "branch", id: a1 },
        { op: "sessionName", name: "Release review" }, // 2: on the path the fork copies
        { op: "fork", leafId: "$2" },
        { op: "snapshot" },
      ]);
      const forkFile = forked[3] as string;
      const piView = forked[4] as PiSnapshot;
      assert.equal(piView.name, "Release review", "pi copies the name into its fork");
      const ours = await openSameAsPi(forkFile, piView, "our view of pi's named fork");
      assert.equal(ours.getSessionName(), piView.name);
      assert.equal(ours.isSessionNameInherited(), true);
      await ours.close();
      // Named again in pi (its /name on the fork): the fork's own name from then on.
      const renamed = piContinues(pi, forkFile, [], [{ op: "sessionName", name: "Second try" }]).snapshot;
      const again = await openSameAsPi(forkFile, renamed, "pi renamed its fork");
      assert.equal(again.getSessionName(), "Second try");
      assert.equal(again.isSessionNameInherited(), false);
      await again.close();
    });
  });
}
