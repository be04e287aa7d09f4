import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { keyEnvNames, keyEnvValues, withoutKeys } from "../../../src/core/providers/api-key.js";
import { ModelRegistry } from "../../../src/core/providers/model-registry.js";
import { loadPiAi, type PiAi } from "../../../src/core/providers/pi-ai.js";
import { parseRetryAfter, redactSecrets } from "../../../src/core/providers/provider-error.js";
import { retryDelay } from "../../../src/core/providers/retry.js";
import { ProviderError } from "../../../src/core/providers/provider-error.js";

let pi: PiAi;
before(async () => {
  pi = await loadPiAi();
});
const registryWith = (options: Parameters<typeof ModelRegistry.fromLoaded>[1] = {}): ModelRegistry =>
  ModelRegistry.fromLoaded(pi, options);

describe("ModelRegistry", () => {
  it("offers every built-in provider of pi-ai with its catalog, on the API pi-ai picks", () => {
    const r = registryWith();
    const builtin = pi.builtinProviders();
    assert.deepEqual(
      r
        .providers()
        .map((p) => p.id)
        .sort(),
      builtin.map((p) => p.id).sort(),
    );
    const catalog = builtin.reduce((n, p) => n + p.getModels().length, 0);
    assert.equal(r.all().length, catalog, "every catalog model is listed");
    assert.ok(r.all().length > 1000, `pi 1.6 lists about 1,700 models (${r.all().length})`);
    // OpenAI's models go through the Responses API, as pi-ai decides; Anthropic's through Messages; Google's Gemini.
    const gpt = r.find("openai", "gpt-5-mini");
    assert.equal(gpt?.api, "openai-responses");
    assert.equal(gpt?.contextWindow, 400_000);
    assert.ok(gpt?.reasoning);
    const claude = r.find("anthropic", "claude-sonnet-4-5");
    assert.equal(claude?.api, "anthropic-messages");
    assert.ok(claude && claude.cost.output > 0 && claude.input.includes("image"));
    assert.equal(r.byProvider("google")[0]?.api, "google-generative-ai");
    // The catalog's limits and prices, as pi shows them.
    const fromCatalog = builtin
      .find((p) => p.id === "anthropic")
      ?.getModels()
      .find((m) => m.id === "claude-sonnet-4-5");
    assert.deepEqual(claude, fromCatalog);
  });

  it("adds valid custom models with defaults and reports invalid ones without losing the rest", () => {
    const r = registryWith();
    const issues = r.setCustomModels([
      {
        provider: "ollama",
        id: "qwen3:8b",
        baseUrl: "http://127.0.0.1:11434/v1/",
        api: "openai-completions",
        noApiKey: true,
      },
      { provider: "lmstudio", id: "x", baseUrl: "not a url", api: "openai-completions" },
      {
        provider: "vllm",
        id: "llama",
        baseUrl: "http://10.0.0.2:8000/v1",
        api: "openai",
        contextWindow: 32_768,
        maxTokens: 4096,
      },
      { provider: "bad", id: "y", baseUrl: "http://h", api: "gemini" },
      "nonsense",
    ]);
    assert.deepEqual(
      issues.map((i) => i.index),
      [1, 4],
    );
    assert.match(issues[0].message, /baseUrl/);
    // An API pi-ai does not have is named (the provider's entry, the API), and the rest loads.
    assert.ok(
      r
        .issues()
        .some((i) => i.file === "agentTree.models.custom" && /"gemini", which pi-ai does not have/.test(i.message)),
    );
    assert.deepEqual(r.find("ollama", "qwen3:8b"), {
      id: "qwen3:8b",
      name: "qwen3:8b",
      api: "openai-completions",
      provider: "ollama",
      baseUrl: "http://127.0.0.1:11434/v1",
      reasoning: false,
      thinkingLevelMap: undefined,
      input: ["text"],
      inputLimits: undefined,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      promptCache: undefined,
      contextWindow: 128_000,
      maxTokens: 8192,
      samplingParams: undefined,
      samplingParamsByThinkingLevel: undefined,
      compat: undefined,
    });
    assert.equal(r.find("vllm", "llama")?.contextWindow, 32_768);
    assert.equal(r.find("vllm", "llama")?.api, "openai-completions", '"openai" is an alias');
    assert.equal(r.byProvider("vllm").length, 1);
    r.setCustomModels([]);
    assert.equal(r.find("ollama", "qwen3:8b"), undefined);
    assert.ok(r.find("openai", "gpt-5-mini"));
  });

  it("a custom model of a built-in provider joins its models and keeps its key", async () => {
    const r = registryWith({
      env: { OPENAI_API_KEY: "env-openai" },
      custom: [{ provider: "openai", id: "my-finetune", baseUrl: "https://api.openai.com/v1" }],
    });
    assert.ok(r.find("openai", "my-finetune"));
    assert.ok(r.find("openai", "gpt-5-mini"), "the catalog stays");
    assert.equal((await r.models.getAuth("openai"))?.auth.apiKey, "env-openai");
  });
});

