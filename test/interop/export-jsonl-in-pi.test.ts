/**
 * `/export <file>.jsonl` against the real pi 1.6: the same session file exported by pi's own exportSessionToJsonl
 * and by ours gives the same lines (the header's timestamp, the time of the export, aside), and pi opens ours.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { serializeBranchJsonl } from "../../src/core/export/jsonl-export.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { assistant, SessionBuilder, toolResult, user } from "../util/session-builder.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { latestRelease, runPi } from "./pi.js";

const tmp = tempDirPerTest("agent-tree-export-jsonl-");

/** The file's lines, parsed, the header's timestamp set aside. */
function lines(file: string): Record<string, unknown>[] {
  const out = fs
    .readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  if (out[0]) out[0].timestamp = "(export time)";
  return out;
}

test("our JSONL export of the branch is pi's", async () => {
  const b = new SessionBuilder({ id: "sess-jsonl", cwd: "/project" }).header();
  const q = b.message(user("first"));
  b.entry("model_change", { provider: "anthropic", modelId: "claude-test" });
  const a = b.message(assistant("calling", ["bash"]));
  b.message(toolResult("out"));
  b.message(assistant("one"));
  b.label(q, "start");
  b.message(user("other branch"), { parentId: a });
  b.message(assistant("two"));
  b.entry("session_info", { name: "Exported" });
  const source = b.write(tmp.dir, "source.jsonl");

  const ours = path.join(tmp.dir, "ours.jsonl");
  const sm = await SessionManager.open(source, { sessionDir: tmp.dir, readOnly: true });
  fs.writeFileSync(ours, serializeBranchJsonl(sm));
  await sm.close();

  const theirs = path.join(tmp.dir, "pi.jsonl");
  runPi(latestRelease(), [
    { op: "open", file: source, sessionDir: tmp.dir },
    { op: "exportJsonl", file: theirs },
  ]);
  assert.deepEqual(lines(ours), lines(theirs));
  assert.equal(
    lines(ours).length,
    1 + 6,
    "the header and the branch's six entries (the first branch and its label left out)",
  );

  // pi opens ours as its own.
  const [, snap] = runPi(latestRelease(), [{ op: "open", file: ours, sessionDir: tmp.dir }, { op: "snapshot" }]) as [
    null,
    { sessionId: string; name: string | null },
  ];
  assert.equal(snap.sessionId, "sess-jsonl");
});
