/** Where a model's API key comes from. */
import type { ModelInfo } from "./types.js";

/** Environment variable consulted for a model's key. Custom endpoints never fall back to OpenAI's or Anthropic's key, so it cannot leak to a third-party server. */
export function apiKeyEnvName(model: ModelInfo): string | undefined {
  if (model.apiKeyEnv) return model.apiKeyEnv;
  if (model.provider === "openai") return "OPENAI_API_KEY";
  if (model.provider === "anthropic") return "ANTHROPIC_API_KEY";
  const slug = model.provider.toUpperCase().replace(/[^A-Z0-9]+/g, "_");
  return slug ? `${slug}_API_KEY` : undefined;
}

/**
 * The key for `model`: the host's (SecretStorage) first, else the environment variable.
 * Returns undefined when none is set (fine for `noApiKey` local servers).
 */
export function resolveApiKey(
  model: ModelInfo,
  fromHost?: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const host = fromHost?.trim();
  if (host) return host;
  const name = apiKeyEnvName(model);
  const v = name ? env[name]?.trim() : undefined;
  return v || undefined;
}