describe("keys: where a provider's key comes from", () => {
  it("a key of the host's wins; else the provider's own variable; else none", async () => {
    const r = registryWith({ env: { OPENAI_API_KEY: "env-openai", ANTHROPIC_API_KEY: "env-ant" } });
    assert.equal((await r.models.getAuth("openai", { apiKey: "host-key" }))?.auth.apiKey, "host-key");
    assert.equal((await r.models.getAuth("openai"))?.auth.apiKey, "env-openai");
    assert.equal((await r.models.getAuth("anthropic"))?.auth.apiKey, "env-ant");
    assert.equal(await registryWith({ env: {} }).models.getAuth("openai"), undefined);
  });

  it("never hands another provider's key to a custom endpoint", async () => {
    const custom = { provider: "my-router", id: "m", baseUrl: "https://router.example/v1" };
    const withOpenAI = registryWith({ env: { OPENAI_API_KEY: "secret" }, custom: [custom] });
    assert.equal(
      await withOpenAI.models.checkAuth("my-router"),
      undefined,
      "not configured: OPENAI_API_KEY is not its key",
    );
    await assert.rejects(withOpenAI.models.getAuth("my-router"), /MY_ROUTER_API_KEY/);
    const own = registryWith({ env: { MY_ROUTER_API_KEY: "or-key" }, custom: [custom] });
    assert.equal((await own.models.getAuth("my-router"))?.auth.apiKey, "or-key");
    const named = registryWith({ env: { MY_KEY: "mine" }, custom: [{ ...custom, apiKeyEnv: "MY_KEY" }] });
    assert.equal((await named.models.getAuth("my-router"))?.auth.apiKey, "mine");
  });
});

describe("key variables (what tools must not see)", () => {
  const env = {
    PATH: "/usr/bin",
    HOME: "/home/me",
    OPENAI_API_KEY: "o",
    ANTHROPIC_API_KEY: "a",
    ANTHROPIC_AUTH_TOKEN: "t",
    OPEN_ROUTER_API_KEY: "r",
    GROQ_API_KEY: "g",
    MY_SECRET: "s",
    HF_TOKEN: "h",
    COPILOT_GITHUB_TOKEN: "c",
    GITHUB_TOKEN: "gh",
    AWS_PROFILE: "work",
    GOOGLE_CLOUD_PROJECT: "proj",
  };
  let registry: ModelRegistry;
  before(async () => {
    registry = registryWith({
      env,
      custom: [
        {
          provider: "local",
          id: "m",
          api: "openai-completions",
          baseUrl: "http://127.0.0.1:1/v1",
          apiKeyEnv: "MY_SECRET",
        },
        { provider: "open-router", id: "m", api: "openai-completions", baseUrl: "http://127.0.0.1:1/v1" },
      ],
    });
    await registry.refreshAuth();
  });

  it("names every variable a provider reads its key from (as the provider says), and any <NAME>_API_KEY", () => {
    assert.deepEqual(keyEnvNames(env, registry).sort(), [
      "ANTHROPIC_API_KEY",
      "ANTHROPIC_AUTH_TOKEN",
      "COPILOT_GITHUB_TOKEN",
      "GROQ_API_KEY",
      "HF_TOKEN",
      "MY_SECRET",
      "OPENAI_API_KEY",
      "OPEN_ROUTER_API_KEY",
    ]);
    // The names come from the providers: each one's own key variable is among them.
    for (const [provider, name] of [
      ["openai", "OPENAI_API_KEY"],
      ["anthropic", "ANTHROPIC_API_KEY"],
      ["huggingface", "HF_TOKEN"],
      ["github-copilot", "COPILOT_GITHUB_TOKEN"],
      ["local", "MY_SECRET"],
    ])
      assert.ok(registry.provider(provider)?.auth.apiKey?.envNames.includes(name), `${provider} reads ${name}`);
  });

  it("withoutKeys keeps everything else (a profile, a project, other tokens); keyEnvValues lists the values", () => {
    assert.deepEqual(withoutKeys(env, registry), {
      PATH: "/usr/bin",
      HOME: "/home/me",
      GITHUB_TOKEN: "gh",
      AWS_PROFILE: "work",
      GOOGLE_CLOUD_PROJECT: "proj",
    });
    assert.deepEqual(keyEnvValues(env, registry).sort(), ["a", "c", "g", "h", "o", "r", "s", "t"]);
  });

  it("without a registry, pi-ai's credential variables and every *_API_KEY still go", () => {
    assert.deepEqual(Object.keys(withoutKeys(env)).sort(), [
      "AWS_PROFILE",
      "GITHUB_TOKEN",
      "GOOGLE_CLOUD_PROJECT",
      "HOME",
      "MY_SECRET",
      "PATH",
    ]);
  });
});

describe("retry policy and error helpers", () => {
  it("parses Retry-After seconds, dates and retry-after-ms", () => {
    assert.equal(parseRetryAfter(new Headers({ "retry-after": "3" })), 3000);
    assert.equal(parseRetryAfter(new Headers({ "retry-after-ms": "250" })), 250);
    assert.equal(parseRetryAfter(new Headers({ "retry-after": new Date(10_000).toUTCString() }), 4_000), 6_000);
    assert.equal(parseRetryAfter(new Headers({ "retry-after": "soon" })), undefined);
  });
  it("backs off exponentially and caps waits, including Retry-After", () => {
    const err = new ProviderError("server", "x");
    assert.deepEqual(
      [1, 2, 3].map((a) => retryDelay(a, err, { retryBaseDelayMs: 100 })),
      [100, 200, 400],
    );
    const slow = new ProviderError("rate_limit", "x", { retryAfterMs: 3_600_000 });
    assert.equal(retryDelay(1, slow, { maxRetryDelayMs: 30_000 }), 30_000);
  });
  it("redacts keys", () => {
    assert.equal(redactSecrets("bad key sk-proj-abcdefghijklmnop", undefined), "bad key sk-proj***");
    assert.equal(redactSecrets("key=hunter2-long-secret", "hunter2-long-secret"), "key=***");
  });
});
