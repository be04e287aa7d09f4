/**
 * Child process of the replay crash test: opens a session and replays two user messages on two branches at once
 * from its leaf (each an AgentRun whose second message is a follow-up, as replay.ts starts them), printing
 * `ack <id>` for every entry a branch wrote (after the append returned). The parent kills it mid-replay.
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
    ["fake-model", "fake-model-2"].map((id) =>
      runBranch({
        session,
        parentId: leaf,
        prompt: "REPLAY turn 1",
        followUps: ["REPLAY turn 2"],
        model: openAIModel({ baseURL }, { id }),
        kind: "replay",
        groupId: "replay-crash",
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
