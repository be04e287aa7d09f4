/**
 * One provider from its layers, as pi 1.6 composes them (its provider-composer.js, without pi's extension layer):
 * the built-in provider (if the id is pi-ai's), then pi's models.json entry, then `agentTree.models.custom`'s
 * (already merged into one `PiProviderConfig`). A `baseUrl` retargets every model of the provider; `models`
 * entries add or replace models; `modelOverrides` change metadata last; `apiKey`, `headers` and `authHeader` wrap
 * the provider's auth. Models the built-in provider's API serves stream through it; any other API through pi-ai's
 * own implementation of that API (lazy, its SDK loaded on the first request).
 */
import type {
  Api,
  ApiKeyAuth,
  AuthContext,
  AuthResult,
  Model,
  ModelAuth,
  OAuthAuth,
  ProviderStreams,
} from "@earendil-works/pi-ai";
import type { PiAi } from "./pi-ai.js";
import type { PiModelDefinition, PiModelOverride, PiProviderConfig } from "./pi-models-json.js";
import type { Provider } from "./types.js";
import { configValueEnvNames, isCommandValue, resolveConfigValue, type EnvLookup } from "./config-value.js";
import { at, type ConfigIssue } from "./json-check.js";
import { errorText } from "../error-text.js";

type AnyModel = Model<Api>;

/** The key sent to a server that needs none. */
export const NO_KEY = "no-key";
/** The `source` of a keyless provider's auth. */
export const NO_KEY_SOURCE = "no key needed";
type Json = Record<string, unknown>;

/** The API implementations pi-ai ships, by API id (each loads its SDK with its first request). */
export function apiImplementations(pi: PiAi): Record<string, () => ProviderStreams> {
  return {
    "anthropic-messages": pi.anthropicMessagesApi,
    "azure-openai-responses": pi.azureOpenAIResponsesApi,
    "bedrock-converse-stream": pi.bedrockConverseStreamApi,
    "google-generative-ai": pi.googleGenerativeAIApi,
    "google-vertex": pi.googleVertexApi,
    "mistral-conversations": pi.mistralConversationsApi,
    "openai-codex-responses": pi.openAICodexResponsesApi,
    "openai-completions": pi.openAICompletionsApi,
    "openai-responses": pi.openAIResponsesApi,
    "pi-messages": pi.piMessagesApi,
  };
}

function mergeCompat(base: unknown, override: Json | undefined): Json | undefined {
  if (!override) return base as Json | undefined;
  const b = (base ?? {}) as Json;
  const merged: Json = { ...b, ...override };
  for (const key of ["openRouterRouting", "vercelGatewayRouting", "chatTemplateKwargs", "chatTemplateArgs"]) {
    const bv = b[key];
    const ov = override[key];
    if ((typeof bv === "object" && bv !== null) || (typeof ov === "object" && ov !== null))
      merged[key] = { ...(bv as Json | undefined), ...(ov as Json | undefined) };
  }
  return merged;
}

function mergeInputLimits(base: AnyModel["inputLimits"], override: Json | undefined): AnyModel["inputLimits"] {
  if (!override) return base;
  const b = (base ?? {}) as Json;
  const images = override.images as Json | undefined;
  const baseImages = b.images as Json | undefined;
  return {
    ...b,
    ...override,
    images: images
      ? {
          ...baseImages,
          ...images,
          resize: images.resize ? { ...(baseImages?.resize as Json), ...(images.resize as Json) } : baseImages?.resize,
        }
      : baseImages,
  } as AnyModel["inputLimits"];
}

