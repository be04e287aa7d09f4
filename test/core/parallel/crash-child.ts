/**
 * Child process of the parallel crash tests: opens a session and runs three branches at once from its leaf's
 * parent against a fake model server, printing `ack <id>` for every entry a branch wrote (after the append
 * returned). The parent kills it mid-run.
 * argv: <session file> <fake server base URL> <tools folder>
 */
import * as fs from "node:fs";
import { runBranch } from "../../../src/core/parallel/branch-run.js";
import { createWorkspaceTools } from "../../../src/core/tools/index.js";
import { openAIModel } from "../../util/fake-models.js";
import { runCrashChild } from "../../util/crash-child.js";

runCrashChild({ tools: [] }, async ({ sm, session, baseURL, folder, ack }) => {
  const leaf = sm.getLeafId();
  fs.writeSync(1, `leaf ${leaf}\n`);
  await Promise.all(
    [0, 1, 2].map((i) =>
      runBranch({
        session,
        parentId: leaf,
        prompt: `CRASH branch ${i}`,
        model: openAIModel({ baseURL }),
        kind: "explore",
        groupId: "crash",
        tools: createWorkspaceTools(folder),
        cwd: folder,
        onEvent: (e) => {
          if (e.type === "branch_entry") ack(e.entryId);
        },
      }),
    ),
  );
});
