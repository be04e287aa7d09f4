/**
 * The long-running part of `npm start` (scripts/start.sh builds first): demo workspace, local fake model
 * server, code-server with the extension loaded; prints the URL and runs until Ctrl+C.
 */
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { generateDemo, writeDemoSettings } from "../demo/generate-demo.js";
import { REPO_ROOT, freePort, startCodeServer, workbenchUrl, type CodeServer } from "../test/util/code-server.js";
import { startFakeOpenAI } from "../test/util/fake-openai-server.js";

/** Port 8080 (or $PORT) when free, else any free port. */
async function pickPort(): Promise<number> {
  const wanted = Number(process.env.PORT ?? 8080);
  const free = await new Promise<boolean>((r) => {
    import("node:net").then(
      ({ createServer }) => {
        const srv = createServer();
        srv.once("error", () => r(false));
        srv.listen(wanted, "127.0.0.1", () => srv.close(() => r(true)));
      },
      () => r(false),
    );
  });
  return free ? wanted : freePort();
}

async function main(): Promise<void> {
  const demoDir = resolve(process.env.AGENT_TREE_DEMO_DIR ?? join(homedir(), ".cache", "agent-tree-demo"));
  mkdirSync(demoDir, { recursive: true });

  // The fake server answers like a model: echoes, summaries when asked to summarize, `/tool NAME {json}` tool calls.
  const fake = await startFakeOpenAI({ chunkDelayMs: 15 });
  const sessionDir = join(demoDir, "sessions");
  const workspace = join(demoDir, "workspace");
  const hasSessions = existsSync(sessionDir) && readdirSync(sessionDir).some((f) => f.endsWith(".jsonl"));
  if (!hasSessions || process.env.AGENT_TREE_DEMO_RESET === "1") {
    generateDemo(demoDir, { baseUrl: fake.baseURL });
  } else {
    // Keep the user's sessions; only the server's port changes.
    writeDemoSettings(workspace, sessionDir, { baseUrl: fake.baseURL });
  }

  const runDir = join(demoDir, "code-server");
  const running: { server?: CodeServer; stopping?: boolean } = {};
  const shutdown = async (code: number): Promise<void> => {
    if (running.stopping) return;
    running.stopping = true;
    await running.server?.stop();
    await fake.close();
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));

  const server = await startCodeServer({
    workspace,
    port: await pickPort(),
    runDir,
    // The extension goes in from the .vsix of the build above, as users install it; the helper opens the Agent view
    // on start (VS Code has no setting for that).
    installExtensions: [{ folder: join(REPO_ROOT, "demo", "reveal-extension") }],
  });
  running.server = server;
  const url = workbenchUrl(server, { folder: workspace });
  server.process.once("exit", (code) => {
    if (running.stopping) return;
    console.error(`[start] code-server exited (${code ?? "signal"}). Its output:\n${server.output().slice(-4000)}`);
    void shutdown(1);
  });

  console.log("");
  console.log("Agent Tree demo is running:");
  console.log(`  VS Code (code-server):  ${url}`);
  console.log(`  demo workspace:         ${workspace}`);
  console.log(`  sample session folder:  ${sessionDir}`);
  console.log(`  fake model server:      ${fake.baseURL}  (model "local/fake-model", no key)`);
  console.log("Open the URL in a browser; the Agent view opens on the sample session. Ctrl+C stops.");
}

main().catch((err: unknown) => {
  console.error(`[start] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
