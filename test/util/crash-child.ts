/**
 * What the crash tests' child processes share (test/core/parallel/crash-child.ts, test/core/agent/subagent-crash-
 * child.ts): the arguments they are started with (`<session file> <fake server base URL> <tools folder>`), an
 * AgentSession on the session file against the fake server, the `ack <id>` line the parent counts an entry by (written
 * after the append returned), `finished` at the end, and a failure's stack on stderr with exit code 1.
 */
import * as fs from "node:fs";
import { AgentSession, type AgentSessionOptions } from "../../src/core/agent/agent-session.js";
import { ModelRegistry } from "../../src/core/providers/model-registry.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { FAKE_CUSTOM_MODELS, openAIModel } from "./fake-models.js";

/** A crash child's session and what it was started with. */
export interface CrashChild {
  sm: SessionManager;
  /** An AgentSession on `sm` in `folder`, its model the fake server's. */
  session: AgentSession;
  baseURL: string;
  folder: string;
  /** Tells the parent that entry `id` is written. */
  ack(id: string): void;
}

/** Runs `main` in this child process over an AgentSession with `options`, then prints `finished`. */
export function runCrashChild(options: Partial<AgentSessionOptions>, main: (child: CrashChild) => Promise<void>): void {
  const start = async (): Promise<void> => {
    const [file, baseURL, folder] = process.argv.slice(2);
    const sm = await SessionManager.open(file);
    const session = new AgentSession({
      sessionManager: sm,
      cwd: folder,
      modelRegistry: await ModelRegistry.create({ custom: FAKE_CUSTOM_MODELS }),
      getApiKey: async () => "test-key",
      model: openAIModel({ baseURL }),
      ...options,
    });
    await main({ sm, session, baseURL, folder, ack: (id) => void fs.writeSync(1, `ack ${id}\n`) });
    fs.writeSync(1, "finished\n");
  };
  start().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
}
