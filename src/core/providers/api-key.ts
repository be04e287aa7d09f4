/**
 * Where a model's API key comes from, and the one registry of environment variables that hold keys: tools
 * that start processes remove exactly these, and tool output is redacted of their values.
 */
import type { ModelInfo } from "./types.js";

/**
 * Credentials of the built-in providers beyond their `*_API_KEY`: Anthropic's bearer token. The providers never
 * send it (a key is always passed to the SDK, so the SDK does not read it either), but it is a key all the same.
 */
const SDK_CREDENTIAL_ENV: readonly string[] = ["ANTHROPIC_AUTH_TOKEN"];

/**
 * The shape of the variable read for a provider without `apiKeyEnv` (see `apiKeyEnvName`). Custom providers
 * come from settings that can change at any moment, so any variable of this shape is a key the provider layer
 * reads as soon as a provider of that name is configured (`OPENROUTER_API_KEY`, `GROQ_API_KEY`, …).
 */
const PROVIDER_KEY_ENV = /^[A-Z0-9_]+_API_KEY$/;

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

/**
 * Names in `env` that hold (or, for a provider configured later, would hold) a model key: every model's
 * `apiKeyEnvName` (so each `apiKeyEnv`), every `<PROVIDER>_API_KEY`, and the SDKs' own credential variables.
 */
export function keyEnvNames(env: NodeJS.ProcessEnv, models: Iterable<ModelInfo>): string[] {
  const named = new Set(SDK_CREDENTIAL_ENV);
  for (const m of models) {
    const name = apiKeyEnvName(m);
    if (name) named.add(name);
  }
  return Object.keys(env).filter((k) => named.has(k) || PROVIDER_KEY_ENV.test(k));
}

/** A copy of `env` without any key variable (see `keyEnvNames`): what a tool's process may see. */
export function withoutKeys(env: NodeJS.ProcessEnv, models: Iterable<ModelInfo>): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const k of keyEnvNames(env, models)) delete out[k];
  return out;
}

/** The values of the key variables set in `env` (see `keyEnvNames`). */
export function keyEnvValues(env: NodeJS.ProcessEnv, models: Iterable<ModelInfo>): string[] {
  return keyEnvNames(env, models).flatMap((k) => {
    const v = env[k]?.trim();
    return v ? [v] : [];
  });
}
