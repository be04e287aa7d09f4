/**
 * The real pi (0.73.1 and 1.6.0, its own SessionManager in a child process) appends to a session this extension
 * holds open, as pi in a terminal beside the sidebar does: we take its entries in without reopening
 * (refreshFromDisk), write on from there, and pi, opening the file afterwards, sees every entry of both with
 * the same tree, leaf and context as ours.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, test } from "node:test";
import { SessionManager } from "../../src/core/index.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { assertSameView, ourView, piContinues, piOpen, releases, runPi, timedMessages } from "./pi.js";

const { user, assistant } = timedMessages(Date.parse("2026-05-01T09:00:00.000Z"), {
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage: { input: 50, output: 10, totalTokens: 60 },
});

const tmp = tempDirPerTest("agent-tree-follow-");

for (const pi of releases()) {
  describe(`pi ${pi.version} appends to a session we hold open`, () => {
    for (const readOnly of [false, true])
      test(`we follow its entries (${readOnly ? "a read-only view" : "the writer"}), and pi sees ours after them`, async () => {
        const dir = path.join(tmp.dir, `pi-${pi.version}-${readOnly ? "ro" : "rw"}`);
        const created = runPi(pi, [
          { op: "create", cwd: "/work/project", dir },
          { op: "message", message: user("Start here", 1) },
          { op: "message", message: assistant("Started.", 2) },
        ]);
        const file = created[0] as string;
        const ours = await SessionManager.open(file, { readOnly });
        try {
          const before = ours.getEntryCount();
          // pi opens the file anew, appends two messages (appendFileSync, no lock), and exits.
          const { results } = piContinues(pi, file, [user("From the terminal", 3), assistant("Answered there.", 4)]);
          const piIds = results.slice(0, 2) as string[];
          const r = ours.refreshFromDisk();
          assert.equal(r.replaced, false);
          assert.deepEqual(
            r.added.map((e) => e.id),
            piIds,
          );
          assert.equal(r.followed, true, "its entries continue from our leaf: the leaf follows");
          assert.equal(ours.getEntryCount(), before + 2);
          assert.equal(ours.getLeafId(), piIds[1]);
          assertSameView(piOpen(pi, file), ourView(ours), "after pi's append");
          if (!readOnly) {
            ours.appendMessage(user("Back in the sidebar", 5));
            ours.appendMessage(assistant("Continued here.", 6));
            await ours.flush();
            const seen = piOpen(pi, file);
            assert.equal(seen.entries.length, before + 4, "pi sees every entry of both");
            assertSameView(seen, ourView(ours), "after ours");
          }
        } finally {
          await ours.close();
        }
        const fresh = await SessionManager.open(file, { readOnly: true });
        try {
          assert.deepEqual(fresh.getLoadIssues(), []);
          assertSameView(piOpen(pi, file), ourView(fresh), "a fresh open");
        } finally {
          await fresh.close();
        }
      });
  });
}
