/**
 * Child process of the subagent crash tests: opens a session and sends a prompt whose reply starts two subagents
 * (subagentCrashReplies), printing `ack <id>` for every entry written — the parent's at the leaf and the subagents'
 * on their branches — after the append returned. The parent kills it mid-run.
 * argv: <session file> <fake server base URL> <tools folder>
 */
import * as fs from "node:fs";
import { FAKE_CUSTOM_MODELS, openAIModel } from "../../util/fake-models.js";
import { ModelRegistry } from "../../../src/core/providers/model-registry.js";
import { AgentSession } from "../../../src/core/agent/agent-session.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";

async function main(): Promise<void> {
  const [file, baseURL, folder] = process.argv.slice(2);
  const sm = await SessionManager.open(file);
  const modelRegistry = await ModelRegistry.create({ custom: FAKE_CUSTOM_MODELS });
  const session = new AgentSession({
    sessionManager: sm,
    cwd: folder,
    modelRegistry,
    getApiKey: async () => "test-key",
    model: openAIModel({ baseURL }),
    subagents: {},
  });
  const ack = (id: string): void => void fs.writeSync(1, `ack ${id}\n`);
  session.subscribe((e) => {
    if (e.type === "message_end") ack(e.entryId);
  });
  session.runs.subscribe((c) => {
    if (c.type === "begin" && c.work.run?.kind === "subagent")
      c.work.run.subscribe((e) => {
        if (e.type === "branch_entry") ack(e.entryId);
      });
  });
  await session.prompt("PARENT crash");
  fs.writeSync(1, "finished\n");
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
