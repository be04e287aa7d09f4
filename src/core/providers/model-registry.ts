/** Known models: the built-ins plus user-defined ones for custom endpoints. */
import { BUILTIN_MODELS } from "./builtin-models.js";
import type { CustomModelConfig, ModelApi, ModelInfo } from "./types.js";

/** Context window assumed for a custom model that does not say. */
export const DEFAULT_CUSTOM_CONTEXT_WINDOW = 128_000;
/** Output limit assumed for a custom model that does not say. */
export const DEFAULT_CUSTOM_MAX_TOKENS = 8_192;

const APIS: readonly ModelApi[] = ["openai-completions", "anthropic-messages"];

/** One rejected entry of a custom model list. */
export interface CustomModelIssue {
  index: number;
  message: string;
}

function isPositiveInt(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v > 0;
}

/**
 * Validate one JSON value from settings as a custom model. Returns the model or a reason.
 * Accepts `api` aliases "openai" and "anthropic".
 */
export function parseCustomModel(raw: unknown): ModelInfo | string {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return "must be an object";
  const r = raw as Record<string, unknown>;
  if (typeof r.provider !== "string" || !r.provider.trim()) return '"provider" must be a non-empty string';
  if (typeof r.id !== "string" || !r.id.trim()) return '"id" must be a non-empty string';
  if (typeof r.baseUrl !== "string" || !/^https?:\/\/\S+$/.test(r.baseUrl)) return '"baseUrl" must be an http(s) URL';
  const api = r.api === "openai" ? "openai-completions" : r.api === "anthropic" ? "anthropic-messages" : r.api;
  if (!APIS.includes(api as ModelApi)) return `"api" must be one of ${APIS.join(", ")}`;
  if (r.contextWindow !== undefined && !isPositiveInt(r.contextWindow))
    return '"contextWindow" must be a positive integer';
  if (r.maxTokens !== undefined && !isPositiveInt(r.maxTokens)) return '"maxTokens" must be a positive integer';
  if (r.name !== undefined && typeof r.name !== "string") return '"name" must be a string';
  if (r.apiKeyEnv !== undefined && typeof r.apiKeyEnv !== "string") return '"apiKeyEnv" must be a string';
  if (
    r.input !== undefined &&
    (!Array.isArray(r.input) || !r.input.every((i: unknown) => i === "text" || i === "image"))
  )
    return '"input" must be a list of "text" and "image"';
  let cost: ModelInfo["cost"];
  if (r.cost !== undefined) {
    const c = r.cost as Record<string, unknown> | null;
    const nums = ["input", "output", "cacheRead", "cacheWrite"] as const;
    if (
      typeof c !== "object" ||
      c === null ||
      !nums.every((k) => c[k] === undefined || (typeof c[k] === "number" && c[k] >= 0))
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
  const maxTokens = Math.min((r.maxTokens as number | undefined) ?? DEFAULT_CUSTOM_MAX_TOKENS, contextWindow);
  const model: ModelInfo = {
    id: r.id,
    name: typeof r.name === "string" && r.name.trim() ? r.name : r.id,
    provider: r.provider,
    api: api as ModelApi,
    baseUrl: r.baseUrl.replace(/\/+$/, ""),
    contextWindow,
    maxTokens,
  };
  if (r.noApiKey === true) model.noApiKey = true;
  if (r.reasoning === true) model.reasoning = true;
  // pi's models.json: `input` says what a model reads; without it a custom model takes text only.
  if (Array.isArray(r.input)) model.input = [...new Set(r.input as ("text" | "image")[])];
  if (r.reasoning === true && r.supportsXhigh === true) model.supportsXhigh = true;
  if (typeof r.apiKeyEnv === "string" && r.apiKeyEnv) model.apiKeyEnv = r.apiKeyEnv;
  if (cost) model.cost = cost;
  return model;
}

/** Registry of models; built-ins first, custom models may shadow a built-in with the same provider/id. */
export class ModelRegistry {
  private readonly models = new Map<string, ModelInfo>();

  /** @param custom user-defined models (already validated or raw settings JSON). */
  constructor(custom: readonly (CustomModelConfig | ModelInfo)[] = []) {
    for (const m of BUILTIN_MODELS) this.models.set(key(m.provider, m.id), m);
    if (custom.length) this.addCustomModels(custom);
  }

  /**
   * Add user-defined models. Invalid entries are skipped and reported (nothing throws), so a typo
   * in one settings entry does not lose the others.
   */
  addCustomModels(configs: readonly unknown[]): CustomModelIssue[] {
    const issues: CustomModelIssue[] = [];
    configs.forEach((c, index) => {
      const parsed = parseCustomModel(c);
      if (typeof parsed === "string") issues.push({ index, message: `Custom model #${index + 1}: ${parsed}` });
      else this.models.set(key(parsed.provider, parsed.id), parsed);
    });
    return issues;
  }

  /** Remove every user-defined model (used when settings change). */
  clearCustomModels(): void {
    this.models.clear();
    for (const m of BUILTIN_MODELS) this.models.set(key(m.provider, m.id), m);
  }

  /** The model with this provider and id, if known. */
  find(provider: string, id: string): ModelInfo | undefined {
    return this.models.get(key(provider, id));
  }

  /** All models, built-ins first. */
  all(): ModelInfo[] {
    return [...this.models.values()];
  }

  /** Models of one provider. */
  byProvider(provider: string): ModelInfo[] {
    return this.all().filter((m) => m.provider === provider);
  }
}

function key(provider: string, id: string): string {
  return `${provider}\u0000${id}`;
}
