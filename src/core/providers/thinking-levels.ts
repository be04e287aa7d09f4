/**
 * Which thinking levels a model takes: pi-ai decides it from the model (`reasoning`, `thinkingLevelMap`), as pi
 * 1.6 does — a model without reasoning only "off"; a reasoning model the levels its map does not mark unsupported,
 * "xhigh" and "max" only where the map names them (some, such as GPT-5 mini, cannot turn reasoning off). A level
 * the model does not take is clamped to the nearest one it does (upwards first), so a branch keeps the level it
 * recorded while a request never carries one the model would refuse.
 */
import { piAiLoaded } from "./pi-ai.js";
import type { ModelInfo, ThinkingLevel } from "./types.js";

/** Every level, weakest first (pi 1.6's). */
export const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

/** A short description of each level (pickers). */
export const THINKING_LEVEL_DESCRIPTIONS: Readonly<Record<ThinkingLevel, string>> = {
  off: "No reasoning",
  minimal: "Very brief reasoning",
  low: "Light reasoning",
  medium: "Moderate reasoning",
  high: "Deep reasoning",
  xhigh: "Extra-high reasoning",
  max: "Maximum reasoning",
};

/** True for one of pi's level names. */
export function isThinkingLevel(value: unknown): value is ThinkingLevel {
  return typeof value === "string" && (THINKING_LEVELS as readonly string[]).includes(value);
}

/** The levels `model` takes (only "off" without a model). The model library must be loaded (any registry has). */
export function supportedThinkingLevels(model: ModelInfo | undefined): ThinkingLevel[] {
  if (!model) return ["off"];
  return piAiLoaded().getSupportedThinkingLevels(model);
}

/** `level` if `model` takes it, else the nearest level it takes (the next stronger one first). */
export function clampThinkingLevel(model: ModelInfo | undefined, level: ThinkingLevel): ThinkingLevel {
  if (!model) return "off";
  return piAiLoaded().clampThinkingLevel(model, level);
}
