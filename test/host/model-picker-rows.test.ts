/**
 * The model picker's rows over the whole catalog (1,698 models of pi-ai 1.6.0 plus a local model and VS Code's):
 * the short list first, then the providers that can be called (VS Code's first), then those that cannot, each with
 * its "Log In…" / "Set API Key…" before its models; every model once; context window and price in the detail. And
 * "Agent: Next Model"'s cycle.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { ModelRegistry } from "../../src/core/providers/model-registry.js";
import { resolveModelScope } from "../../src/core/providers/model-scope.js";
import { createLmProvider } from "../../src/host/models/lm-provider.js";
import { modelDetail, pickerRows, tokensText, type PickerRow } from "../../src/host/models/model-picker-rows.js";
import { nextInShortList } from "../../src/host/models/next-model.js";
import { FakeChat, fakeLmApi } from "./fake-vscode-lm.js";

type ModelRow = Extract<PickerRow, { kind: "model" }>;

describe("the model picker's rows", () => {
  let registry: ModelRegistry;
  before(async () => {
    registry = await ModelRegistry.create({
      env: { GROQ_API_KEY: "gsk-test-key-for-rows" },
      custom: [{ provider: "ollama", id: "qwen", baseUrl: "http://127.0.0.1:9/v1", noApiKey: true }],
    });
    registry.registerProvider(
      createLmProvider(registry.pi, fakeLmApi(), {
        vendor: "copilot",
        displayName: "GitHub Copilot",
        chats: [new FakeChat("gpt-4o", "GPT-4o", "copilot").asChat()],
      }).provider,
    );
    await registry.refreshAuth();
  });

  const rowsWith = (patterns: string[], currentKey?: string): PickerRow[] =>
    pickerRows({
      listings: registry.listModels(),
      providers: registry.providers(),
      shortList: patterns.length ? resolveModelScope(patterns, registry.available()).models : [],
      ...(currentKey ? { currentKey } : {}),
    });

  it("lists every model once, grouped by provider: the ready ones first (VS Code's before the rest), then the others", () => {
    const rows = rowsWith([]);
    const models = rows.filter((r): r is ModelRow => r.kind === "model");
    assert.equal(models.length, registry.all().length);
    assert.ok(registry.all().length > 1600, `the catalog: ${registry.all().length}`);
    assert.equal(new Set(models.map((m) => m.key)).size, models.length);
    const separators = rows.filter((r) => r.kind === "separator").map((r) => (r as { label: string }).label);
    assert.equal(separators[0], "GitHub Copilot (VS Code)");
    // Groq is ready through its variable; Ollama needs no key; both before any provider that is not set up.
    const firstNotReady = separators.findIndex((s) => s.endsWith("· not set up"));
    assert.ok(separators.indexOf("Groq · GROQ_API_KEY") < firstNotReady, separators.slice(0, 5).join(" | "));
    assert.ok(
      separators.slice(0, firstNotReady).some((s) => s.startsWith("ollama")),
      "keyless model among the ready",
    );
    const firstNotReadyRow = rows.findIndex((r) => r.kind === "model" && !r.ready);
    assert.ok(
      rows.slice(firstNotReadyRow).every((r) => r.kind !== "model" || !r.ready),
      "no ready model after",
    );
  });

  it("a provider that is not set up starts with its setup: Log In… and Set API Key… where it has both", () => {
    const rows = rowsWith([]);
    const at = rows.findIndex((r) => r.kind === "separator" && r.label === "Anthropic · not set up");
    assert.ok(at >= 0);
    assert.deepEqual(
      rows
        .slice(at + 1, at + 3)
        .map((r) => (r.kind === "setup" ? `${r.setup}: ${r.label} — ${r.description}` : r.kind)),
      [
        "login: Log In to Anthropic… — Anthropic (Claude Pro/Max)",
        "apiKey: Set API Key for Anthropic… — or set ANTHROPIC_AUTH_TOKEN / ANTHROPIC_OAUTH_TOKEN / ANTHROPIC_API_KEY",
      ],
    );
    const sonnet = rows.find((r): r is ModelRow => r.kind === "model" && r.key === "anthropic/claude-sonnet-4-5");
    assert.ok(sonnet && !sonnet.ready);
    assert.deepEqual(sonnet.setup, ["login", "apiKey"]);
    assert.match(sonnet.description, /^anthropic\/claude-sonnet-4-5 · needs a login or key$/);
    assert.equal(sonnet.detail, "200k context · $3 / $15 per M tokens (in / out) · reasoning · images");
  });

  it("puts the short list first (pi's enabledModels patterns, with their thinking levels) and marks the current model", () => {
    const rows = rowsWith(["groq/*:high", "gpt-4o"], "vscode-copilot/gpt-4o");
    assert.deepEqual(rows[0], { kind: "separator", label: "Short list" });
    const short = rows.slice(
      1,
      rows.findIndex((r, i) => i > 0 && r.kind === "separator"),
    ) as ModelRow[];
    assert.ok(short.length > 1);
    assert.ok(short.slice(0, -1).every((r) => r.providerId === "groq" && r.thinkingLevel === "high"));
    const last = short.at(-1)!;
    assert.equal(last.key, "vscode-copilot/gpt-4o");
    assert.equal(last.current, true);
    assert.match(last.description, /· current$/);
    assert.equal(last.detail, "64k context · through VS Code");
    const keys = rows.filter((r): r is ModelRow => r.kind === "model").map((r) => r.key);
    assert.equal(keys.length, new Set(keys).size, "a short-listed model is not listed again under its provider");
  });

  it("formats token counts and prices briefly", () => {
    assert.deepEqual(
      [tokensText(1_000_000), tokensText(1_048_576), tokensText(200_000), tokensText(512)],
      ["1M", "1M", "200k", "512"],
    );
    const cheap = {
      ...registry.find("anthropic", "claude-sonnet-4-5")!,
      cost: { input: 0.075, output: 0.3, cacheRead: 0, cacheWrite: 0 },
    };
    assert.match(modelDetail(cheap), /\$0\.075 \/ \$0\.30 per M tokens/);
  });
});

describe("Agent: Next Model", () => {
  const m = (id: string) => ({ model: { provider: "p", id } as never });
  it("goes to the next model of the short list, wraps around, starts at the first when the current is not in it", () => {
    const list = [m("a"), m("b"), m("c")];
    assert.equal(nextInShortList(list, "p/a")?.index, 1);
    assert.equal(nextInShortList(list, "p/c")?.index, 0);
    assert.equal(nextInShortList(list, "q/x")?.index, 0);
    assert.equal(nextInShortList(list, undefined)?.index, 0);
    assert.equal(nextInShortList([], "p/a"), undefined);
  });
});
