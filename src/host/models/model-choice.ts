/** Which models the chat offers, the default one, and why there is none. Pure. */
import { acceptsImages } from "../../core/mentions/image-attachment.js";
import type { ModelInfo } from "../../core/providers/types.js";
import type { ModelDto } from "../../shared/protocol.js";

/** `provider/id` — the key used by the setting `agentTree.model` and the webview picker. */
export function modelKey(m: Pick<ModelInfo, "provider" | "id">): string {
  return `${m.provider}/${m.id}`;
}

/** Split a key at the first "/" (model ids may contain slashes, providers do not). */
export function parseModelKey(key: string): { provider: string; id: string } | undefined {
  const i = key.indexOf("/");
  if (i <= 0 || i === key.length - 1) return undefined;
  return { provider: key.slice(0, i), id: key.slice(i + 1) };
}

/** One model for the picker. */
export function toModelDto(m: ModelInfo): ModelDto {
  const dto: ModelDto = { key: modelKey(m), name: m.name, provider: m.provider, contextWindow: m.contextWindow };
  if (acceptsImages(m)) dto.images = true;
  return dto;
}

/** Models that can be called now (`usable`: a key, a login, or none needed). */
export function usableModels(all: readonly ModelInfo[], usable: (m: ModelInfo) => boolean): ModelInfo[] {
  return all.filter((m) => usable(m));
}

/**
 * The model to start with: the setting (`agentTree.model`) if usable, else the session's last model if usable, else
 * `fallbackKey` (pi's settings.json `defaultProvider`/`defaultModel`, which pi too uses only when the session names
 * no model) if usable, else the first usable one.
 */
export function pickDefaultModel(
  usable: readonly ModelInfo[],
  settingKey: string,
  sessionModel?: { provider: string; modelId: string },
  fallbackKey = "",
): ModelInfo | undefined {
  const byKey = (k: string): ModelInfo | undefined => usable.find((m) => modelKey(m) === k);
  return (
    (settingKey ? byKey(settingKey) : undefined) ??
    (sessionModel ? byKey(`${sessionModel.provider}/${sessionModel.modelId}`) : undefined) ??
    (fallbackKey ? byKey(fallbackKey) : undefined) ??
    usable[0]
  );
}

/** Shown in the chat instead of an input when nothing can be called. */
export const NO_MODEL_REASON =
  "No model available: set an API key (“Agent: Set API Key”, or OPENAI_API_KEY / ANTHROPIC_API_KEY in the " +
  "environment), log in with a subscription (“Agent: Log In…”: Claude Pro/Max, ChatGPT, GitHub Copilot), or add a " +
  "local model under the setting agentTree.models.custom. The session tree still works (summaries are extractive).";
