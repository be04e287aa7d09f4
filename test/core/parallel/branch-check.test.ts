/**
 * A check per branch (docs/parallel.md): its record (a custom entry off the checked row that pi's context ignores,
 * the newest per branch, a cut-off one read as stopped), the ranking (passing first, then fewer changed lines, then
 * cost), a passing, a failing and a hanging check (killed at the limit, recorded as timed out), the output's tail
 * capped and key-redacted, and a check in an explored branch's copy that cannot touch the workspace (real bwrap;
 * skipped with the reason where it does not work here).
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { emptyUsage } from "../../../src/core/messages.js";
import {
  BRANCH_CHECK_TYPE,
  checkHoverText,
  readBranchChecks,
  type BranchCheckData,
} from "../../../src/core/parallel/branch-check.js";
import { branchCost, rankBranches, type RankedBranch } from "../../../src/core/parallel/branch-ranking.js";
import {
  CHECK_TAIL_LINES,
  defaultCheckCommand,
  liveCheckIds,
  runBranchCheck,
} from "../../../src/core/parallel/check-runner.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { assistant, user } from "../../util/session-builder.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { read, tempWorkspacePerTest } from "../checkpoints/helpers.js";
import { exploreFromTurn, exploreReplies, sessionWithTurn, sandboxOr } from "./helpers.js";

const tmp = tempDirPerTest();

/** A session with a main turn and one branch (prompt, answer) off its user message; the copy and workspace dirs. */
async function branchSession(): Promise<{
  sm: SessionManager;
  branchId: string;
  tipId: string;
  copy: string;
  ws: string;
}> {
  const sm = await SessionManager.create(tmp.dir, path.join(tmp.dir, "sessions"));
  const u1 = sm.appendMessage(user("main"));
  sm.appendMessage(assistant("main answer"));
  const branchId = sm.appendMessageAt(u1, user("branch prompt"));
  const tipId = sm.appendMessageAt(branchId, assistant("branch answer"));
  const copy = path.join(tmp.dir, "copy", "files");
  const ws = path.join(tmp.dir, "ws");
  fs.mkdirSync(copy, { recursive: true });
  fs.mkdirSync(ws, { recursive: true });
  return { sm, branchId, tipId, copy, ws };
}

function checkOptions(s: Awaited<ReturnType<typeof branchSession>>, command: string, timeoutSeconds = 30) {
  return {
    sessionManager: s.sm,
    branchId: s.branchId,
    rowId: s.tipId,
    command,
    cwd: s.copy,
    folder: s.ws,
    timeoutSeconds,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
  };
}

