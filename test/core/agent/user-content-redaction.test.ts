/**
 * Keys never leave through what the user attaches or a template expands: an `@` attachment of a file holding a key,
 * a selection, a prompt template's expansion, a queued message's attachment and an instruction file (AGENTS.md
 * linked to a `.env` inside the workspace) go through the same redaction as tool results before the session file,
 * the events or the model see them (the real openai client against the fake server).
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { buildAttachment, selectionAttachment } from "../../../src/core/mentions/file-attachment.js";
import { composeUserContent } from "../../../src/core/mentions/user-content.js";
import { InstructionLoader } from "../../../src/core/prompt/instruction-loader.js";
import { expandPromptTemplate, loadPromptTemplates } from "../../../src/core/prompt/prompt-templates.js";
import { workspacePromptProvider } from "../../../src/core/prompt/workspace-prompt.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import type { AgentEvent } from "../../../src/core/agent/events.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { gateTool, newAgent, openAIModel, promptAtGate } from "./helpers.js";

/** A key in the environment (as the extension host has OPENAI_API_KEY); the agent's own model uses another. */
const VAR = "CANARY_TEST_API_KEY";
const CANARY = `sk-canary-${randomBytes(16).toString("hex")}`;
/** Only in the host's secret store (handed over by getApiKey). */
const STORED = `sk-stored-${randomBytes(16).toString("hex")}`;

describe("keys in what the user sends", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();
  before(() => {
    process.env[VAR] = CANARY;
  });
  after(() => {
    delete process.env[VAR];
  });

  const setup = async () => {
    const ws = path.join(tmp.dir, "ws");
    const agentDir = path.join(tmp.dir, "agent");
    fs.mkdirSync(ws, { recursive: true });
    fs.writeFileSync(path.join(ws, ".env"), `${VAR}=${CANARY}\nSTORED=${STORED}\n`);
    fs.symlinkSync(".env", path.join(ws, "AGENTS.md"));
    fs.mkdirSync(path.join(agentDir, "prompts"), { recursive: true });
    fs.writeFileSync(path.join(agentDir, "prompts", "deploy.md"), `Deploy with ${CANARY} and $1`);
    const loader = new InstructionLoader({ workspaceFolders: [ws], agentDir, trusted: true });
    const sm = await SessionManager.create(ws, path.join(tmp.dir, "sessions"));
    const gate = gateTool();
    const { agent, events } = newAgent(sm, {
      model: openAIModel(fake),
      systemPrompt: workspacePromptProvider({ loader }),
      tools: [gate.tool],
      getApiKey: async () => STORED,
    });
    const { templates } = await loadPromptTemplates({ projectDirs: [], agentDir });
    return { ws, sm, agent, events, gate, templates };
  };

  const assertClean = (sm: SessionManager, events: AgentEvent[]): void => {
    const sessionText = fs.readFileSync(sm.getSessionFile() as string, "utf8");
    for (const [where, text] of [
      ["the session file", sessionText],
      ["the requests", JSON.stringify(fake.requests)],
      ["the events", JSON.stringify(events)],
    ] as const) {
      assert.ok(!text.includes(CANARY), `the environment's key is not in ${where}`);
      assert.ok(!text.includes(STORED), `the stored key is not in ${where}`);
    }
    assert.match(JSON.stringify(fake.requests), /\[redacted\]/);
  };

  it("an attached file, a selection, a template's expansion and AGENTS.md are redacted before they are sent", async () => {
    const { ws, sm, agent, events, templates } = await setup();
    const file = await buildAttachment(ws, { path: ".env" });
    const selection = selectionAttachment(path.join(ws, "notes.md"), `the key is ${STORED}`, 3, 3);
    const text = expandPromptTemplate("/deploy now", templates);
    assert.ok(text.includes(CANARY), "the template holds the key");
    await agent.prompt(text, {
      content: composeUserContent(text, [file.block, selection.block]) as Exclude<
        ReturnType<typeof composeUserContent>,
        string
      >,
    });
    assert.equal(fake.requests.length, 1);
    assert.match(JSON.stringify(fake.requests[0]), /Deploy with \[redacted\] and now/);
    assertClean(sm, events);
    await sm.close();
  });

  it("a queued message's attachment is redacted too", async () => {
    const { ws, sm, agent, events, gate } = await setup();
    const file = await buildAttachment(ws, { path: ".env" });
    const run = await promptAtGate(agent, gate, fake, "start", { text: "Steered." });
    agent.queueMessage("steer", `look at this ${CANARY}`, [{ type: "text", text: file.block }]);
    await run.finish();
    assert.equal(fake.requests.length, 2);
    assertClean(sm, events);
    await sm.close();
  });
});
