/**
 * Child process of the parallel crash tests: opens a session and runs three branches at once from its leaf's
 * parent against a fake model server, printing `ack <id>` for every entry a branch wrote (after the append
 * returned). The parent kills it mid-run.
 * argv: <session file> <fake server base URL> <tools folder>
 */
import * as fs from "node:fs";
import { FAKE_CUSTOM_MODELS, openAIModel } from "../../util/fake-models.js";
import { ModelRegistry } from "../../../src/core/providers/model-registry.js";
import { AgentSession } from "../../../src/core/agent/agent-session.js";
import { runBranch } from "../../../src/core/parallel/branch-run.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { createWorkspaceTools } from "../../../src/core/tools/index.js";

async function main(): Promise<void> {
  const [file, baseURL, folder] = process.argv.slice(2);
  const sm = await SessionManager.open(file);
  const leaf = sm.getLeafId();
  const model = openAIModel({ baseURL });
  const modelRegistry = await ModelRegistry.create({ custom: FAKE_CUSTOM_MODELS });
  const session = new AgentSession({
    sessionManager: sm,
    cwd: folder,
    modelRegistry,
    getApiKey: async () => "test-key",
    tools: [],
  });
  fs.writeSync(1, `leaf ${leaf}\n`);
  await Promise.all(
    [0, 1, 2].map((i) =>
      runBranch({
        session,
        parentId: leaf,
        prompt: `CRASH branch ${i}`,
        model,
        kind: "explore",
        groupId: "crash",
        tools: createWorkspaceTools(folder),
        cwd: folder,
        onEvent: (e) => {
          if (e.type === "branch_entry") fs.writeSync(1, `ack ${e.entryId}\n`);
        },
      }),
    ),
  );
  fs.writeSync(1, "finished\n");
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
