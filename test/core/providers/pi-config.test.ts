/**
 * A pi user's setup, read from pi's agent folder as pi 1.6 reads it: models.json (custom providers and models, a
 * built-in provider's baseUrl, model overrides, keys as `$NAME` / `!command`) and settings.json (default model and
 * thinking level, the short list, compaction). The custom model is listed and answers through a fake server; a
 * malformed file or field is named and the rest still loads; VS Code's settings win over pi's.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { AgentSession } from "../../../src/core/agent/agent-session.js";
import { compactionSettingsOf, DEFAULT_COMPACTION_SETTINGS } from "../../../src/core/compaction/settings.js";
import { formatIssue } from "../../../src/core/providers/json-check.js";
import { ModelRegistry } from "../../../src/core/providers/model-registry.js";
import { resolveModelScope } from "../../../src/core/providers/model-scope.js";
import { readPiAgentConfig } from "../../../src/core/providers/pi-agent-config.js";
import { loadPiAi, type PiAi } from "../../../src/core/providers/pi-ai.js";
import { parsePiModelsJson } from "../../../src/core/providers/pi-models-json.js";
import { mergeModelSettings, parsePiSettings } from "../../../src/core/providers/pi-settings.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { startFakeAnthropic } from "../../util/fake-anthropic-server.js";
import { startFakeOpenAI } from "../../util/fake-openai-server.js";
import type { FakeServer } from "../../util/fake-provider-common.js";
import { user } from "../../util/session-builder.js";
import { tempDir } from "../../util/temp-dir.js";

const KEY = "local-key-from-the-environment-123";

/** pi's files in an agent folder: a local server, Anthropic through a proxy, one bad provider and one bad model. */
function writeAgentFolder(dir: string, openai: FakeServer, anthropic: FakeServer): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "models.json"),
    `{
  // pi strips comments before parsing
  "$schema": "https://pi.dev/schemas/models.schema.json",
  "providers": {
    "my-llama": {
      "name": "My llama.cpp",
      "baseUrl": "${openai.baseURL}",
      "api": "openai-completions",
      "apiKey": "$MY_LLAMA_KEY",
      "headers": { "x-team": "blue" },
      "models": [
        { "id": "llama-70b", "name": "Llama 70B", "contextWindow": 65536, "maxTokens": 4096, "input": ["text", "image"],
          "cost": { "input": 1, "output": 2, "cacheRead": 0, "cacheWrite": 0 } },
        { "id": "broken", "contextWindow": -5 }
      ]
    },
    "anthropic": {
      "baseUrl": "${anthropic.baseURL}",
      "modelOverrides": { "claude-sonnet-4-5": { "name": "Sonnet via proxy", "contextWindow": 100000 } }
    },
    "typo": { "baseUrl": 42 }
  }
}`,
  );
  fs.writeFileSync(
    path.join(dir, "settings.json"),
    JSON.stringify({
      defaultProvider: "my-llama",
      defaultModel: "llama-70b",
      defaultThinkingLevel: "high",
      enabledModels: ["my-llama/*", "claude-sonnet-4-5:low", "nothing-like-this"],
      compaction: { enabled: false, reserveTokens: 20000, keepRecentTokens: "lots" },
      theme: "dark",
    }),
  );
}