function applyOverride(model: AnyModel, o: PiModelOverride): AnyModel {
  const byLevel = o.samplingParamsByThinkingLevel
    ? Object.fromEntries(
        Object.entries({ ...model.samplingParamsByThinkingLevel, ...o.samplingParamsByThinkingLevel }).map(
          ([level, params]) => [
            level,
            {
              ...((model.samplingParamsByThinkingLevel as Record<string, Json> | undefined)?.[level] ?? {}),
              ...(params as Json),
            },
          ],
        ),
      )
    : model.samplingParamsByThinkingLevel;
  return {
    ...model,
    name: o.name ?? model.name,
    reasoning: o.reasoning ?? model.reasoning,
    thinkingLevelMap: o.thinkingLevelMap
      ? ({ ...model.thinkingLevelMap, ...o.thinkingLevelMap } as AnyModel["thinkingLevelMap"])
      : model.thinkingLevelMap,
    input: o.input ?? model.input,
    inputLimits: mergeInputLimits(model.inputLimits, o.inputLimits),
    cost: o.cost ? ({ ...model.cost, ...o.cost } as AnyModel["cost"]) : model.cost,
    promptCache: o.promptCache
      ? ({ ...model.promptCache, ...o.promptCache } as AnyModel["promptCache"])
      : model.promptCache,
    contextWindow: o.contextWindow ?? model.contextWindow,
    maxTokens: o.maxTokens ?? model.maxTokens,
    samplingParams: o.samplingParams ? { ...model.samplingParams, ...o.samplingParams } : model.samplingParams,
    samplingParamsByThinkingLevel: byLevel as AnyModel["samplingParamsByThinkingLevel"],
    compat: mergeCompat(model.compat, o.compat) as AnyModel["compat"],
  };
}

/** The model a `models` entry describes; `defaults` (a model of the provider) fill in `api` and `baseUrl`. */
function modelFromDefinition(
  providerId: string,
  def: PiModelDefinition,
  config: PiProviderConfig,
  defaults: AnyModel | undefined,
): AnyModel | string {
  const api = def.api ?? config.api ?? defaults?.api;
  if (!api) return 'no "api" specified: set it on the provider or the model';
  const baseUrl = def.baseUrl ?? config.baseUrl ?? defaults?.baseUrl;
  if (!baseUrl) return `"baseUrl" is required when defining models of the new provider "${providerId}"`;
  return {
    id: def.id,
    name: def.name ?? def.id,
    api,
    provider: providerId,
    baseUrl,
    reasoning: def.reasoning ?? false,
    thinkingLevelMap: def.thinkingLevelMap as AnyModel["thinkingLevelMap"],
    input: def.input ?? ["text"],
    inputLimits: def.inputLimits as AnyModel["inputLimits"],
    cost: (def.cost ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }) as AnyModel["cost"],
    promptCache: def.promptCache as AnyModel["promptCache"],
    contextWindow: def.contextWindow ?? 128_000,
    maxTokens: def.maxTokens ?? 16_384,
    samplingParams: def.samplingParams,
    samplingParamsByThinkingLevel: def.samplingParamsByThinkingLevel as AnyModel["samplingParamsByThinkingLevel"],
    compat: mergeCompat(config.compat, def.compat) as AnyModel["compat"],
  };
}

/** The model whose api/baseUrl a new `models` entry inherits: same id, else same API, else Chat Completions, else the first. */
function defaultsFor(models: readonly AnyModel[], id: string, api: string | undefined): AnyModel | undefined {
  return (
    models.find((m) => m.id === id) ??
    (api ? models.find((m) => m.api === api) : undefined) ??
    models.find((m) => m.api === "openai-completions") ??
    models[0]
  );
}

/** The provider's chat models after the config: retargeted, upserted, overridden. Bad entries become issues. */
function composeModels(
  providerId: string,
  base: readonly AnyModel[],
  config: PiProviderConfig,
  file: string,
  issues: ConfigIssue[],
): AnyModel[] {
  const models: AnyModel[] = base.map((m) => ({
    ...m,
    baseUrl: config.baseUrl ?? m.baseUrl,
    compat: mergeCompat(m.compat, config.compat) as AnyModel["compat"],
  }));
  (config.models ?? []).forEach((def, i) => {
    const model = modelFromDefinition(providerId, def, config, defaultsFor(models, def.id, def.api ?? config.api));
    if (typeof model === "string") {
      issues.push({ file, path: at(at(at("providers", providerId), "models"), i), message: model });
      return;
    }
    const existing = models.findIndex((m) => m.id === def.id);
    if (existing >= 0) models[existing] = model;
    else models.push(model);
  });
  return models.map((m) => {
    const o = config.modelOverrides?.[m.id];
    return o ? applyOverride(m, o) : m;
  });
}

