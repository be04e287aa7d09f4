/** Helpers shared by both providers to build the streamed AssistantMessage. */
import { emptyUsage, type AssistantMessage, type Usage } from "../messages.js";
import type { ModelInfo } from "./types.js";

/** A fresh, empty assistant message for `model`. */
export function newAssistantMessage(model: ModelInfo): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: Date.now(),
  };
}

/** Fill totals and USD cost from token counts and the model's per-million prices. */
export function applyCost(usage: Usage, model: ModelInfo): void {
  usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
  const p = model.cost;
  if (!p) return;
  usage.cost.input = (usage.input * p.input) / 1e6;
  usage.cost.output = (usage.output * p.output) / 1e6;
  usage.cost.cacheRead = (usage.cacheRead * p.cacheRead) / 1e6;
  usage.cost.cacheWrite = (usage.cacheWrite * p.cacheWrite) / 1e6;
  usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
}

/**
 * Parse streamed tool-call arguments. Invalid JSON (or a non-object) is kept verbatim under `_raw`
 * so nothing the model produced is lost and the tool can report a clear error.
 */
export function parseToolArguments(raw: string): Record<string, unknown> {
  if (!raw.trim()) return {};
  try {
    const v: unknown = JSON.parse(raw);
    if (typeof v === "object" && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through: keep the raw text
  }
  return { _raw: raw };
}