describe("pi's models.json and settings.json", { timeout: 60_000 }, () => {
  const tmp = tempDir();
  const agentDir = path.join(tmp.dir, "agent");
  let openai: FakeServer;
  let anthropic: FakeServer;
  let pi: PiAi;
  before(async () => {
    [openai, anthropic, pi] = await Promise.all([startFakeOpenAI(), startFakeAnthropic(), loadPiAi()]);
    writeAgentFolder(agentDir, openai, anthropic);
  });
  after(async () => {
    await Promise.all([openai.close(), anthropic.close()]);
    tmp.cleanup();
  });

  it("reads both files of the agent folder ($PI_CODING_AGENT_DIR); a bad field is named, the rest loads", async () => {
    const saved = process.env.PI_CODING_AGENT_DIR;
    process.env.PI_CODING_AGENT_DIR = agentDir;
    let config;
    try {
      config = await readPiAgentConfig();
    } finally {
      if (saved === undefined) delete process.env.PI_CODING_AGENT_DIR;
      else process.env.PI_CODING_AGENT_DIR = saved;
    }
    assert.equal(config.models.file, path.join(agentDir, "models.json"));
    const lines = config.issues.map(formatIssue);
    const modelsFile = path.join(agentDir, "models.json");
    const settingsFile = path.join(agentDir, "settings.json");
    assert.deepEqual(lines.sort(), [
      `${modelsFile}: providers.my-llama.models[1].contextWindow: must be a positive number`,
      `${modelsFile}: providers.typo.baseUrl: must be a non-empty string`,
      `${settingsFile}: compaction.keepRecentTokens: must be a whole number of 0 or more`,
    ]);
    assert.deepEqual(Object.keys(config.models.config.providers).sort(), ["anthropic", "my-llama"]);
    assert.deepEqual(
      config.models.config.providers["my-llama"].models?.map((m) => m.id),
      ["llama-70b"],
    );
    assert.deepEqual(config.settings, {
      defaultProvider: "my-llama",
      defaultModel: "llama-70b",
      defaultThinkingLevel: "high",
      enabledModels: ["my-llama/*", "claude-sonnet-4-5:low", "nothing-like-this"],
      compaction: { enabled: false, reserveTokens: 20000 },
    });
    assert.deepEqual(config.watch, [modelsFile, settingsFile]);
  });

  it("the custom model is listed with pi's fields and answers through its server, its key from $NAME", async () => {
    const config = await readPiAgentConfig({ agentDir });
    const registry = ModelRegistry.fromLoaded(pi, { piModels: config.models, env: { MY_LLAMA_KEY: KEY } });
    await registry.refreshAuth();
    const llama = registry.find("my-llama", "llama-70b");
    assert.ok(llama, "listed");
    assert.equal(llama.name, "Llama 70B");
    assert.equal(llama.contextWindow, 65_536);
    assert.deepEqual(llama.input, ["text", "image"]);
    assert.equal(registry.provider("my-llama")?.name, "My llama.cpp");
    assert.ok(registry.isReady("my-llama"), "its key variable is set");
    assert.deepEqual(registry.provider("my-llama")?.auth.apiKey?.envNames, ["MY_LLAMA_KEY"]);
    openai.enqueue({ text: "Hello from llama", usage: { input: 1000, output: 100 } });
    const reply = await registry.complete({ model: llama, messages: [user("hi")] });
    assert.deepEqual(reply.content, [{ type: "text", text: "Hello from llama" }]);
    assert.ok(Math.abs(reply.usage.cost.total - (1000 * 1 + 100 * 2) / 1e6) < 1e-12, "priced as models.json says");
    const call = openai.calls.at(-1);
    assert.equal(call?.headers.authorization, `Bearer ${KEY}`);
    assert.equal(call?.headers["x-team"], "blue", "the provider's headers are sent");
    assert.equal(call?.body.model, "llama-70b");
    assert.ok(registry.keyEnvNames().includes("MY_LLAMA_KEY"), "tools run without the key models.json names");
    // Without the variable the provider is not ready, and a request says which variable is missing.
    const unset = ModelRegistry.fromLoaded(pi, { piModels: config.models, env: {} });
    await unset.refreshAuth();
    assert.equal(unset.isReady("my-llama"), false);
    const sent = openai.requests.length;
    let last;
    for await (const e of unset.stream({ model: llama, messages: [user("hi")], maxRetries: 0 })) last = e;
    assert.ok(last?.type === "error" && last.errorKind === "auth", JSON.stringify(last));
    assert.match(last.message.errorMessage ?? "", /MY_LLAMA_KEY/);
    assert.equal(openai.requests.length, sent, "nothing was sent");
  });

  it("a built-in provider's baseUrl and model overrides apply to its catalog models, its key stays its own", async () => {
    const config = await readPiAgentConfig({ agentDir });
    const registry = ModelRegistry.fromLoaded(pi, {
      piModels: config.models,
      env: { ANTHROPIC_API_KEY: "ant-key-1234567890" },
    });
    const sonnet = registry.find("anthropic", "claude-sonnet-4-5");
    assert.ok(sonnet);
    assert.equal(sonnet.name, "Sonnet via proxy");
    assert.equal(sonnet.contextWindow, 100_000);
    assert.equal(sonnet.baseUrl, anthropic.baseURL);
    assert.ok(
      registry.byProvider("anthropic").every((m) => m.baseUrl === anthropic.baseURL),
      "every model of the provider",
    );
    anthropic.enqueue({ text: "Proxied" });
    const reply = await registry.complete({ model: sonnet, messages: [user("hi")] });
    assert.deepEqual(reply.content, [{ type: "text", text: "Proxied" }]);
    assert.equal(anthropic.calls.at(-1)?.headers["x-api-key"], "ant-key-1234567890");
    assert.equal(anthropic.requests.at(-1)?.model, "claude-sonnet-4-5");
  });

  it("settings.json picks the agent's model and compaction; enabledModels makes the short list", async () => {
    const config = await readPiAgentConfig({ agentDir });
    const registry = ModelRegistry.fromLoaded(pi, {
      piModels: config.models,
      env: { MY_LLAMA_KEY: KEY, ANTHROPIC_API_KEY: "ant-key-1234567890" },
    });
    await registry.refreshAuth();
    const effective = mergeModelSettings(config.settings);
    assert.deepEqual(effective.defaultModel, { provider: "my-llama", id: "llama-70b", source: "pi" });
    assert.deepEqual(effective.defaultThinkingLevel, { level: "high", source: "pi" });
    assert.deepEqual(effective.compaction, { enabled: false, reserveTokens: 20000, keepRecentTokens: 20000 });
    // As pi: against the models that can be called (another provider's claude-sonnet-4-5 has no key here).
    const scope = resolveModelScope(effective.enabledModels?.patterns ?? [], registry.available());
    assert.deepEqual(
      scope.models.map((s) => `${s.model.provider}/${s.model.id}${s.thinkingLevel ? `:${s.thinkingLevel}` : ""}`),
      ["my-llama/llama-70b", "anthropic/claude-sonnet-4-5:low"],
    );
    assert.deepEqual(scope.warnings, ['No models match pattern "nothing-like-this"']);
    // The agent starts on that model, compacts as pi's settings say, and the model answers.
    const model = registry.find(effective.defaultModel!.provider, effective.defaultModel!.id);
    assert.ok(model);
    const sm = SessionManager.inMemory(tmp.dir);
    const agent = new AgentSession({
      sessionManager: sm,
      cwd: tmp.dir,
      modelRegistry: registry,
      model,
      tools: [],
      compaction: effective.compaction,
    });
    openai.enqueue({ text: "Started on llama" });
    await agent.prompt("hello");
    const last = sm.buildSessionContext().messages.at(-1);
    assert.ok(last?.role === "assistant" && last.provider === "my-llama" && last.model === "llama-70b");
    assert.deepEqual(last.content, [{ type: "text", text: "Started on llama" }]);
    agent.dispose();
  });

  it("VS Code's settings win over pi's; pi's defaultProvider and defaultModel count only together", () => {
    const pi16 = parsePiSettings(
      {
        defaultProvider: "anthropic",
        defaultModel: "claude-sonnet-4-5",
        defaultThinkingLevel: "low",
        enabledModels: ["a"],
      },
      "settings.json",
    ).settings;
    const merged = mergeModelSettings(pi16, {
      model: "openai/gpt-5-mini",
      thinkingLevel: "medium",
      enabledModels: ["b", "c"],
      compaction: { reserveTokens: 1000 },
    });
    assert.deepEqual(merged.defaultModel, { provider: "openai", id: "gpt-5-mini", source: "vscode" });
    assert.deepEqual(merged.defaultThinkingLevel, { level: "medium", source: "vscode" });
    assert.deepEqual(merged.enabledModels, { patterns: ["b", "c"], source: "vscode" });
    assert.deepEqual(merged.compaction, { ...DEFAULT_COMPACTION_SETTINGS, reserveTokens: 1000 });
    // Empty VS Code values leave pi's in force.
    assert.deepEqual(mergeModelSettings(pi16, { model: "  ", enabledModels: [] }).defaultModel, {
      provider: "anthropic",
      id: "claude-sonnet-4-5",
      source: "pi",
    });
    assert.equal(mergeModelSettings({ defaultModel: "x" }).defaultModel, undefined, "a model without its provider");
    assert.deepEqual(compactionSettingsOf({ enabled: false }, { keepRecentTokens: 5 }), {
      enabled: false,
      reserveTokens: DEFAULT_COMPACTION_SETTINGS.reserveTokens,
      keepRecentTokens: 5,
    });
  });

  it("a trusted project's .pi/settings.json lays over the agent folder's, objects field by field", async () => {
    const project = path.join(tmp.dir, "project");
    fs.mkdirSync(path.join(project, ".pi"), { recursive: true });
    fs.writeFileSync(
      path.join(project, ".pi", "settings.json"),
      JSON.stringify({ defaultThinkingLevel: "minimal", compaction: { keepRecentTokens: 1234 } }),
    );
    const trusted = await readPiAgentConfig({ agentDir, projectDir: project, trusted: true });
    assert.equal(trusted.settings.defaultThinkingLevel, "minimal");
    assert.deepEqual(trusted.settings.compaction, { enabled: false, reserveTokens: 20000, keepRecentTokens: 1234 });
    assert.ok(trusted.watch.includes(path.join(project, ".pi", "settings.json")));
    const untrusted = await readPiAgentConfig({ agentDir, projectDir: project, trusted: false });
    assert.equal(untrusted.settings.defaultThinkingLevel, "high", "an untrusted project's file is not read");
  });

  it("a file that is not JSON is one issue naming it; missing files are no issue", async () => {
    const dir = path.join(tmp.dir, "broken-agent");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "models.json"), "{ providers: ");
    const config = await readPiAgentConfig({ agentDir: dir });
    assert.equal(config.issues.length, 1);
    assert.equal(config.issues[0].file, path.join(dir, "models.json"));
    assert.match(config.issues[0].message, /not valid JSON/);
    assert.deepEqual(config.models.config.providers, {});
    assert.deepEqual((await readPiAgentConfig({ agentDir: path.join(tmp.dir, "none") })).issues, []);
  });

  it("keys as pi resolves them: a command's output, $NAME and ${NAME}, $$ for a literal $", async () => {
    const { config, issues } = parsePiModelsJson(
      {
        providers: {
          cmd: {
            baseUrl: openai.baseURL,
            api: "openai-completions",
            apiKey: "!printf 'from-%s' command",
            models: [{ id: "m" }],
          },
          tpl: {
            baseUrl: openai.baseURL,
            api: "openai-completions",
            apiKey: "pre-${PART}-$$lit",
            models: [{ id: "m" }],
          },
        },
      },
      "models.json",
    );
    assert.deepEqual(issues, []);
    const registry = ModelRegistry.fromLoaded(pi, { piModels: { config, file: "models.json" }, env: { PART: "mid" } });
    assert.equal((await registry.models.getAuth("cmd"))?.auth.apiKey, "from-command");
    assert.equal((await registry.models.getAuth("tpl"))?.auth.apiKey, "pre-mid-$lit");
  });
});