function withConfiguredAuth(
  auth: ModelAuth,
  headers: Record<string, string> | undefined,
  authHeader: boolean,
): ModelAuth {
  let merged = auth.headers || headers ? { ...auth.headers, ...headers } : undefined;
  if (authHeader) {
    if (!auth.apiKey) throw new Error("authHeader requires a resolved API key");
    merged = { ...merged, Authorization: `Bearer ${auth.apiKey}` };
  }
  return { ...auth, headers: merged };
}

async function resolveHeaders(
  raw: Record<string, string> | undefined,
  what: string,
  env: EnvLookup,
  commandEnv: NodeJS.ProcessEnv | undefined,
): Promise<Record<string, string> | undefined> {
  if (!raw) return undefined;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw))
    out[name] = await resolveConfigValue(value, `${what} header "${name}"`, env, commandEnv);
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A lookup in the auth context's environment, synchronous view over what it resolves (pi resolves values the same way). */
async function contextEnv(ctx: AuthContext, names: readonly string[]): Promise<EnvLookup> {
  const values = new Map<string, string | undefined>();
  for (const name of names) values.set(name, await ctx.env(name));
  return (name) => values.get(name);
}

function apiKeyAuth(
  providerId: string,
  inherited: ApiKeyAuth | undefined,
  config: PiProviderConfig,
  commandEnv: NodeJS.ProcessEnv | undefined,
  hasOAuth: boolean,
): ApiKeyAuth | undefined {
  const rawKey = config.apiKey;
  const keyless = config.keyless === true;
  const rawHeaders = config.headers;
  const authHeader = config.authHeader ?? false;
  // As in pi: an OAuth-only provider gets no made-up API-key method; any other can take a stored key.
  if (!inherited && rawKey === undefined && !keyless && hasOAuth) return undefined;
  const headerNames = Object.values(rawHeaders ?? {}).flatMap(configValueEnvNames);
  const finish = async (result: AuthResult, ctx: AuthContext): Promise<AuthResult> => {
    const env = await contextEnv(ctx, headerNames);
    const lookup: EnvLookup = (name) => result.env?.[name] ?? env(name);
    const headers = await resolveHeaders(rawHeaders, `provider "${providerId}"`, lookup, commandEnv);
    return { ...result, auth: withConfiguredAuth(result.auth, headers, authHeader) };
  };
  return {
    name: inherited?.name ?? "API key",
    login:
      inherited?.login ??
      (async (interaction) => ({
        type: "api_key",
        key: await interaction.prompt({ type: "secret", message: "Enter API key" }),
      })),
    check: async (input) => {
      if (input.credential?.key) return { type: "api_key", source: "stored credential" };
      if (rawKey !== undefined) {
        if (isCommandValue(rawKey)) return { type: "api_key", source: "configured API key" };
        for (const name of configValueEnvNames(rawKey)) if (!(await input.ctx.env(name))) return undefined;
        return { type: "api_key", source: "configured API key" };
      }
      if (keyless) return { type: "api_key", source: NO_KEY_SOURCE };
      if (inherited?.check) return inherited.check(input);
      const resolved = await inherited?.resolve(input);
      return resolved ? { type: "api_key", source: resolved.source } : undefined;
    },
    resolve: async (input) => {
      let result: AuthResult | undefined;
      if (input.credential?.key) {
        result = inherited
          ? await inherited.resolve(input)
          : { auth: { apiKey: input.credential.key }, env: input.credential.env, source: "stored credential" };
      } else if (rawKey !== undefined) {
        const env = await contextEnv(input.ctx, configValueEnvNames(rawKey));
        const key = await resolveConfigValue(rawKey, `API key for provider "${providerId}"`, env, commandEnv);
        result = inherited
          ? await inherited.resolve({ ...input, credential: { type: "api_key", key } })
          : { auth: { apiKey: key }, source: "configured API key" };
      } else if (keyless) {
        // pi-ai's APIs insist on a key; a server that needs none ignores it (pi's docs use a dummy key the same way).
        result = { auth: { apiKey: NO_KEY }, source: NO_KEY_SOURCE };
      } else {
        result = await inherited?.resolve(input);
      }
      return result ? finish(result, input.ctx) : undefined;
    },
  };
}

