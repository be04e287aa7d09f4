/**
 * Built-in models. Limits and USD-per-million prices as published by the vendors (2025);
 * they only drive budgets and cost display, so a stale price is harmless.
 */
import type { ModelInfo } from "./types.js";

type Price = NonNullable<ModelInfo["cost"]>;

function openai(
  id: string,
  name: string,
  contextWindow: number,
  maxTokens: number,
  cost: Price,
  reasoning = false,
): ModelInfo {
  // Every built-in model reads images.
  return {
    id,
    name,
    provider: "openai",
    api: "openai-completions",
    contextWindow,
    maxTokens,
    cost,
    reasoning,
    input: ["text", "image"],
  };
}

function anthropic(id: string, name: string, maxTokens: number, cost: Price, reasoning = true): ModelInfo {
  return {
    id,
    name,
    provider: "anthropic",
    api: "anthropic-messages",
    contextWindow: 200_000,
    maxTokens,
    cost,
    reasoning,
    input: ["text", "image"],
  };
}

/** The models every installation knows. */
export const BUILTIN_MODELS: readonly ModelInfo[] = [
  openai("gpt-5", "GPT-5", 400_000, 128_000, { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 }, true),
  openai(
    "gpt-5-mini",
    "GPT-5 mini",
    400_000,
    128_000,
    { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 },
    true,
  ),
  openai("gpt-4.1", "GPT-4.1", 1_047_576, 32_768, { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 }),
  openai("gpt-4.1-mini", "GPT-4.1 mini", 1_047_576, 32_768, { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0 }),
  openai("gpt-4o", "GPT-4o", 128_000, 16_384, { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 0 }),
  openai("gpt-4o-mini", "GPT-4o mini", 128_000, 16_384, { input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: 0 }),
  openai("o3", "o3", 200_000, 100_000, { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 }, true),
  openai("o4-mini", "o4-mini", 200_000, 100_000, { input: 1.1, output: 4.4, cacheRead: 0.275, cacheWrite: 0 }, true),
  anthropic("claude-sonnet-4-5", "Claude Sonnet 4.5", 64_000, {
    input: 3,
    output: 15,
    cacheRead: 0.3,
    cacheWrite: 3.75,
  }),
  anthropic("claude-haiku-4-5", "Claude Haiku 4.5", 64_000, { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }),
  anthropic("claude-opus-4-1", "Claude Opus 4.1", 32_000, { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }),
  anthropic("claude-sonnet-4-0", "Claude Sonnet 4", 64_000, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }),
  anthropic(
    "claude-3-5-haiku-latest",
    "Claude Haiku 3.5",
    8_192,
    { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
    false,
  ),
];
