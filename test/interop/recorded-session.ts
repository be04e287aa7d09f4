/**
 * A session file that a suite of pi interop tests reads: before the tests, `record` has an agent (an AgentSession
 * with the workspace's tools, the real openai client against a fake OpenAI server) write it in a temp dir; then the
 * agent is disposed and the file closed. After the tests the server stops and the dir goes.
 */
import { after, before } from "node:test";
import { AgentSession, type AgentSessionOptions, type SessionManager } from "../../src/core/index.js";
import { createWorkspaceTools } from "../../src/core/tools/index.js";
import { openAIModel } from "../util/fake-models.js";
import { startFakeOpenAI } from "../util/fake-openai-server.js";
import type { FakeServer } from "../util/fake-provider-common.js";
import { tempDir } from "../util/temp-dir.js";
import { readyTestModels } from "../util/test-models.js";

/** What `record` gets: the temp dir, the fake server, and the agent builder. */
export interface Recording {
  dir: string;
  fake: FakeServer;
  /** An agent on `sm` over `cwd` with the workspace's tools and the fake server's model, then `over`. */
  agentOn(sm: SessionManager, cwd: string, over?: Partial<AgentSessionOptions>): Promise<AgentSession>;
}

/** Records the suite's session (see the file comment); `file` is its path once the tests run. */
export function recordedSessionForSuite(record: (r: Recording) => Promise<AgentSession>): { readonly file: string } {
  let tmp: ReturnType<typeof tempDir> | undefined;
  let fake: FakeServer | undefined;
  let file: string | undefined;
  before(async () => {
    tmp = tempDir("agent-tree-interop-");
    const server = (fake = await startFakeOpenAI());
    const agent = await record({
      dir: tmp.dir,
      fake: server,
      agentOn: async (sm, cwd, over = {}) =>
        new AgentSession({
          sessionManager: sm,
          cwd,
          modelRegistry: await readyTestModels(),
          getApiKey: async () => "test-key",
          tools: createWorkspaceTools(cwd),
          model: openAIModel(server),
          ...over,
        }),
    });
    agent.dispose();
    await agent.sessionManager.close();
    file = agent.sessionManager.getSessionFile() as string;
  });
  after(async () => {
    await fake?.close();
    tmp?.cleanup();
  });
  return {
    get file() {
      if (file === undefined) throw new Error("the recorded session is only there once the suite's tests run");
      return file;
    },
  };
}
