/**
 * Child process for key-isolation.test.ts, standing in for the extension host: it is started with model keys in
 * its environment, reads from stdin one more key (the host's secret store) and the credentials its credential store
 * holds (a key entered with "Set API Key", a login's OAuth tokens: in no environment), and runs one prompt whose
 * model answers with a bash call that dumps every environment the command can reach and files holding those
 * secrets. Prints the session file path and writes the events it saw as JSON.
 * argv: <fake server base URL> <session dir> <workspace> <events file>
 */
import * as fs from "node:fs";
import { AgentSession } from "../../../src/core/agent/agent-session.js";
import type { AgentEvent } from "../../../src/core/agent/events.js";
import type { Credential } from "@earendil-works/pi-ai";
import { ModelRegistry } from "../../../src/core/providers/model-registry.js";
import { loadPiAi } from "../../../src/core/providers/pi-ai.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";

/** Environments a command can read: its own, `env`, each ancestor's, and this process's (found by pid). */
function dumpCommand(hostPid: number): string {
  return [
    // `cat` reads its own environ (a redirection would be opened before exec, by the shell's child).
    "echo '== self'; cat /proc/self/environ | tr '\\0' '\\n'",
    "echo '== env'; env",
    "echo '== parent'; tr '\\0' '\\n' < /proc/$PPID/environ",
    // Every ancestor up to init (field 4 of /proc/<pid>/stat is the parent's pid).
    'p=$PPID; for i in 1 2 3 4 5 6 7 8; do p=$(cut -d")" -f2 /proc/$p/stat | cut -d" " -f3); [ "$p" -gt 1 ] || break; echo "== ancestor $p"; tr \'\\0\' \'\\n\' < /proc/$p/environ 2>/dev/null; done',
    `echo '== host'; tr '\\0' '\\n' < /proc/${hostPid}/environ`,
    "echo '== file'; cat host-key.txt",
    "echo '== credentials'; cat credentials.txt",
  ].join("\n");
}

async function main(): Promise<void> {
  const [baseURL, dir, ws, eventsFile] = process.argv.slice(2);
  const input = JSON.parse(fs.readFileSync(0, "utf8")) as { hostKey: string; credentials: Record<string, Credential> };
  const hostKey = input.hostKey;
  const credentials = new (await loadPiAi()).InMemoryCredentialStore();
  for (const [id, c] of Object.entries(input.credentials)) await credentials.modify(id, async () => c);
  const registry = await ModelRegistry.create({
    credentials,
    custom: [
      { provider: "keyed", id: "m", baseUrl: baseURL, api: "openai-completions", apiKeyEnv: "MY_PROVIDER_SECRET" },
    ],
  });
  const model = registry.find("keyed", "m");
  if (!model) throw new Error("custom model missing");
  await fetch(`${new URL(baseURL).origin}/__fake/enqueue`, {
    method: "POST",
    body: JSON.stringify([
      { toolCalls: [{ name: "bash", args: { command: dumpCommand(process.pid) }, id: "call_dump" }] },
      { text: "done" },
    ]),
  });
  const sm = await SessionManager.create(ws, dir);
  const agent = new AgentSession({
    sessionManager: sm,
    cwd: ws,
    modelRegistry: registry,
    model,
    // The secret store knows an Anthropic key that is in no environment.
    getApiKey: async (m) => (m.provider === "anthropic" ? hostKey : undefined),
  });
  const events: AgentEvent[] = [];
  agent.subscribe((e) => events.push(e));
  await agent.prompt("dump the environment");
  await sm.close();
  fs.writeFileSync(eventsFile, JSON.stringify(events));
  process.stdout.write(`${sm.getSessionFile()}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
