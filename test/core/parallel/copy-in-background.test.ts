/**
 * A branch's copy is written in the background while the branch starts (BranchCopy.ready): a tool call issued
 * before the copy is complete sees the whole copy, a stop during the copy kills git and leaves nothing, and a copy
 * that cannot be made fails its branch with a clear error. git is the real one, behind a wrapper that makes the
 * copy's `checkout-index` slow (or fail), so the branch reliably runs ahead of its files.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { BranchCopy, listBranchCopies } from "../../../src/core/parallel/branch-copy.js";
import { readBranchRuns } from "../../../src/core/parallel/branch-run-lines.js";
import { runBranch, type BranchEvent, type BranchOutcome } from "../../../src/core/parallel/branch-run.js";
import type { Exploration } from "../../../src/core/parallel/explore.js";
import type { SessionManager } from "../../../src/core/session/session-manager.js";
import { createWorkspaceTools } from "../../../src/core/tools/index.js";
import type { FakeRequestBody } from "../../util/fake-provider-common.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { newAgent, openAIModel } from "../agent/helpers.js";
import { tempWorkspacePerTest } from "../checkpoints/helpers.js";
import { exploreFromTurn, sessionWithTurn } from "./helpers.js";

const fake = fakeServerForSuite();
const t = tempWorkspacePerTest();

/**
 * An environment whose `git` is the real one, except that `checkout-index` first waits `delaySeconds` (killed
 * cleanly on SIGTERM), or fails with `failWith` when given.
 */