describe("a branch's check: the record", () => {
  it("is a custom entry off the checked row that pi's context ignores; the newest per branch wins; the leaf stays", async () => {
    const s = await branchSession();
    const leaf = s.sm.getLeafId();
    const first = await runBranchCheck({ ...checkOptions(s, "echo one; exit 3"), changedLines: 7 });
    assert.equal(first.state, "failed");
    assert.equal(first.exitCode, 3);
    assert.equal(first.rowId, s.tipId);
    assert.equal(first.changedLines, 7);
    assert.match(first.output ?? "", /one/);
    const again = await runBranchCheck(checkOptions(s, "echo two"));
    assert.equal(again.state, "passed");
    assert.equal(s.sm.getLeafId(), leaf, "the user's leaf did not move");
    const lines = fs
      .readFileSync(s.sm.getSessionFile() as string, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; customType?: string; parentId?: string; data?: BranchCheckData });
    const records = lines.filter((l) => l.customType === BRANCH_CHECK_TYPE);
    assert.deepEqual(
      records.map((r) => r.data?.state),
      ["running", "failed", "running", "passed"],
      "a running record, then the outcome, for each run",
    );
    assert.ok(records.every((r) => r.type === "custom" && r.parentId === s.tipId));
    // Read again from the file, as a reload (or another window) reads it.
    const reopened = await SessionManager.open(s.sm.getSessionFile() as string, { readOnly: true });
    try {
      const checks = readBranchChecks(reopened);
      assert.equal(checks.get(s.branchId)?.state, "passed", "the newest check of the branch");
      assert.equal(checks.get(s.branchId)?.command, "echo two");
      const context = JSON.stringify(reopened.buildSessionContextAt(s.tipId).messages);
      assert.ok(!context.includes("echo two") && !context.includes(BRANCH_CHECK_TYPE), "not in the model's context");
    } finally {
      await reopened.close();
    }
    await s.sm.close();
  });

  it("a running record that no check of this process ends reads as stopped (the window was closed)", async () => {
    const s = await branchSession();
    let runningId = "";
    const done = runBranchCheck({ ...checkOptions(s, "sleep 0.5"), onStart: (id) => (runningId = id) });
    await new Promise((r) => setTimeout(r, 100));
    const runId = readBranchChecks(s.sm, liveCheckIds()).get(s.branchId)?.runId as string;
    assert.equal(readBranchChecks(s.sm, liveCheckIds()).get(s.branchId)?.entryId, runningId);
    assert.ok(liveCheckIds().has(runId));
    assert.equal(readBranchChecks(s.sm, liveCheckIds()).get(s.branchId)?.state, "running");
    assert.equal(readBranchChecks(s.sm).get(s.branchId)?.state, "stopped", "not live: cut off");
    assert.equal((await done).state, "passed");
    assert.ok(!liveCheckIds().has(runId));
    await s.sm.close();
  });

  it("keeps only the tail of the output, with known keys redacted, and the hover shows it", async () => {
    const s = await branchSession();
    const key = "sk-test-0123456789abcdefghijklmnop";
    const record = await runBranchCheck({
      ...checkOptions(s, `for i in $(seq 1 500); do echo "line $i"; done; echo "key ${key}"; exit 1`),
      secretValues: () => [key],
    });
    const output = record.output ?? "";
    assert.ok(!output.includes(key), "the key is redacted");
    assert.match(output, /key \[redacted\]/);
    assert.match(output, /line 500/);
    assert.ok(!output.includes("line 1\n"), "the head is dropped");
    assert.ok(output.split("\n").length <= CHECK_TAIL_LINES);
    const hover = checkHoverText(record);
    assert.match(hover, /^Check `for i in/);
    assert.match(hover, /failed \(exit 1/);
    assert.match(hover, /key \[redacted\]$/);
    await s.sm.close();
  });
});

describe("a branch's check: failing and hanging", { timeout: 60_000 }, () => {
  it("a failing command is recorded as failed with its exit code", async () => {
    const s = await branchSession();
    const record = await runBranchCheck(checkOptions(s, "echo broken >&2; exit 2"));
    assert.equal(record.state, "failed");
    assert.equal(record.exitCode, 2);
    assert.match(record.output ?? "", /broken/);
    assert.equal(typeof record.durationMs, "number");
    await s.sm.close();
  });

  it("a hanging command is killed at the limit, with what it started, and recorded as timed out", async () => {
    const s = await branchSession();
    const pidFile = path.join(s.copy, "child.pid");
    const record = await runBranchCheck(
      checkOptions(s, `echo started; sleep 60 & echo $! > ${JSON.stringify(pidFile)}; wait`, 1),
    );
    assert.equal(record.state, "timedOut");
    assert.equal(record.exitCode, null);
    assert.match(record.output ?? "", /started/);
    assert.match(checkHoverText(record), /timed out after 1 s/);
    const child = Number(fs.readFileSync(pidFile, "utf8"));
    assert.ok(child > 0);
    const alive = (): boolean => {
      try {
        process.kill(child, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(alive(), false, "the command's own child was killed with it");
    await s.sm.close();
  });

  it("an empty command is refused", async () => {
    const s = await branchSession();
    await assert.rejects(runBranchCheck(checkOptions(s, "   ")), /needs a command/);
    await s.sm.close();
  });
});

describe("the ranking", () => {
  const b = (number: number, fields: Partial<RankedBranch>): RankedBranch => ({
    branchId: `b${number}`,
    number,
    run: "done",
    changedLines: 10,
    cost: 0.01,
    ...fields,
  });

  it("puts passing first, then fewer changed lines, then lower cost", () => {
    const ranked = rankBranches([
      b(1, { check: "failed", changedLines: 1, cost: 0 }),
      b(2, { check: "passed", changedLines: 30, cost: 0.001 }),
      b(3, { check: "passed", changedLines: 5, cost: 0.5 }),
      b(4, { check: "passed", changedLines: 5, cost: 0.2 }),
      b(5, { check: "timedOut", changedLines: 0 }),
    ]);
    assert.deepEqual(
      ranked.map((r) => r.number),
      [4, 3, 2, 5, 1],
    );
  });

  it("without checks: a finished branch before a failed one, then lines, cost and branch order", () => {
    const ranked = rankBranches([
      b(1, { run: "failed", changedLines: 0 }),
      b(2, { changedLines: 3, cost: 0.1 }),
      b(3, { changedLines: 3, cost: 0.1 }),
      b(4, { changedLines: 2, cost: 0.9 }),
    ]);
    assert.deepEqual(
      ranked.map((r) => r.number),
      [4, 2, 3, 1],
    );
    assert.deepEqual(
      rankBranches([b(1, { check: "stopped" }), b(2, {})]).map((r) => r.number),
      [2, 1],
      "a branch without a check before one whose check did not pass",
    );
  });

  it("a branch's cost is the sum of its replies', nothing of the main branch", async () => {
    const sm = await SessionManager.create(tmp.dir, path.join(tmp.dir, "sessions"));
    const usage = (total: number) => ({ ...emptyUsage(), cost: { ...emptyUsage().cost, total } });
    const u1 = sm.appendMessage(user("main"));
    sm.appendMessage(assistant("main", [], { usage: usage(5) }));
    const branch = sm.appendMessageAt(u1, user("branch"));
    const a = sm.appendMessageAt(branch, assistant("one", [], { usage: usage(0.25) }));
    sm.appendMessageAt(a, assistant("two", [], { usage: usage(0.5) }));
    assert.equal(branchCost(sm, branch), 0.75);
    await sm.close();
  });
});

const fake = fakeServerForSuite();
const t = tempWorkspacePerTest();

describe("a check in an explored branch's copy", { timeout: 120_000 }, () => {
  it("runs in the copy and cannot touch the workspace, even by its absolute path", async (tc) => {
    const sandbox = await sandboxOr(tc);
    if (!sandbox) return;
    const setup = await sessionWithTurn(fake, t.root, t.ws, t.store);
    fake.setDefault(exploreReplies("go").reply);
    const exploration = await exploreFromTurn(fake, t, setup, { count: 2 });
    const outcomes = await exploration.done;
    const target = path.join(t.ws, "app.txt");
    for (const [i, branch] of exploration.branches.entries()) {
      const outcome = outcomes[i];
      assert.equal(outcome.state, "done");
      const record = await runBranchCheck({
        sessionManager: setup.sm,
        branchId: outcome.branchId as string,
        rowId: outcome.tipId as string,
        command:
          `echo pwned > ${target}; echo "workspace: $?"; rm -f ${path.join(t.ws, "lib", "util.txt")}; ` +
          `cat ${target} || echo "cannot read it"; grep -q branch app.txt && touch ok.txt`,
        cwd: branch.copy.dir,
        folder: t.ws,
        timeoutSeconds: 30,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
        sandbox: { ...sandbox, network: false },
      });
      assert.equal(record.state, "passed", record.output);
      assert.equal(record.sandboxed, true);
      assert.match(record.output ?? "", /workspace: [1-9]/);
      assert.match(record.output ?? "", /cannot read it/);
      assert.ok(fs.existsSync(path.join(branch.copy.dir, "ok.txt")), "it ran in the branch's copy");
    }
    assert.equal(read(t.ws, "app.txt"), "original\n", "the workspace file is untouched");
    assert.equal(read(t.ws, "lib/util.txt"), "util\n");
    assert.ok(!fs.existsSync(path.join(t.ws, "ok.txt")));
    assert.equal(readBranchChecks(setup.sm).size, 2);
    await setup.sm.close();
  });
});

describe("the check proposed", () => {
  it("is the setting, else npm test for a package.json test script, else none", () => {
    const pkg = (test?: string): string => JSON.stringify({ name: "x", scripts: test ? { test } : {} });
    assert.equal(defaultCheckCommand(" make check ", pkg("node --test")), "make check");
    assert.equal(defaultCheckCommand("", pkg("node --test")), "npm test");
    assert.equal(defaultCheckCommand("", pkg('echo "Error: no test specified" && exit 1')), "", "npm's placeholder");
    assert.equal(defaultCheckCommand("", pkg()), "");
    assert.equal(defaultCheckCommand("", undefined), "");
    assert.equal(defaultCheckCommand("", "{ not json"), "");
  });
});
