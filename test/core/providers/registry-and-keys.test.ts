import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { keyEnvNames, keyEnvValues, resolveApiKey, withoutKeys } from "../../../src/core/providers/api-key.js";
import { ModelRegistry } from "../../../src/core/providers/model-registry.js";
import { parseRetryAfter, redactSecrets } from "../../../src/core/providers/provider-error.js";
import { retryDelay } from "../../../src/core/providers/retry.js";
import { ProviderError } from "../../../src/core/providers/provider-error.js";

describe("ModelRegistry", () => {
  it("knows built-in OpenAI and Anthropic models with limits and prices", () => {
    const r = new ModelRegistry();
    const gpt = r.find("openai", "gpt-4.1");
    assert.equal(gpt?.api, "openai-completions");
    assert.ok((gpt?.contextWindow ?? 0) > 100_000);
    const claude = r.find("anthropic", "claude-sonnet-4-5");
    assert.equal(claude?.api, "anthropic-messages");
    assert.equal(claude?.maxTokens, 64_000);
    assert.ok(claude?.cost && claude.cost.output > 0);
    for (const m of r.all()) assert.ok(m.maxTokens <= m.contextWindow, m.id);
  });

  it("adds valid custom models with defaults and reports invalid ones without losing the rest", () => {
    const r = new ModelRegistry();
    const issues = r.addCustomModels([
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
      [1, 3, 4],
    );
    assert.match(issues[0].message, /baseUrl/);
    assert.match(issues[1].message, /"api" must be one of/);
    const ollama = r.find("ollama", "qwen3:8b");
    assert.deepEqual(ollama, {
      id: "qwen3:8b",
      name: "qwen3:8b",
      provider: "ollama",
      api: "openai-completions",
      baseUrl: "http://127.0.0.1:11434/v1",
      contextWindow: 128_000,
      maxTokens: 8192,
      noApiKey: true,
    });
    assert.equal(r.find("vllm", "llama")?.contextWindow, 32_768);
    assert.equal(r.byProvider("vllm").length, 1);
    r.clearCustomModels();
    assert.equal(r.find("ollama", "qwen3:8b"), undefined);
    assert.ok(r.find("openai", "gpt-4.1"));
  });
});

describe("resolveApiKey", () => {
  const openai = new ModelRegistry().find("openai", "gpt-4.1");
  const claude = new ModelRegistry().find("anthropic", "claude-sonnet-4-5");
  assert.ok(openai && claude);
  it("prefers the host key, then the provider's env var", () => {
    const env = { OPENAI_API_KEY: "env-openai", ANTHROPIC_API_KEY: "env-ant" };
    assert.equal(resolveApiKey(openai, "host-key", env), "host-key");
    assert.equal(resolveApiKey(openai, "  ", env), "env-openai");
    assert.equal(resolveApiKey(claude, undefined, env), "env-ant");
    assert.equal(resolveApiKey(openai, undefined, {}), undefined);
  });
  it("never hands OpenAI's key to a custom endpoint", () => {
    const custom = {
      id: "m",
      name: "m",
      provider: "openrouter",
      api: "openai-completions" as const,
      baseUrl: "https://openrouter.ai/api/v1",
      contextWindow: 1000,
      maxTokens: 100,
    };
    assert.equal(resolveApiKey(custom, undefined, { OPENAI_API_KEY: "secret" }), undefined);
    assert.equal(resolveApiKey(custom, undefined, { OPENROUTER_API_KEY: "or-key" }), "or-key");
    assert.equal(resolveApiKey({ ...custom, apiKeyEnv: "MY_KEY" }, undefined, { MY_KEY: "mine" }), "mine");
  });
});

describe("key variables (what tools must not see)", () => {
  const registry = new ModelRegistry([
    { provider: "local", id: "m", api: "openai-completions", baseUrl: "http://127.0.0.1:1/v1", apiKeyEnv: "MY_SECRET" },
    { provider: "open-router", id: "m", api: "openai-completions", baseUrl: "http://127.0.0.1:1/v1" },
  ]);
  const env = {
    PATH: "/usr/bin",
    HOME: "/home/me",
    OPENAI_API_KEY: "o",
    ANTHROPIC_API_KEY: "a",
    ANTHROPIC_AUTH_TOKEN: "t",
    OPEN_ROUTER_API_KEY: "r",
    GROQ_API_KEY: "g",
    MY_SECRET: "s",
    GITHUB_TOKEN: "gh",
  };

  it("names every variable the provider layer reads for a key: built-in, custom, apiKeyEnv, any <PROVIDER>_API_KEY", () => {
    assert.deepEqual(keyEnvNames(env, registry.all()).sort(), [
      "ANTHROPIC_API_KEY",
      "ANTHROPIC_AUTH_TOKEN",
      "GROQ_API_KEY",
      "MY_SECRET",
      "OPENAI_API_KEY",
      "OPEN_ROUTER_API_KEY",
    ]);
    // Each name is one the registry's models really resolve their key from.
    for (const m of registry.all()) {
      const name = keyEnvNames(env, [m]).find((n) => resolveApiKey(m, undefined, { [n]: "x" }) === "x");
      assert.ok(name, `${m.provider}/${m.id}`);
    }
  });

  it("withoutKeys keeps everything else; keyEnvValues lists the values", () => {
    assert.deepEqual(withoutKeys(env, registry.all()), { PATH: "/usr/bin", HOME: "/home/me", GITHUB_TOKEN: "gh" });
    assert.deepEqual(keyEnvValues(env, registry.all()).sort(), ["a", "g", "o", "r", "s", "t"]);
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
