/**
 * A session with real checkpoints for host tests, built without a model: the real engine (git in a temp folder)
 * records the files at the moments AgentSession's hook would, and the messages are appended by hand.
 *
 *   cp0 (prompt-start: a.txt = v0)
 *   ├─ u1 "write A" → a1 → r1 (write: a.txt = A1, b.txt = B) → cpA (after-tools) → f1 "done A"
 *   └─ u2 "write B" → a2 → r2 (write: a.txt = B1)            → cpB (after-tools) → f2 "done B"   ← leaf
 *
 * With `multiRoot`, a second workspace folder `other/` holds c.txt: c0 at cp0, cA after turn A, c0 on branch B.
 */
import fs from "node:fs";
import path from "node:path";
import { AgentSession } from "../../src/core/agent/agent-session.js";
import { TurnCheckpoints, WorkspaceCheckpoints, type RestoreFileSystem } from "../../src/core/checkpoints/index.js";
import { testModels } from "../util/test-models.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { tempWorkspace, writeFiles } from "../core/checkpoints/helpers.js";
import { assistant } from "../util/session-builder.js";
import {
  runNavigateFlow,
  type FilesFollow,
  type NavigateMode,
  type NavigateOutcome,
} from "../../src/host/tree/navigate-flow.js";
import { FakeNavigateUi } from "./fake-navigate-ui.js";

/** The built session and everything around it; `cleanup()` removes the temp folders. */
export interface CheckpointSession {
  ws: string;
  /** The second folder (multiRoot), else undefined. */
  other: string | undefined;
  store: string;
  root: string;
  sm: SessionManager;
  checkpoints: WorkspaceCheckpoints;
  agent: AgentSession;
  ids: Record<"cp0" | "u1" | "r1" | "f1" | "u2" | "r2" | "f2", string>;
  /** The text of a workspace file, or undefined when it is missing. */
  read(rel: string): string | undefined;
  cleanup(): void;
}

/** One turn that writes `files` (absolute path → text) through a "tool call", recorded as AgentSession does. */
async function writeTurn(
  sm: SessionManager,
  turns: TurnCheckpoints,
  prompt: string,
  files: Record<string, string>,
): Promise<{ user: string; result: string; final: string }> {
  await turns.record("prompt-start", sm);
  const user = sm.appendMessage({ role: "user", content: prompt, timestamp: Date.now() });
  sm.appendMessage(
    assistant(
      `Writing ${Object.keys(files)
        .map((f) => path.basename(f))
        .join(", ")}.`,
    ),
  );
  writeFiles("/", files);
  const result = sm.appendMessage({
    role: "toolResult",
    toolCallId: `call-${user}`,
    toolName: "write",
    content: [{ type: "text", text: "written" }],
    isError: false,
    timestamp: Date.now(),
  });
  await turns.record("after-tools", sm);
  const final = sm.appendMessage(assistant(`done: ${prompt}`));
  return { user, result, final };
}

/** Builds the session of the file comment. `extraFolders` become more workspace folders (multi-root). */
export async function checkpointSession(
  options: { multiRoot?: boolean; restoreFs?: RestoreFileSystem } = {},
): Promise<CheckpointSession> {
  const t = tempWorkspace();
  const other = options.multiRoot ? path.join(t.root, "other") : undefined;
  const ws = (rel: string): string => path.join(t.ws, rel);
  writeFiles(t.ws, { "a.txt": "v0\n", "notes.md": "notes\n" });
  if (other) writeFiles(other, { "c.txt": "c0\n" });
  const checkpoints = await WorkspaceCheckpoints.open({
    folders: other ? [t.ws, other] : [t.ws],
    storageDir: t.store,
    ...(options.restoreFs ? { restoreFs: options.restoreFs } : {}),
  });
  const turns = new TurnCheckpoints(checkpoints);
  const sm = SessionManager.inMemory(t.ws);
  const a = await writeTurn(sm, turns, "write A", {
    [ws("a.txt")]: "A1\n",
    [ws("b.txt")]: "B\n",
    ...(other ? { [path.join(other, "c.txt")]: "cA\n" } : {}),
  });
  const cp0 = sm.getEntry(a.user)?.parentId;
  if (!cp0) throw new Error("the first prompt-start checkpoint entry is missing");
  // Branch B starts where branch A did, with the files as they were there.
  fs.rmSync(ws("b.txt"));
  writeFiles("/", { [ws("a.txt")]: "v0\n", ...(other ? { [path.join(other, "c.txt")]: "c0\n" } : {}) });
  sm.branch(cp0);
  const b = await writeTurn(sm, turns, "write B", { [ws("a.txt")]: "B1\n" });
  const agent = new AgentSession({ sessionManager: sm, cwd: t.ws, modelRegistry: testModels(), tools: [] });
  return {
    ws: t.ws,
    other,
    store: t.store,
    root: t.root,
    sm,
    checkpoints,
    agent,
    ids: { cp0, u1: a.user, r1: a.result, f1: a.final, u2: b.user, r2: b.result, f2: b.final },
    read: (rel) => {
      const abs = path.join(t.ws, rel);
      return fs.existsSync(abs) ? fs.readFileSync(abs, "utf8") : undefined;
    },
    cleanup: () => {
      agent.dispose();
      t.cleanup();
    },
  };
}

/**
 * A branch switch of `session` to `targetId` through the real navigate flow and the session's AgentSession, with
 * `files` following it (a RestoreOnSwitch): how it ended.
 */
export async function switchBranch(
  session: CheckpointSession,
  targetId: string,
  files: FilesFollow,
  navUi: FakeNavigateUi = new FakeNavigateUi({ choice: "none" }),
  mode: NavigateMode = "ask",
): Promise<NavigateOutcome> {
  const navigator = {
    getLeafId: () => session.sm.getLeafId(),
    navigateTree: session.agent.navigateTree.bind(session.agent),
  };
  return runNavigateFlow(navigator, navUi, targetId, mode, "ask", files);
}
