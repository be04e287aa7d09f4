/**
 * pi's `models.json` (in pi's agent folder): custom providers and models, a built-in provider's `baseUrl`, headers,
 * compatibility flags, and per-model overrides — the fields of pi 1.6's docs/models-configuration.md. Read as pi
 * reads it (JSON with comments), with one difference: pi rejects the whole file for one bad field; here the
 * provider, model or override holding it is skipped and named (file and field), and the rest still loads.
 */
import * as fs from "node:fs/promises";
import { parse as parseJsonc, printParseErrorCode, type ParseError } from "jsonc-parser";
import {
  FieldError,
  at,
  isRecord,
  optBoolean,
  optPositive,
  optRecord,
  optString,
  optStringMap,
  type ConfigIssue,
  type JsonRecord,
} from "./json-check.js";
import { errorText } from "../error-text.js";

/** Thinking levels a model's `thinkingLevelMap` may name. */
const MAP_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

/** Prices in USD per million tokens; `tiers` price a whole request above an input size. */
export interface PiModelCost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  tiers?: ({ inputTokensAbove: number } & Omit<PiModelCost, "tiers">)[];
}

/** Fields a model entry and a model override share. */
export interface PiModelFields {
  name?: string;
  reasoning?: boolean;
  /** Provider value per thinking level; null marks a level unsupported. */
  thinkingLevelMap?: Record<string, string | null>;
  input?: ("text" | "image")[];
  inputLimits?: JsonRecord;
  promptCache?: JsonRecord;
  contextWindow?: number;
  maxTokens?: number;
  samplingParams?: JsonRecord;
  samplingParamsByThinkingLevel?: Record<string, JsonRecord>;
  /** Request headers; values resolve like `apiKey`. */
  headers?: Record<string, string>;
  compat?: JsonRecord;
}

/** A `models` entry: adds a model to its provider, or replaces the one with the same id. */
export interface PiModelDefinition extends PiModelFields {
  id: string;
  api?: string;
  baseUrl?: string;
  cost?: PiModelCost;
}

/** A `modelOverrides` entry: changes an existing model's metadata (object fields merge field by field). */
export interface PiModelOverride extends PiModelFields {
  cost?: Partial<PiModelCost>;
}

/** One provider of models.json (a built-in id changes that provider; any other id adds one). */
export interface PiProviderConfig {
  name?: string;
  /** Applies to the provider's built-in models too. */
  baseUrl?: string;
  /** Literal key, `$NAME` / `${NAME}` environment interpolation, or `!command` output. */
  apiKey?: string;
  api?: string;
  headers?: Record<string, string>;
  compat?: JsonRecord;
  /** Send the resolved key as `Authorization: Bearer`. */
  authHeader?: boolean;
  models?: PiModelDefinition[];
  modelOverrides?: Record<string, PiModelOverride>;
  /**
   * Not a models.json field: the provider needs no key at all (a local server; `agentTree.models.custom`'s
   * `noApiKey`). pi's files say the same with a dummy `apiKey`.
   */
  keyless?: boolean;
}

/** The providers of a models.json (or of `agentTree.models.custom`, mapped onto the same shape). */
export interface PiModelsConfig {
  providers: Record<string, PiProviderConfig>;
}

/** An empty configuration. */
export function emptyModelsConfig(): PiModelsConfig {
  return { providers: {} };
}

/** The four prices of `cost` (at `path`); all required unless `partial`. */
function checkRates(cost: JsonRecord, path: string, partial: boolean): Partial<PiModelCost> {
  const out: Partial<PiModelCost> = {};
  for (const field of ["input", "output", "cacheRead", "cacheWrite"] as const) {
    const v = cost[field];
    if (v === undefined) {
      if (!partial) throw new FieldError(at(path, field), "is required (USD per million tokens)");
      continue;
    }
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0)
      throw new FieldError(at(path, field), "must be a number of 0 or more (USD per million tokens)");
    out[field] = v;
  }
  return out;
}

