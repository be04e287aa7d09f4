/**
 * The setting `agentTree.models.custom` (a list of models, each naming its provider and endpoint), mapped onto
 * pi's models.json shape, so one composition (provider-compose.ts) builds pi-ai providers from both: each entry
 * becomes a `models` entry of its provider, `noApiKey` a keyless provider, `apiKeyEnv` the provider's `apiKey`
 * ("$NAME"). A provider that is not built in reads `<PROVIDER>_API_KEY` unless told otherwise, so a custom endpoint
 * never gets another provider's key.
 */
import type { PiModelDefinition, PiModelsConfig, PiProviderConfig } from "./pi-models-json.js";

/** Context window assumed for a custom model that does not say. */
export const DEFAULT_CUSTOM_CONTEXT_WINDOW = 128_000;
/** Output limit assumed for a custom model that does not say. */
export const DEFAULT_CUSTOM_MAX_TOKENS = 8_192;

/** One rejected entry of a custom model list. */
export interface CustomModelIssue {
  index: number;
  message: string;
}

/** A valid entry: its provider, its model, and what it says about the provider's key. */
export interface CustomModelEntry {
  provider: string;
  model: PiModelDefinition & { api: string; baseUrl: string; contextWindow: number; maxTokens: number };
  noApiKey: boolean;
  apiKeyEnv?: string;
}

/** API aliases older settings use. */
const API_ALIASES: Record<string, string> = { openai: "openai-completions", anthropic: "anthropic-messages" };

/** The environment variable a provider without `apiKeyEnv` reads: `<PROVIDER>_API_KEY`. */
export function defaultKeyEnvName(provider: string): string | undefined {
  const slug = provider
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return slug ? `${slug}_API_KEY` : undefined;
}

function isPositiveInt(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v > 0;
}

/** Validates one entry of the setting. Returns it, or why it is rejected. */
export function parseCustomModel(raw: unknown): CustomModelEntry | string {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return "must be an object";
  const r = raw as Record<string, unknown>;
  if (typeof r.provider !== "string" || !r.provider.trim()) return '"provider" must be a non-empty string';
  if (typeof r.id !== "string" || !r.id.trim()) return '"id" must be a non-empty string';
  if (typeof r.baseUrl !== "string" || !/^https?:\/\/\S+$/.test(r.baseUrl)) return '"baseUrl" must be an http(s) URL';
  const rawApi = r.api ?? "openai-completions";
  if (typeof rawApi !== "string" || !rawApi.trim()) return '"api" must be a pi-ai API id, e.g. "openai-completions"';
  const api = API_ALIASES[rawApi] ?? rawApi;
  if (r.contextWindow !== undefined && !isPositiveInt(r.contextWindow))
    return '"contextWindow" must be a positive integer';
  if (r.maxTokens !== undefined && !isPositiveInt(r.maxTokens)) return '"maxTokens" must be a positive integer';
  if (r.name !== undefined && typeof r.name !== "string") return '"name" must be a string';
  if (r.apiKeyEnv !== undefined && (typeof r.apiKeyEnv !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(r.apiKeyEnv)))
    return '"apiKeyEnv" must be the name of an environment variable';
  if (
    r.input !== undefined &&
    (!Array.isArray(r.input) || !r.input.every((i: unknown) => i === "text" || i === "image"))
  )
    return '"input" must be a list of "text" and "image"';
  let cost: PiModelDefinition["cost"];
  if (r.cost !== undefined) {
    const c = r.cost as Record<string, unknown> | null;
    const nums = ["input", "output", "cacheRead", "cacheWrite"] as const;
    if (
      typeof c !== "object" ||
      c === null ||
      !nums.every((k) => c[k] === undefined || (typeof c[k] === "number" && (c[k] as number) >= 0))
    )
      return '"cost" must be {input, output, cacheRead?, cacheWrite?} in USD per million tokens';
    cost = {
      input: Number(c.input ?? 0),
      output: Number(c.output ?? 0),
      cacheRead: Number(c.cacheRead ?? 0),
      cacheWrite: Number(c.cacheWrite ?? 0),
    };
  }
  const contextWindow = (r.contextWindow as number | undefined) ?? DEFAULT_CUSTOM_CONTEXT_WINDOW;
  const model: CustomModelEntry["model"] = {
    id: r.id,
    name: typeof r.name === "string" && r.name.trim() ? r.name : r.id,
    api,
    baseUrl: r.baseUrl.replace(/\/+$/, ""),
    contextWindow,
    maxTokens: Math.min((r.maxTokens as number | undefined) ?? DEFAULT_CUSTOM_MAX_TOKENS, contextWindow),
    reasoning: r.reasoning === true,
    // pi's models.json: `input` says what a model reads; without it a custom model takes text only.
    input: Array.isArray(r.input) ? [...new Set(r.input as ("text" | "image")[])] : ["text"],
  };
  // pi's thinking levels: "xhigh" only where the model's level map names it.
  if (r.reasoning === true && r.supportsXhigh === true) model.thinkingLevelMap = { xhigh: "xhigh" };
  if (cost) model.cost = cost;
  const entry: CustomModelEntry = { provider: r.provider, model, noApiKey: r.noApiKey === true };
  if (typeof r.apiKeyEnv === "string") entry.apiKeyEnv = r.apiKeyEnv;
  return entry;
}

/**
 * The setting as models.json providers. `builtinIds` are the providers pi-ai has: their key stays theirs (an entry
 * adds a model to them); any other provider reads `apiKeyEnv` or `<PROVIDER>_API_KEY`, or nothing with `noApiKey`.
 * Invalid entries are skipped and reported, so a typo in one does not lose the others.
 */
export function customModelsConfig(
  raw: readonly unknown[],
  builtinIds: ReadonlySet<string>,
): { config: PiModelsConfig; issues: CustomModelIssue[] } {
  const issues: CustomModelIssue[] = [];
  const providers: Record<string, PiProviderConfig> = {};
  raw.forEach((value, index) => {
    const entry = parseCustomModel(value);
    if (typeof entry === "string") {
      issues.push({ index, message: `Custom model #${index + 1}: ${entry}` });
      return;
    }
    const provider = (providers[entry.provider] ??= { models: [] });
    provider.models?.push(entry.model);
    if (entry.noApiKey) provider.keyless = true;
    else if (entry.apiKeyEnv) provider.apiKey ??= `$${entry.apiKeyEnv}`;
  });
  for (const [id, provider] of Object.entries(providers)) {
    if (provider.keyless || provider.apiKey || builtinIds.has(id)) continue;
    const env = defaultKeyEnvName(id);
    if (env) provider.apiKey = `$${env}`;
  }
  return { config: { providers }, issues };
}