function oauthAuth(
  providerId: string,
  base: OAuthAuth | undefined,
  config: PiProviderConfig,
  commandEnv: NodeJS.ProcessEnv | undefined,
): OAuthAuth | undefined {
  if (!base) return undefined;
  if (!config.headers && !config.authHeader) return base;
  return {
    ...base,
    toAuth: async (credential) => {
      const auth = await base.toAuth(credential);
      const env = (credential.env ?? {}) as Record<string, string>;
      const headers = await resolveHeaders(config.headers, `provider "${providerId}"`, (n) => env[n], commandEnv);
      return withConfiguredAuth(auth, headers, config.authHeader ?? false);
    },
  };
}

/** What composing one provider gives: the provider (undefined when it cannot exist) and the problems found. */
export interface ComposedProvider {
  provider?: Provider;
  issues: ConfigIssue[];
}

/**
 * `base` (a built-in provider, or undefined for a new one) changed by `config`. `file` names where `config` came
 * from, for issues. `commandEnv` is the environment `!command` values run with.
 */
export function composeProvider(
  pi: PiAi,
  providerId: string,
  base: Provider | undefined,
  config: PiProviderConfig,
  file: string,
  commandEnv?: NodeJS.ProcessEnv,
): ComposedProvider {
  const issues: ConfigIssue[] = [];
  const models = composeModels(providerId, base?.getModels() ?? [], config, file, issues);
  const apiKey = apiKeyAuth(providerId, base?.auth.apiKey, config, commandEnv, base?.auth.oauth !== undefined);
  const oauth = oauthAuth(providerId, base?.auth.oauth, config, commandEnv);
  if (!apiKey && !oauth) {
    issues.push({ file, path: at("providers", providerId), message: "has no way to authenticate: set apiKey" });
    return { issues };
  }
  if (!base && models.length === 0) return { issues };
  const impls = apiImplementations(pi);
  const own = new Map<string, ProviderStreams>();
  const baseApis = new Set(base?.getModels().map((m) => m.api));
  const streamsFor = (api: string): ProviderStreams | undefined => {
    if (!own.has(api) && impls[api]) own.set(api, impls[api]());
    return own.get(api);
  };
  const unknownApis = [...new Set(models.map((m) => m.api))].filter((api) => !baseApis.has(api) && !impls[api]);
  for (const api of unknownApis)
    issues.push({
      file,
      path: at("providers", providerId),
      message: `uses the API "${api}", which pi-ai does not have`,
    });
  if (!base) {
    // A provider of its own (models.json's, agentTree.models.custom's): pi-ai's createProvider, each model on pi-ai's
    // implementation of its API.
    const served = models.filter((m) => impls[m.api]);
    if (served.length === 0) return { issues };
    const api = Object.fromEntries([...new Set(served.map((m) => m.api))].map((a) => [a, impls[a]()]));
    try {
      const provider = pi.createProvider({
        id: providerId,
        name: config.name ?? providerId,
        ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
        auth: { ...(apiKey ? { apiKey } : {}) },
        models: served,
        api,
      });
      return { provider, issues };
    } catch (e) {
      issues.push({ file, path: at("providers", providerId), message: errorText(e) });
      return { issues };
    }
  }
  const streamWith = (simple: boolean): ProviderStreams["streamSimple"] =>
    ((model, context, options) => {
      if (base && baseApis.has(model.api))
        return simple ? base.streamSimple(model, context, options) : base.stream(model, context, options);
      const streams = streamsFor(model.api);
      if (!streams)
        return pi.lazyStream(model, async () => {
          throw new Error(`No API implementation for "${model.api}" (provider ${providerId})`);
        });
      return simple ? streams.streamSimple(model, context, options) : streams.stream(model, context, options);
    }) as ProviderStreams["streamSimple"];
  const provider: Provider = {
    id: providerId,
    name: config.name ?? base?.name ?? providerId,
    baseUrl: config.baseUrl ?? base?.baseUrl,
    headers: base?.headers,
    auth: { ...(apiKey ? { apiKey } : {}), ...(oauth ? { oauth } : {}) },
    getModels: () => models,
    filterModels: base?.filterModels ? (list, credential) => base.filterModels?.(list, credential) ?? list : undefined,
    stream: streamWith(false) as Provider["stream"],
    streamSimple: streamWith(true),
  };
  return { provider, issues };
}