function checkCost(obj: JsonRecord, key: string, path: string, partial: boolean): Partial<PiModelCost> | undefined {
  const cost = optRecord(obj, key, path);
  if (!cost) return undefined;
  const p = at(path, key);
  const out = checkRates(cost, p, partial);
  if (cost.tiers !== undefined) {
    if (!Array.isArray(cost.tiers)) throw new FieldError(at(p, "tiers"), "must be a list");
    out.tiers = cost.tiers.map((tier: unknown, i) => {
      const tp = at(at(p, "tiers"), i);
      if (!isRecord(tier)) throw new FieldError(tp, "must be an object");
      const above = tier.inputTokensAbove;
      if (typeof above !== "number" || above < 0)
        throw new FieldError(at(tp, "inputTokensAbove"), "must be a number of 0 or more");
      return { inputTokensAbove: above, ...(checkRates(tier, tp, false) as Omit<PiModelCost, "tiers">) };
    });
  }
  return out;
}

function checkModelFields(raw: JsonRecord, path: string): PiModelFields {
  const out: PiModelFields = {};
  const name = optString(raw, "name", path);
  if (name !== undefined) out.name = name;
  const reasoning = optBoolean(raw, "reasoning", path);
  if (reasoning !== undefined) out.reasoning = reasoning;
  const map = optRecord(raw, "thinkingLevelMap", path);
  if (map) {
    for (const [level, value] of Object.entries(map)) {
      if (!MAP_LEVELS.includes(level))
        throw new FieldError(
          at(at(path, "thinkingLevelMap"), level),
          `is not a thinking level (${MAP_LEVELS.join(", ")})`,
        );
      if (value !== null && typeof value !== "string")
        throw new FieldError(at(at(path, "thinkingLevelMap"), level), "must be a string or null");
    }
    out.thinkingLevelMap = map as Record<string, string | null>;
  }
  if (raw.input !== undefined) {
    if (!Array.isArray(raw.input) || !raw.input.every((i) => i === "text" || i === "image"))
      throw new FieldError(at(path, "input"), 'must be a list of "text" and "image"');
    out.input = [...new Set(raw.input as ("text" | "image")[])];
  }
  for (const key of ["inputLimits", "promptCache", "samplingParams", "compat"] as const) {
    const v = optRecord(raw, key, path);
    if (v) out[key] = v;
  }
  const byLevel = optRecord(raw, "samplingParamsByThinkingLevel", path);
  if (byLevel) {
    for (const [level, v] of Object.entries(byLevel)) {
      if (!MAP_LEVELS.includes(level) || !isRecord(v))
        throw new FieldError(
          at(at(path, "samplingParamsByThinkingLevel"), level),
          "must be a thinking level naming an object",
        );
    }
    out.samplingParamsByThinkingLevel = byLevel as Record<string, JsonRecord>;
  }
  const contextWindow = optPositive(raw, "contextWindow", path);
  if (contextWindow !== undefined) out.contextWindow = contextWindow;
  const maxTokens = optPositive(raw, "maxTokens", path);
  if (maxTokens !== undefined) out.maxTokens = maxTokens;
  const headers = optStringMap(raw, "headers", path);
  if (headers) out.headers = headers;
  return out;
}

/** One `models` entry, or a FieldError. */
export function checkModelDefinition(raw: unknown, path: string): PiModelDefinition {
  if (!isRecord(raw)) throw new FieldError(path, "must be an object");
  const id = optString(raw, "id", path);
  if (id === undefined) throw new FieldError(at(path, "id"), "is required");
  const def: PiModelDefinition = { id, ...checkModelFields(raw, path) };
  const api = optString(raw, "api", path);
  if (api !== undefined) def.api = api;
  const baseUrl = optString(raw, "baseUrl", path);
  if (baseUrl !== undefined) def.baseUrl = baseUrl;
  const cost = checkCost(raw, "cost", path, false);
  if (cost) def.cost = cost as PiModelCost;
  return def;
}

function checkOverride(raw: unknown, path: string): PiModelOverride {
  if (!isRecord(raw)) throw new FieldError(path, "must be an object");
  const out: PiModelOverride = checkModelFields(raw, path);
  const cost = checkCost(raw, "cost", path, true);
  if (cost) out.cost = cost;
  return out;
}

/** A provider's own fields (not its models), or a FieldError. */
function checkProviderFields(raw: JsonRecord, path: string): PiProviderConfig {
  const out: PiProviderConfig = {};
  for (const key of ["name", "baseUrl", "apiKey", "api"] as const) {
    const v = optString(raw, key, path);
    if (v !== undefined) out[key] = v;
  }
  const headers = optStringMap(raw, "headers", path);
  if (headers) out.headers = headers;
  const compat = optRecord(raw, "compat", path);
  if (compat) out.compat = compat;
  const authHeader = optBoolean(raw, "authHeader", path);
  if (authHeader !== undefined) out.authHeader = authHeader;
  if (raw.models !== undefined && !Array.isArray(raw.models))
    throw new FieldError(at(path, "models"), "must be a list");
  if (raw.modelOverrides !== undefined && !isRecord(raw.modelOverrides))
    throw new FieldError(at(path, "modelOverrides"), "must be an object");
  return out;
}

