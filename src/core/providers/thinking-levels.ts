/**
 * Which thinking levels a model takes, as pi 1.6 decides it: a model without reasoning only "off"; a reasoning
 * model off through high, and "xhigh" only when the registry says the model has it. A level the model does not
 * take is clamped to the nearest one it does (upwards first, as pi does), so a branch keeps the level it
 * recorded while a request never carries one the model would refuse.
 */
import type { ModelInfo, ThinkingLevel } from "./types.js";

/** Every level, weakest first. */
export const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/** A short description of each level (pickers). */
export const THINKING_LEVEL_DESCRIPTIONS: Readonly<Record<ThinkingLevel, string>> = {
  off: "No reasoning",
  minimal: "Very brief reasoning",
  low: "Light reasoning",
  medium: "Moderate reasoning",
  high: "Deep reasoning",
  xhigh: "Extra-high reasoning",
};

/** True for one of THINKING_LEVELS. */
export function isThinkingLevel(value: unknown): value is ThinkingLevel {
  return typeof value === "string" && (THINKING_LEVELS as readonly string[]).includes(value);
}

/** The levels `model` takes (only "off" without a model or without reasoning). */
export function supportedThinkingLevels(model: ModelInfo | undefined): ThinkingLevel[] {
  if (!model?.reasoning) return ["off"];
  return THINKING_LEVELS.filter((level) => level !== "xhigh" || model.supportsXhigh === true);
}

/** `level` if `model` takes it, else the nearest level it takes (the next stronger one first). */
export function clampThinkingLevel(model: ModelInfo | undefined, level: ThinkingLevel): ThinkingLevel {
  const available = supportedThinkingLevels(model);
  if (available.includes(level)) return level;
  const index = THINKING_LEVELS.indexOf(level);
  for (let i = index + 1; i < THINKING_LEVELS.length; i++)
    if (available.includes(THINKING_LEVELS[i])) return THINKING_LEVELS[i];
  for (let i = index - 1; i >= 0; i--) if (available.includes(THINKING_LEVELS[i])) return THINKING_LEVELS[i];
  return "off";
}