function gitWrapperEnv(root: string, behaviour: { delaySeconds: number } | { failWith: string }): NodeJS.ProcessEnv {
  const realGit = execFileSync("sh", ["-c", "command -v git"]).toString("utf8").trim();
  const bin = path.join(root, "git-wrapper-bin");
  fs.mkdirSync(bin, { recursive: true });
  const onCheckout =
    "delaySeconds" in behaviour
      ? `trap 'kill $! 2>/dev/null; exit 143' TERM; sleep ${behaviour.delaySeconds} & wait $!`
      : `echo ${JSON.stringify(behaviour.failWith)} >&2; exit 1`;
  fs.writeFileSync(
    path.join(bin, "git"),
    `#!/bin/sh\ncase " $* " in *" checkout-index "*) ${onCheckout};; esac\nexec ${JSON.stringify(realGit)} "$@"\n`,
    { mode: 0o755 },
  );
  return { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` };
}

/** Processes (Linux) whose working folder is under `dir`: git, or anything it started, still in a copy. */
function processesUnder(dir: string): string[] {
  if (process.platform !== "linux") return [];
  const found: string[] = [];
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    let cwd: string;
    try {
      cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      continue;
    }
    if (cwd.startsWith(dir)) found.push(`${pid} in ${cwd}`);
  }
  return found;
}

/** The last message of a request. */
function lastRole(body: FakeRequestBody): string | undefined {
  return (body.messages as { role?: string }[] | undefined)?.at(-1)?.role;
}

/** One branch from `nodeId` working in `copy` with the real workspace tools. */
function branchOnCopy(
  sm: SessionManager,
  nodeId: string,
  copy: BranchCopy,
  prompt: string,
  onEvent?: (e: BranchEvent) => void,
): Promise<BranchOutcome> {
  return runBranch({
    session: newAgent(sm).agent,
    parentId: nodeId,
    prompt,
    model: openAIModel(fake),
    kind: "explore",
    groupId: "g",
    tools: createWorkspaceTools(copy.dir),
    cwd: copy.dir,
    copy,
    ...(onEvent ? { onEvent } : {}),
  });
}

/** Two explored branches whose model calls stall, their copies' git run with `env`. */
async function twoStalledBranches(
  env: NodeJS.ProcessEnv,
): Promise<{ sm: SessionManager; copiesDir: string; exploration: Exploration }> {
  const setup = await sessionWithTurn(fake, t.root, t.ws, t.store);
  fake.setDefault(() => ({ stall: true, text: "thinking" }));
  const exploration = await exploreFromTurn(fake, t, setup, { count: 2, env });
  return { sm: setup.sm, copiesDir: path.join(t.root, "copies"), exploration };
}

describe("a branch's copy written in the background", { timeout: 120_000 }, () => {
  it("starts the branch at once; a tool call issued before the copy is complete sees the whole copy", async () => {
    const { sm, cps, nodeId, checkpointId } = await sessionWithTurn(fake, t.root, t.ws, t.store);
    const copy = await BranchCopy.materialize({
      folder: t.ws,
      storeDir: cps.engine(t.ws)!.storeDir,
      checkpointId,
      copiesDir: path.join(t.root, "copies"),
      env: gitWrapperEnv(t.root, { delaySeconds: 2 }),
    });
    const completeWhenAsked: boolean[] = [];
    fake.setDefault((body) => {
      completeWhenAsked.push(copy.complete);
      if (lastRole(body) === "tool") return { text: "read it" };
      return { text: "Reading.", toolCalls: [{ name: "read", args: { path: "lib/util.txt" } }] };
    });
    const completeAtToolStart: boolean[] = [];
    const outcome = await branchOnCopy(sm, nodeId, copy, "read lib/util.txt", (e) => {
      if (e.type === "tool_execution_start") completeAtToolStart.push(copy.complete);
    });
    assert.equal(outcome.state, "done", outcome.error);
    assert.deepEqual(completeWhenAsked, [false, true], "the first request went out before the copy was complete");
    assert.deepEqual(completeAtToolStart, [false], "the tool call was issued before the copy was complete");
    const toolResult = sm
      .getEntries()
      .map((e) => (e.type === "message" ? e.message : undefined))
      .find((m) => m?.role === "toolResult");
    assert.ok(toolResult?.role === "toolResult");
    assert.equal(toolResult.isError, false, JSON.stringify(toolResult.content));
    assert.deepEqual(
      toolResult.content.map((c) => (c.type === "text" ? c.text.trim() : c.type)),
      ["util"],
      "the read saw the file the copy was still writing",
    );
    assert.equal(fs.readFileSync(path.join(copy.dir, "app.txt"), "utf8"), "original\n");
    await copy.remove();
    assert.equal(fs.existsSync(copy.root), false);
    await sm.close();
  });

  it("copies started together are written one after another, so the first branch gets its files first", async () => {
    const { sm, cps, checkpointId } = await sessionWithTurn(fake, t.root, t.ws, t.store);
    const where = {
      folder: t.ws,
      storeDir: cps.engine(t.ws)!.storeDir,
      checkpointId,
      copiesDir: path.join(t.root, "copies"),
    };
    const first = await BranchCopy.materialize({ ...where, env: gitWrapperEnv(t.root, { delaySeconds: 1 }) });
    const second = await BranchCopy.materialize({ ...where, after: first.ready });
    const order: string[] = [];
    await Promise.all([first.ready.then(() => order.push("first")), second.ready.then(() => order.push("second"))]);
    assert.deepEqual(order, ["first", "second"], "the second copy (a fast git) waited for the first (a slow one)");
    assert.equal(fs.readFileSync(path.join(second.dir, "lib", "util.txt"), "utf8"), "util\n");
    await Promise.all([first.remove(), second.remove()]);
    assert.deepEqual(await listBranchCopies(where.copiesDir), []);
    await sm.close();
  });

  it("a stop during the copy kills git and leaves no folder behind", async () => {
    const { sm, copiesDir, exploration } = await twoStalledBranches(gitWrapperEnv(t.root, { delaySeconds: 30 }));
    // Both copies exist; the first one's git is still writing (the wrapper waits), the second waits its turn; the
    // branches run meanwhile.
    assert.equal((await listBranchCopies(copiesDir)).length, 2);
    assert.ok(exploration.branches.every((b) => !b.copy.complete));
    for (let i = 0; i < 200 && processesUnder(copiesDir).length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    if (process.platform === "linux") assert.notDeepEqual(processesUnder(copiesDir), [], "git runs in the first copy");
    exploration.stopAll();
    const outcomes = await exploration.done;
    assert.deepEqual(
      outcomes.map((o) => o.state),
      ["stopped", "stopped"],
    );
    assert.deepEqual(await listBranchCopies(copiesDir), [], "no copy folder is left");
    assert.deepEqual(processesUnder(copiesDir), [], "no git process is left in a copy");
    for (const b of exploration.branches)
      await assert.rejects(b.copy.ready, /removed before all its files were written/);
    await sm.close();
  });

  it("a checkpoint that is not there fails the branch with a clear error, and leaves no copy", async () => {
    const { sm, cps, nodeId } = await sessionWithTurn(fake, t.root, t.ws, t.store);
    fake.setDefault(() => ({ text: "Listing.", toolCalls: [{ name: "ls", args: {} }], chunkDelayMs: 20 }));
    const missing = "0123456789abcdef0123456789abcdef01234567";
    const copy = await BranchCopy.materialize({
      folder: t.ws,
      storeDir: cps.engine(t.ws)!.storeDir,
      checkpointId: missing,
      copiesDir: path.join(t.root, "copies"),
    });
    const outcome = await branchOnCopy(sm, nodeId, copy, "list");
    assert.equal(outcome.state, "failed");
    assert.match(outcome.error ?? "", /branch's copy of .* \(checkpoint 0123456789ab\) could not be made/);
    assert.equal(readBranchRuns(sm).get(outcome.branchId as string)?.state, "failed");
    assert.equal(fs.existsSync(copy.root), false, "the failed copy is removed");
    await sm.close();
  });

  it("a copy git cannot write fails its branches with git's reason; nothing is left", async () => {
    const { sm, copiesDir, exploration } = await twoStalledBranches(
      gitWrapperEnv(t.root, { failWith: "fatal: unable to write new file: No space left on device" }),
    );
    const outcomes = await exploration.done;
    for (const o of outcomes) {
      assert.equal(o.state, "failed");
      assert.match(o.error ?? "", /could not be made: .*No space left on device/s);
    }
    const runs = readBranchRuns(sm);
    assert.deepEqual(
      outcomes.map((o) => runs.get(o.branchId as string)?.state),
      ["failed", "failed"],
    );
    assert.deepEqual(await listBranchCopies(copiesDir), []);
    await sm.close();
  });
});
