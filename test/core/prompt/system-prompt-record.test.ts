/**
 * The prompt recorded in the session and sent to the model (the real openai client against the fake server): a
 * `system` entry with every section before the first user message, nothing more while nothing changes, a patch
 * with only the changed section when AGENTS.md changes, the prompt of each branch replayed after a branch switch,
 * kept by a compaction; and a before_agent_start hook changing it.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { InstructionLoader, SessionManager, systemPromptAt, workspacePromptProvider } from "../../../src/core/index.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { diffTools } from "../../../src/core/agent/system-prompt-sync.js";
import { createWorkspaceTools } from "../../../src/core/tools/index.js";
import {
  anthropicModel,
  instructionWorkspace,
  newAgent,
  openAIModel,
  sentPrompt,
  systemEntries,
} from "../agent/helpers.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { startFakeAnthropic } from "../../util/fake-anthropic-server.js";

describe("the recorded system prompt", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  const setup = async (): Promise<{
    ws: string;
    sm: SessionManager;
    loader: InstructionLoader;
    agent: ReturnType<typeof newAgent>["agent"];
  }> => {
    const ws = path.join(tmp.dir, "ws");
    fs.mkdirSync(path.join(ws, ".pi", "skills", "deploy"), { recursive: true });
    fs.writeFileSync(path.join(ws, "AGENTS.md"), "Project word: ZEBRAFISH");
    fs.writeFileSync(
      path.join(ws, ".pi", "skills", "deploy", "SKILL.md"),
      "---\nname: deploy\ndescription: Deploys the app.\n---\nSteps.",
    );
    const loader = new InstructionLoader({
      workspaceFolders: [ws],
      agentDir: path.join(tmp.dir, "agent"),
      trusted: true,
    });
    const sm = await SessionManager.create(ws, path.join(tmp.dir, "sessions"));
    const provider = workspacePromptProvider({ loader, now: () => new Date(2026, 10, 27, 12), platform: "linux x64" });
    const { agent } = newAgent(sm, {
      model: openAIModel(fake),
      systemPrompt: provider,
      tools: undefined, // the session's own: createWorkspaceTools, `read` reaching the listed skills' folders
      extractiveSummaries: true,
      compaction: { enabled: true, reserveTokens: 500, keepRecentTokens: 50 },
    });
    return { ws, sm, loader, agent };
  };

  it("records every section before the first user message and sends the replayed prompt", async () => {
    const { ws, sm, agent } = await setup();
    await agent.prompt("hello");
    const roles = sm.getEntries().flatMap((e) => (e.type === "message" ? [e.message.role] : []));
    assert.deepEqual(roles, ["system", "user", "assistant"]);
    const [recorded] = systemEntries(sm);
    assert.equal(recorded.content, "");
    assert.deepEqual(Object.keys(recorded.sections ?? {}), [
      "preamble",
      "tools",
      "rules",
      "cwd",
      "project_context",
      "skills",
      "environment",
    ]);
    assert.deepEqual(
      recorded.toolsAdded?.map((t) => t.name),
      ["read", "write", "edit", "bash", "grep", "find", "ls", "todo", "web_fetch"],
      "the tools are declared as pi records its loadout",
    );
    const sent = sentPrompt(fake.requests[0]);
    assert.match(sent, /ZEBRAFISH/);
    assert.ok(sent.includes(`<cwd>\n${ws}\n</cwd>`), "the workspace path");
    assert.match(sent, /Current date: 2026-11-27/);
    assert.match(sent, /<name>deploy<\/name>/);
    assert.match(sent, /- bash: /);
    assert.equal(sent, agent.getSystemPrompt(), "what is sent is what the session replays");

    await agent.prompt("again");
    assert.equal(systemEntries(sm).length, 1, "nothing changed: nothing recorded");
    assert.equal(sentPrompt(fake.requests[1]), sent);
    await sm.close();
  });

  it("a changed AGENTS.md: a patch with only that section, replayed per branch after a switch", async () => {
    const { ws, sm, loader, agent } = await setup();
    await agent.prompt("first");
    const firstReply = sm.getLeafId();
    assert.ok(firstReply);
    fs.writeFileSync(path.join(ws, "AGENTS.md"), "Project word: ANTELOPE");
    loader.invalidate(); // what the host's watcher does
    await agent.prompt("second");
    const patches = systemEntries(sm);
    assert.equal(patches.length, 2);
    assert.deepEqual(Object.keys(patches[1].sections ?? {}), ["project_context"]);
    const sent = sentPrompt(fake.requests[1]);
    assert.match(sent, /ANTELOPE/);
    assert.doesNotMatch(sent, /ZEBRAFISH/);

    assert.match(systemPromptAt(sm, firstReply), /ZEBRAFISH/, "the first branch point ran under the old text");
    assert.match(systemPromptAt(sm), /ANTELOPE/);
    const moved = await agent.navigateTree(firstReply);
    assert.equal(moved.kind, "moved");
    assert.match(agent.getSystemPrompt(), /ZEBRAFISH/, "the branch replays the instructions it ran under");
    await agent.prompt("on the old branch");
    assert.match(sentPrompt(fake.requests[2]), /ANTELOPE/, "the next request runs under today's files");
    assert.equal(systemEntries(sm).length, 3, "recorded again on this branch");
    await sm.close();
  });

  it("recordSystemPrompt: nothing when the path agrees; a patch at the leaf after a move onto older instructions", async () => {
    const { ws, sm, loader, agent } = await setup();
    await agent.prompt("first");
    const firstReply = sm.getLeafId() as string;
    const count = sm.getEntryCount();
    await agent.recordSystemPrompt();
    assert.equal(sm.getEntryCount(), count, "the prompt in force is the one recorded: nothing written");
    fs.writeFileSync(path.join(ws, "AGENTS.md"), "Project word: ANTELOPE");
    loader.invalidate();
    await agent.prompt("second");
    assert.equal((await agent.navigateTree(firstReply)).kind, "moved");
    await agent.recordSystemPrompt();
    const leaf = sm.getLeafEntry();
    assert.ok(leaf?.type === "message" && leaf.message.role === "system", "a patch at the leaf");
    assert.equal(leaf.parentId, firstReply);
    assert.deepEqual(Object.keys(leaf.message.sections ?? {}), ["project_context"]);
    assert.match(agent.getSystemPrompt(), /ANTELOPE/, "the path now replays today's instructions");
    await sm.close();
  });

  it("a compaction keeps the prompt: nothing is recorded again after it", async () => {
    const { sm, agent } = await setup();
    for (let i = 0; i < 4; i++) {
      fake.enqueue({ text: `Done ${i}. ${"detail ".repeat(80)}` });
      await agent.prompt(`Request ${i}: ${"please ".repeat(80)}`);
    }
    const before = agent.getSystemPrompt();
    const entry = await agent.compact();
    assert.ok(entry, "compacted");
    assert.ok(entry.systemMessage, "the compaction records the prompt");
    const messages = sm.buildSessionContext().messages;
    assert.ok(!messages.slice(2).some((m) => m.role === "system"), "no older system message is left in the context");
    assert.equal(agent.getSystemPrompt(), before);
    const count = systemEntries(sm).length;
    await agent.prompt("after the compaction");
    assert.equal(systemEntries(sm).length, count);
    assert.equal(sentPrompt(fake.requests.at(-1) ?? {}), before);
    await sm.close();
  });

  it("a skill in pi's agent folder is listed and read with `read`; the rest of that folder stays out of reach", async () => {
    const { sm, agent } = await setup();
    const agentDir = path.join(tmp.dir, "agent");
    const skillFile = path.join(agentDir, "skills", "review", "SKILL.md");
    fs.mkdirSync(path.dirname(skillFile), { recursive: true });
    fs.writeFileSync(skillFile, "---\nname: review\ndescription: Reviews code.\n---\nREVIEW-STEPS-OWL");
    fs.writeFileSync(path.join(agentDir, "auth.json"), "SECRET-NOT-FOR-THE-MODEL");
    const results: string[] = [];
    agent.subscribe((e) => {
      if (e.type === "message_end" && e.message.role === "toolResult") results.push(JSON.stringify(e.message.content));
    });
    await agent.prompt(`/tool read {"path": ${JSON.stringify(skillFile)}}`);
    assert.ok(sentPrompt(fake.requests[0]).includes(`<location>${skillFile}</location>`));
    assert.match(results[0] ?? "", /REVIEW-STEPS-OWL/, "the skill's file is read");
    await agent.prompt(`/tool read {"path": ${JSON.stringify(path.join(agentDir, "auth.json"))}}`);
    assert.doesNotMatch(results[1] ?? "", /SECRET/);
    assert.match(results[1] ?? "", /outside/i, "any other file there is refused");
    await sm.close();
  });

  it("a before_agent_start hook changes the prompt: its section is recorded and sent; a returned text is sent only", async () => {
    const { sm, agent } = await setup();
    agent.hooks.on("before_agent_start", (event) => {
      assert.equal(event.prompt, "with a hook");
      assert.match(event.systemPrompt, /ZEBRAFISH/);
      event.systemPromptOptions?.promptGuidelines.push("Always answer in haiku");
      if (event.systemPromptOptions) event.systemPromptOptions.sections.team = "Team rule: KOALA";
    });
    await agent.prompt("with a hook");
    const sent = sentPrompt(fake.requests[0]);
    assert.match(sent, /- Always answer in haiku/);
    assert.match(sent, /<team>\nTeam rule: KOALA\n<\/team>/);
    assert.match(systemEntries(sm)[0].sections?.team ?? "", /KOALA/);

    const off = agent.hooks.on("before_agent_start", () => ({ systemPrompt: "FORCED PROMPT" }));
    await agent.prompt("with a hook");
    assert.equal(sentPrompt(fake.requests[1]), "FORCED PROMPT");
    assert.doesNotMatch(agent.getSystemPrompt(), /FORCED/, "a returned text is not recorded");
    off();
    await sm.close();
  });
});

describe("diffTools", () => {
  it("declares new and changed tools and names the removed ones; nothing when they match", () => {
    const [read, write, bash] = createWorkspaceTools("/w");
    const declared = diffTools([], [read, write]).added;
    assert.deepEqual(diffTools(declared, [read, write]), { added: [], removed: [] });
    const mcp = { ...bash, name: "mcp_weather", description: "Weather." };
    const changedRead = { ...read, description: "Read, differently." };
    const d = diffTools(declared, [changedRead, mcp]);
    assert.deepEqual(
      d.added.map((t) => [t.name, t.description]),
      [
        ["read", "Read, differently."],
        ["mcp_weather", "Weather."],
      ],
    );
    assert.deepEqual(d.removed, [{ name: "write" }]);
  });
});

describe("the system prompt on Anthropic's wire", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite(startFakeAnthropic);
  const tmp = tempDirPerTest();

  it("one cached system block, the recorded prompt; an AGENTS.md edit reaches the next request", async () => {
    const { sm, loader, setAgentsMd } = await instructionWorkspace(tmp.dir, "Word: IBIS");
    const { agent } = newAgent(sm, {
      model: anthropicModel(fake, { provider: "anthropic" }),
      systemPrompt: workspacePromptProvider({ loader }),
      tools: undefined,
    });
    const blocks = (i: number): { text: string; cache_control?: unknown }[] =>
      fake.requests[i].system as { text: string; cache_control?: unknown }[];
    await agent.prompt("hello");
    setAgentsMd("Word: CRANE");
    await agent.prompt("again");
    const [first, second] = [blocks(0), blocks(1)];
    // pi-ai marks the system prompt as pi does: one block, cached; the sections keep pi's order (the stable ones
    // first), so a provider that caches prefixes keeps the preamble's part when AGENTS.md changes.
    assert.equal(first.length, 1);
    assert.equal(JSON.stringify(first[0].cache_control), '{"type":"ephemeral"}');
    assert.ok(first[0].text.startsWith("You are a coding agent"));
    assert.match(first[0].text, /IBIS/);
    assert.equal(first[0].text, agent.getSystemPrompt().replace("CRANE", "IBIS"));
    assert.equal(second.length, 1);
    assert.match(second[0].text, /CRANE/);
    assert.equal(second[0].text, agent.getSystemPrompt());
    await sm.close();
  });
});