/**
 * The providers of a parsed models.json. A provider whose own fields are wrong is skipped; a model or override
 * that is wrong is skipped from its provider; each is an issue naming `file` and the field.
 */
export function parsePiModelsJson(json: unknown, file: string): { config: PiModelsConfig; issues: ConfigIssue[] } {
  const issues: ConfigIssue[] = [];
  const config = emptyModelsConfig();
  const issue = (e: unknown, fallbackPath: string): void => {
    if (e instanceof FieldError) issues.push({ file, path: e.path, message: e.message });
    else issues.push({ file, path: fallbackPath, message: errorText(e) });
  };
  if (!isRecord(json)) {
    issues.push({ file, path: "", message: "must be a JSON object with a providers object" });
    return { config, issues };
  }
  if (!isRecord(json.providers)) {
    issues.push({ file, path: "providers", message: "is required and must be an object of provider ids" });
    return { config, issues };
  }
  for (const [id, raw] of Object.entries(json.providers)) {
    const path = at("providers", id);
    if (!isRecord(raw)) {
      issues.push({ file, path, message: "must be an object" });
      continue;
    }
    let provider: PiProviderConfig;
    try {
      provider = checkProviderFields(raw, path);
    } catch (e) {
      issue(e, path);
      continue;
    }
    if (Array.isArray(raw.models)) {
      provider.models = [];
      raw.models.forEach((m, i) => {
        try {
          provider.models?.push(checkModelDefinition(m, at(at(path, "models"), i)));
        } catch (e) {
          issue(e, at(at(path, "models"), i));
        }
      });
    }
    if (isRecord(raw.modelOverrides)) {
      provider.modelOverrides = {};
      for (const [modelId, o] of Object.entries(raw.modelOverrides)) {
        try {
          provider.modelOverrides[modelId] = checkOverride(o, at(at(path, "modelOverrides"), modelId));
        } catch (e) {
          issue(e, at(at(path, "modelOverrides"), modelId));
        }
      }
    }
    if (raw.oauth !== undefined)
      issues.push({ file, path: at(path, "oauth"), message: "is not supported by Agent Tree and is ignored" });
    const hasOverrides = provider.modelOverrides && Object.keys(provider.modelOverrides).length > 0;
    if (
      !provider.models?.length &&
      !provider.baseUrl &&
      !provider.headers &&
      !provider.compat &&
      !hasOverrides &&
      !provider.apiKey &&
      provider.authHeader === undefined
    ) {
      // pi's rule: an entry that changes nothing is a mistake (a typo'd field name, usually).
      if (!Array.isArray(raw.models) || raw.models.length === 0)
        issues.push({
          file,
          path,
          message: 'must specify "baseUrl", "headers", "compat", "modelOverrides", or "models"',
        });
      continue;
    }
    config.providers[id] = provider;
  }
  return { config, issues };
}

/** Parses JSON with comments (pi strips them), or returns the parse error as text. */
export function parseJsonWithComments(text: string): { json: unknown } | { error: string } {
  const errors: ParseError[] = [];
  const json: unknown = parseJsonc(text.replace(/^\uFEFF/, ""), errors, { allowTrailingComma: true });
  if (errors.length > 0)
    return { error: `not valid JSON: ${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset}` };
  return { json };
}

/** Reads and parses `file`; a missing file is an empty configuration, an unreadable or broken one an issue. */
export async function readPiModelsJson(file: string): Promise<{ config: PiModelsConfig; issues: ConfigIssue[] }> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { config: emptyModelsConfig(), issues: [] };
    return {
      config: emptyModelsConfig(),
      issues: [{ file, path: "", message: `cannot be read: ${errorText(e)}` }],
    };
  }
  const parsed = parseJsonWithComments(text);
  if ("error" in parsed) return { config: emptyModelsConfig(), issues: [{ file, path: "", message: parsed.error }] };
  return parsePiModelsJson(parsed.json, file);
}
