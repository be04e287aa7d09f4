/** Shared set-up of the parallel-branch tests: a workspace with checkpoints, a session with one turn, fake replies. */
import fs from "node:fs";
import type { TestContext } from "node:test";
import path from "node:path";
import { TurnCheckpoints, WorkspaceCheckpoints, findCheckpointForEntry } from "../../../src/core/checkpoints/index.js";
import { exploreInParallel, type BranchTools, type Exploration } from "../../../src/core/parallel/explore.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { findSandbox } from "../../../src/core/tools/sandbox.js";
import type { FakeReply, FakeRequestBody } from "../../util/fake-provider-common.js";
import type { FakeServer } from "../../util/fake-provider-common.js";
import { newAgent, openAIModel } from "../agent/helpers.js";
import { writeFiles } from "../checkpoints/helpers.js";

/** The text of every message of an OpenAI request. */
export function requestTexts(body: FakeRequestBody): string[] {
  const messages = Array.isArray(body.messages) ? (body.messages as { content?: unknown }[]) : [];
  return messages.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? "")));
}

/** The last message of an OpenAI request. */
function lastMessage(body: FakeRequestBody): { role?: string; content?: unknown } | undefined {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: string; content?: unknown }[]) : [];
  return messages.at(-1);
}

/**
 * Replies for explore runs: a request ending in a user message whose text has `marker` gets a `write` of
 * `app.txt` with a content of its own ("branch 1", "branch 2", … in the order the requests came); a request
 * ending in a tool result gets a final answer; anything else a plain answer.
 */
export function exploreReplies(
  marker: string,
  delayMs = 5,
): { reply: (body: FakeRequestBody) => FakeReply; contents: string[] } {
  const contents: string[] = [];
  const reply = (body: FakeRequestBody): FakeReply => {
    const last = lastMessage(body);
    if (last?.role === "tool") return { text: `Finished: ${String(last.content).slice(0, 60)}`, chunkDelayMs: delayMs };
    if (last?.role === "user" && JSON.stringify(last.content).includes(marker)) {
      const content = `branch ${contents.length + 1}\n`;
      contents.push(content);
      return {
        text: "Writing it.",
        toolCalls: [{ name: "write", args: { path: "app.txt", content } }],
        chunkDelayMs: delayMs,
      };
    }
    return { text: `Plain answer to: ${JSON.stringify(last?.content ?? "").slice(0, 60)}`, chunkDelayMs: delayMs };
  };
  return { reply, contents };
}

/** A session over `ws` with checkpoints, one finished turn, and the node that turn ended on with its checkpoint. */
export async function sessionWithTurn(
  fake: FakeServer,
  root: string,
  ws: string,
  store: string,
): Promise<{
  sm: SessionManager;
  cps: WorkspaceCheckpoints;
  agent: ReturnType<typeof newAgent>["agent"];
  nodeId: string;
  checkpointId: string;
}> {
  writeFiles(ws, { "app.txt": "original\n", "lib/util.txt": "util\n" });
  const sessions = path.join(root, "sessions");
  fs.mkdirSync(sessions, { recursive: true });
  const sm = await SessionManager.create(ws, sessions);
  const cps = await WorkspaceCheckpoints.open({ folders: [ws], storageDir: store });
  const { agent } = newAgent(sm, {
    cwd: ws,
    model: openAIModel(fake),
    tools: undefined,
    checkpoints: new TurnCheckpoints(cps),
  });
  await agent.prompt("hello");
  const nodeId = sm.getLeafId() as string;
  const found = findCheckpointForEntry(sm, nodeId, ws);
  if (!found) throw new Error("the first turn has a checkpoint");
  return { sm, cps, agent, nodeId, checkpointId: found.ref.checkpointId };
}

/**
 * Explore in Parallel from the node of `sessionWithTurn` with the real workspace tools: `count` branches asked
 * "go" (or `prompt`), copies under `<root>/copies` (a 64 MiB cap unless `capBytes`), git run with `env` when given.
 */
export function exploreFromTurn(
  fake: FakeServer,
  where: { root: string; ws: string },
  setup: Awaited<ReturnType<typeof sessionWithTurn>>,
  options: { count: number; env?: NodeJS.ProcessEnv; tools?: BranchTools; capBytes?: number; prompt?: string },
): Promise<Exploration> {
  return exploreInParallel({
    session: setup.agent,
    parentId: setup.nodeId,
    prompt: options.prompt ?? "go",
    count: options.count,
    models: [openAIModel(fake)],
    isolation: {
      folder: where.ws,
      storeDir: setup.cps.engine(where.ws)!.storeDir,
      checkpointId: setup.checkpointId,
      copiesDir: path.join(where.root, "copies"),
      capBytes: options.capBytes ?? 64 * 1024 * 1024,
      ...(options.env ? { env: options.env } : {}),
    },
    ...(options.tools ? { tools: options.tools } : {}),
  });
}

/** The sandbox of this machine, or the test skipped with the reason. */
export async function sandboxOr(tc: TestContext): Promise<{ bwrap: string } | undefined> {
  const probe = await findSandbox();
  if (!probe.available) {
    tc.skip(`no working sandbox here: ${probe.reason}`);
    return undefined;
  }
  return { bwrap: probe.bwrap };
}
