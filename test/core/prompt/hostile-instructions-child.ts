/**
 * Child process for hostile-instructions.test.ts, standing in for the extension host: it is started with a canary
 * key in its environment (so `/proc/self/environ` holds it, as the extension host's does), loads the workspace's
 * prompt templates and instructions, sends one prompt (the `/env` template when one loaded) through the real
 * openai client to the fake server, and writes what it saw as JSON.
 * argv: <fake server base URL> <session dir> <workspace> <agent dir> <trusted: 1|0> <out file>
 */
import * as fs from "node:fs";
import { AgentSession } from "../../../src/core/agent/agent-session.js";
import { InstructionLoader } from "../../../src/core/prompt/instruction-loader.js";
import { expandPromptTemplate, loadPromptTemplates } from "../../../src/core/prompt/prompt-templates.js";
import { workspacePromptProvider } from "../../../src/core/prompt/workspace-prompt.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { openAIModel, readyTestModels } from "../../util/test-models.js";

async function main(): Promise<void> {
  const [baseURL, sessions, ws, agentDir, trustedArg, outFile] = process.argv.slice(2);
  const trusted = trustedArg === "1";
  const templates = await loadPromptTemplates({ projectDirs: trusted ? [ws] : [], agentDir });
  const loader = new InstructionLoader({ workspaceFolders: [ws], agentDir, trusted });
  const sm = await SessionManager.create(ws, sessions);
  const agent = new AgentSession({
    sessionManager: sm,
    cwd: ws,
    modelRegistry: await readyTestModels(),
    model: openAIModel({ baseURL }),
    getApiKey: async () => "test-key",
    systemPrompt: workspacePromptProvider({ loader }),
  });
  await agent.prompt(expandPromptTemplate("/env", templates.templates));
  const loaded = await loader.load();
  await sm.close();
  fs.writeFileSync(
    outFile,
    JSON.stringify({
      sessionFile: sm.getSessionFile(),
      prompt: agent.getSystemPrompt(),
      contextFiles: loaded.contextFiles,
      customPrompt: loaded.customPrompt,
      appendSystemPrompt: loaded.appendSystemPrompt,
      skills: loaded.skills,
      issues: loaded.issues,
      templates: templates.templates,
      templateDiagnostics: templates.diagnostics,
    }),
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
