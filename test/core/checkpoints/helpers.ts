/** Shared set-up of the checkpoint tests: temp workspaces and stores, and exact pictures of a folder's state. */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach } from "node:test";
import type { AgentSessionOptions } from "../../../src/core/agent/agent-session.js";
import {
  FolderCheckpoints,
  RestoreFailedError,
  TurnCheckpoints,
  WorkspaceCheckpoints,
  nodeRestoreFileSystem,
  type FolderCheckpointsOptions,
  type RestoreFileSystem,
} from "../../../src/core/checkpoints/index.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import type { FakeServer } from "../../util/fake-provider-common.js";
import { tempDir } from "../../util/temp-dir.js";
import { newAgent, openAIModel } from "../agent/helpers.js";

/** A temp root holding `ws/` (the workspace folder) and `store/` (the checkpoint storage); `cleanup()` removes it. */
export function tempWorkspace(): { root: string; ws: string; store: string; cleanup: () => void } {
  const { dir: root, cleanup } = tempDir("agent-tree-checkpoints-");
  const ws = path.join(root, "ws");
  const store = path.join(root, "store");
  fs.mkdirSync(ws);
  return { root, ws, store, cleanup };
}

/** The current test's temp workspace (see {@link tempWorkspacePerTest}). */
export interface WorkspacePerTest {
  readonly root: string;
  readonly ws: string;
  readonly store: string;
  /** FolderCheckpoints over `ws`, stored in `store`, with `options` on top. */
  open(options?: Partial<FolderCheckpointsOptions>): Promise<FolderCheckpoints>;
}

/**
 * A fresh temp workspace for each test of the enclosing suite (node:test `describe` or file), removed after the
 * test; the returned object always speaks of the current test's one.
 */
export function tempWorkspacePerTest(): WorkspacePerTest {
  let t: ReturnType<typeof tempWorkspace> | undefined;
  beforeEach(() => {
    t = tempWorkspace();
  });
  afterEach(() => t?.cleanup());
  const current = (): ReturnType<typeof tempWorkspace> => {
    if (!t) throw new Error("the per-test workspace is only there inside a test");
    return t;
  };
  return {
    get root() {
      return current().root;
    },
    get ws() {
      return current().ws;
    },
    get store() {
      return current().store;
    },
    open: (options = {}) => FolderCheckpoints.open({ folder: current().ws, storageDir: current().store, ...options }),
  };
}

/**
 * A session over the current test's workspace (its files in `root/sessions`) whose agent, on the fake server's
 * model and with no tools unless `over` gives some, takes a checkpoint of the workspace at each turn.
 */
export async function checkpointedAgent(
  t: WorkspacePerTest,
  fake: Pick<FakeServer, "baseURL">,
  over: Partial<AgentSessionOptions> = {},
): Promise<{ sm: SessionManager; cps: WorkspaceCheckpoints; agent: ReturnType<typeof newAgent>["agent"] }> {
  const sessions = path.join(t.root, "sessions");
  fs.mkdirSync(sessions, { recursive: true });
  const sm = await SessionManager.create(t.ws, sessions);
  const cps = await WorkspaceCheckpoints.open({ folders: [t.ws], storageDir: t.store });
  const { agent } = newAgent(sm, {
    cwd: t.ws,
    model: openAIModel(fake),
    tools: undefined,
    checkpoints: new TurnCheckpoints(cps),
    ...over,
  });
  return { sm, cps, agent };
}

/** Writes files (relative path → content) under `dir`, creating folders. */
export function writeFiles(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
}

/** The text of a file, or undefined when it is missing. */
export function read(dir: string, rel: string): string | undefined {
  const abs = path.join(dir, rel);
  return fs.existsSync(abs) ? fs.readFileSync(abs, "utf8") : undefined;
}

/**
 * Everything observable about a folder: every entry (files with a hash of their bytes and their mode, links with
 * their target, folders), skipping `skip` names at any depth. Two equal pictures mean nothing changed.
 */
export function folderPicture(dir: string, skip: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    const abs = rel === "" ? dir : path.join(dir, rel);
    for (const name of fs.readdirSync(abs).sort()) {
      if (skip.includes(name)) continue;
      const childRel = rel === "" ? name : `${rel}/${name}`;
      const childAbs = path.join(dir, childRel);
      const st = fs.lstatSync(childAbs);
      if (st.isSymbolicLink()) out[childRel] = `link -> ${fs.readlinkSync(childAbs)}`;
      else if (st.isDirectory()) {
        out[childRel] = "dir";
        walk(childRel);
      } else {
        const hash = createHash("sha256").update(fs.readFileSync(childAbs)).digest("hex").slice(0, 16);
        out[childRel] = `file ${(st.mode & 0o777).toString(8)} ${hash}`;
      }
    }
  };
  walk("");
  return out;
}

/** Byte-level picture of a folder including timestamps-free metadata: for "the user's .git is untouched". */
export function exactPicture(dir: string): Record<string, string> {
  const out = folderPicture(dir);
  for (const [rel, kind] of Object.entries(out)) {
    if (kind === "dir") continue;
    const st = fs.lstatSync(path.join(dir, rel));
    out[rel] = `${kind} size=${st.size} mtime=${st.mtimeMs}`;
  }
  return out;
}

/** Runs the user's own git in `cwd` (never the engine's environment). */
export function userGit(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("GIT_"))),
      GIT_AUTHOR_NAME: "User",
      GIT_AUTHOR_EMAIL: "user@example.invalid",
      GIT_COMMITTER_NAME: "User",
      GIT_COMMITTER_EMAIL: "user@example.invalid",
    },
  });
}

/** An environment whose PATH has no git (for "clear when it cannot"). */
export function envWithoutGit(root: string): NodeJS.ProcessEnv {
  const empty = path.join(root, "empty-bin");
  fs.mkdirSync(empty, { recursive: true });
  return { ...process.env, PATH: empty };
}

/** A restore file system whose `at`-th rename (counted from `failAt(at)`) fails as a full disk would. */
export class FailingRenames {
  /** Renames since the last `failAt`. */
  renames = 0;
  private failingAt = Infinity;
  readonly fs: RestoreFileSystem = {
    ...nodeRestoreFileSystem,
    rename: async (from, to) => {
      if (++this.renames === this.failingAt) throw new Error("disk full (injected)");
      return nodeRestoreFileSystem.rename(from, to);
    },
  };

  /** From now on, the `at`-th rename fails (Infinity: none does). */
  failAt(at: number): void {
    this.renames = 0;
    this.failingAt = at;
  }
}

/**
 * All or nothing: for each `at`, the `at`-th rename fails, and `run` must reject with a rolled-back
 * RestoreFailedError after exactly `at` renames and leave `ws` as `before`. Renames work again afterwards.
 */
export async function assertRollsBackAtEach(
  failing: FailingRenames,
  ats: readonly number[],
  run: () => Promise<unknown>,
  ws: string,
  before: Record<string, string>,
): Promise<void> {
  for (const at of ats) {
    failing.failAt(at);
    await assert.rejects(run(), (e: unknown) => {
      assert.ok(e instanceof RestoreFailedError, String(e));
      assert.equal(e.rolledBack, true);
      return true;
    });
    assert.equal(failing.renames, at, "the failure happened midway");
    assert.deepEqual(folderPicture(ws), before, `failure at rename ${at}: every file as it was`);
  }
  failing.failAt(Infinity);
}
