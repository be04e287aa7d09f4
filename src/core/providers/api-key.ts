/**
 * The environment variables that hold model keys: tools that start processes remove exactly these, and tool output
 * is redacted of their values. The providers say which variables they read (`ModelRegistry.keyEnvNames()`, asked of
 * each provider's own auth); to these come the credentials pi-ai reads that no `*_API_KEY` pattern catches, and
 * any variable of the shape `<NAME>_API_KEY` — settings can name a new provider at any moment, and its key is a key
 * from the start.
 */

/** pi-ai's credential variables that are not `*_API_KEY` (its README, "Environment Variables"; Bedrock's AWS keys). */
const CREDENTIAL_ENV: readonly string[] = [
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_OAUTH_TOKEN",
  "COPILOT_GITHUB_TOKEN",
  "HF_TOKEN",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_BEARER_TOKEN_BEDROCK",
];

/** The shape of a key variable of any provider (`OPENROUTER_API_KEY`, `GROQ_API_KEY`, …). */
const PROVIDER_KEY_ENV = /^[A-Z0-9_]+_API_KEY$/;

/** What knows the providers' variables (a ModelRegistry). */
export interface KeyEnvSource {
  keyEnvNames(): readonly string[];
  /** The secret values of the stored credentials (keys, OAuth tokens) it has seen: redacted like the variables'. */
  secretValues?(): readonly string[];
}

/** Names in `env` that hold (or, for a provider configured later, would hold) a model key. */
export function keyEnvNames(env: NodeJS.ProcessEnv, source?: KeyEnvSource): string[] {
  const named = new Set([...CREDENTIAL_ENV, ...(source?.keyEnvNames() ?? [])]);
  return Object.keys(env).filter((k) => named.has(k) || PROVIDER_KEY_ENV.test(k));
}

/** A copy of `env` without any key variable (see `keyEnvNames`): what a tool's process may see. */
export function withoutKeys(env: NodeJS.ProcessEnv, source?: KeyEnvSource): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const k of keyEnvNames(env, source)) delete out[k];
  return out;
}

/**
 * The values a tool's output is redacted of: the key variables set in `env` (see `keyEnvNames`), and the secrets of
 * the credentials `source` stores (keys entered with "Agent: Set API Key", login tokens), which are in no variable.
 */
export function keyEnvValues(env: NodeJS.ProcessEnv, source?: KeyEnvSource): string[] {
  const values = keyEnvNames(env, source).flatMap((k) => {
    const v = env[k]?.trim();
    return v ? [v] : [];
  });
  return [...values, ...(source?.secretValues?.() ?? [])];
}
