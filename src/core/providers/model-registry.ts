/**
 * Every model the agent can use, and the one way to call them: a pi-ai `Models` collection holding every built-in
 * provider of pi-ai with its catalog, the providers and models of pi's models.json, the setting
 * `agentTree.models.custom`, and providers the host registers (VS Code's language models). Reads are synchronous
 * once `ModelRegistry.create()` resolved; whether a provider can be called now (a key, a login, nothing needed) is
 * kept as a snapshot refreshed by `refreshAuth()`. See docs/models.md.
 */
import { access } from "node:fs/promises";
import type { AuthContext, MutableModels } from "@earendil-works/pi-ai";
import type { AssistantMessage } from "../messages.js";
import { customModelsConfig, type CustomModelIssue } from "./custom-models.js";
import { formatIssue, type ConfigIssue } from "./json-check.js";
import { loadPiAi, type PiAi } from "./pi-ai.js";
import { emptyModelsConfig, type PiModelsConfig, type PiProviderConfig } from "./pi-models-json.js";
import { composeProvider } from "./provider-compose.js";
import { configValueEnvNames } from "./config-value.js";
import { SecretTrackingStore } from "./credential-secrets.js";
import { ProviderError } from "./provider-error.js";
import { streamThroughModels } from "./registry-stream.js";
import type {
  CredentialStore,
  ModelInfo,
  Provider,
  ProviderErrorKind,
  StreamEvent,
  StreamRequest,
  ThinkingLevel,
} from "./types.js";
import { errorText } from "../error-text.js";

/** How to build a registry. */
export interface ModelRegistryOptions {
  /** Where stored credentials live (default: in memory, for this registry's life). */
  credentials?: CredentialStore;
  /** The environment keys and `$NAME` values resolve from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Register pi-ai's built-in providers (default true). */
  builtins?: boolean;
  /** pi's models.json, parsed (pi-models-json.ts), and the file it came from. */
  piModels?: { config: PiModelsConfig; file: string };
  /** The setting `agentTree.models.custom` (raw JSON values; bad entries are reported, not thrown). */
  custom?: readonly unknown[];
  /** More providers (the host's; the faux provider in tests). One with a built-in id replaces it. */
  providers?: readonly Provider[];
}

/** What a provider offers to log in with. */
export interface ProviderAuthInfo {
  /**
   * An API key: its label, the environment variables the provider reads it from, and whether it can be entered
   * (pi-ai's `ApiKeyAuth.login`; false for ambient-only auth such as VS Code's language models).
   */
  apiKey?: { name: string; envNames: string[]; login: boolean };
  /** A subscription login (pi-ai's OAuth flows). */
  oauth?: { name: string; isSubscription: boolean; loginLabel?: string };
}

/** One provider, as a picker lists it. */
export interface ProviderInfo {
  id: string;
  name: string;
  auth: ProviderAuthInfo;
  modelCount: number;
}

/** Whether a provider can be called now, and how. */
export interface ProviderAuthState {
  ready: boolean;
  /** Where its credentials come from: an environment variable's name, "stored credential", "OAuth", … */
  source?: string;
  type?: "api_key" | "oauth";
  /** Why checking failed (e.g. a credential store that cannot be read). */
  error?: string;
}

/** One model with its provider's readiness (the snapshot of the last `refreshAuth()`). */
export interface ModelListing {
  model: ModelInfo;
  ready: boolean;
  source?: string;
}

/** How the registry treats a provider the host registers. */
export interface HostProviderOptions {
  /**
   * The kind of a failure the provider reported (its reply's `errorMessage`), when the provider knows it better than
   * an HTTP status would tell (it has none: e.g. VS Code refused access). Its message is then shown as it is.
   */
  errorKind?(errorMessage: string): ProviderErrorKind | undefined;
}

/** The file name used in issues of the VS Code setting. */
export const CUSTOM_MODELS_SETTING = "agentTree.models.custom";

/**
 * Names of credentials among what a provider reads: a key, token, secret or password. Not its settings (a region,
 * a project, an AWS profile, a path): tools keep those, a user's `aws` or `gcloud` needs them.
 */
const SECRET_NAME = /(?:API_KEY|_KEY|TOKEN|SECRET|PASSWORD)$/;

/** Names a provider's auth asks the environment for, found by asking it once with an empty environment. */
async function askedEnvNames(provider: Provider, fileExists: AuthContext["fileExists"]): Promise<string[]> {
  const auth = provider.auth.apiKey;
  if (!auth) return [];
  const asked: string[] = [];
  const ctx: AuthContext = {
    env: async (name) => {
      if (!asked.includes(name)) asked.push(name);
      return undefined;
    },
    fileExists,
  };
  const signal = new AbortController().signal;
  try {
    if (auth.check) await auth.check({ ctx, signal });
    else await auth.resolve({ ctx, signal });
  } catch {
    // A provider that fails without keys has still asked for the names it reads.
  }
  return asked;
}

/** See the file comment. */
export class ModelRegistry {
  /** pi-ai's collection: the host uses it for logins (`login`, `logout`, `getAuth`). */
  readonly models: MutableModels;
  private readonly builtinProviders: ReadonlyMap<string, Provider>;
  private readonly extra = new Map<string, Provider>();
  private readonly extraOptions = new Map<string, HostProviderOptions>();
  /** The credential store pi-ai uses, remembering the secrets that pass through it (credential-secrets.ts). */
  private readonly credentials: SecretTrackingStore;
  private readonly env: NodeJS.ProcessEnv;
  private readonly authContext: AuthContext;
  private piModels: { config: PiModelsConfig; file: string } = { config: emptyModelsConfig(), file: "models.json" };
  private custom: readonly unknown[] = [];
  private customIssues: CustomModelIssue[] = [];
  private composeIssues: ConfigIssue[] = [];
  /** Variables the configuration names as the source of a key or header (models.json `$NAME`, `apiKeyEnv`). */
  private configuredSecretNames: string[] = [];
  /** Per provider, the variables its configured `apiKey` reads. */
  private configuredKeyNames = new Map<string, string[]>();
  private byKey = new Map<string, ModelInfo>();
  private authStates = new Map<string, ProviderAuthState>();
  private envNames = new Map<string, string[]>();
  private readonly listeners = new Set<() => void>();
  private authGeneration = 0;

  private constructor(
    readonly pi: PiAi,
    options: ModelRegistryOptions,
  ) {
    this.env = options.env ?? process.env;
    this.authContext = { env: async (name) => this.env[name] || undefined, fileExists: fileExists };
    this.credentials = new SecretTrackingStore(options.credentials ?? new pi.InMemoryCredentialStore());
    this.models = pi.createModels({ authContext: this.authContext, credentials: this.credentials });
    this.builtinProviders = new Map(options.builtins === false ? [] : pi.builtinProviders().map((p) => [p.id, p]));
    for (const p of options.providers ?? []) this.extra.set(p.id, p);
    if (options.piModels) this.piModels = options.piModels;
    if (options.custom) this.custom = options.custom;
  }

  /** A registry with the built-in providers and the given configuration, its readiness snapshot taken. */
  static async create(options: ModelRegistryOptions = {}): Promise<ModelRegistry> {
    const registry = ModelRegistry.fromLoaded(await loadPiAi(), options);
    await registry.refreshAuth();
    return registry;
  }

  /**
   * The same, synchronously, for a caller that holds pi-ai loaded (`loadPiAi()`): its readiness snapshot is empty
   * (no provider ready) until `refreshAuth()` resolves.
   */
  static fromLoaded(pi: PiAi, options: ModelRegistryOptions = {}): ModelRegistry {
    const registry = new ModelRegistry(pi, options);
    registry.rebuild();
    return registry;
  }

  // ---- configuration ----------------------------------------------------------------------------

  /** Replace the custom models (the setting changed). Returns the rejected entries; the others are in. */
  setCustomModels(raw: readonly unknown[]): CustomModelIssue[] {
    this.custom = raw;
    this.rebuild();
    void this.refreshAuth();
    return [...this.customIssues];
  }

  /** Replace pi's models.json (the file changed). Its problems are in `issues()`. */
  setPiModels(config: PiModelsConfig, file: string): void {
    this.piModels = { config, file };
    this.rebuild();
    void this.refreshAuth();
  }

  /** Add (or replace) a provider of the host's, e.g. VS Code's language models, made with pi-ai's `createProvider`. */
  registerProvider(provider: Provider, options: HostProviderOptions = {}): void {
    this.setHostProviders([{ provider, options }], []);
  }

  /** Remove a provider registered with `registerProvider` (a built-in one of the same id comes back). */
  unregisterProvider(id: string): void {
    this.setHostProviders([], [id]);
  }

  /**
   * Add or replace `add` and remove the providers `remove` names, rebuilding once (VS Code's language models change
   * several vendors at a time).
   */
  setHostProviders(
    add: readonly { provider: Provider; options?: HostProviderOptions }[],
    remove: readonly string[],
  ): void {
    let changed = false;
    for (const id of remove) {
      changed = this.extra.delete(id) || changed;
      this.extraOptions.delete(id);
    }
    for (const { provider, options } of add) {
      this.extra.set(provider.id, provider);
      this.extraOptions.set(provider.id, options ?? {});
      changed = true;
    }
    if (!changed) return;
    this.rebuild();
    void this.refreshAuth();
  }

  /** Problems of the configuration: rejected custom models, bad models.json entries that only showed in composing. */
  issues(): ConfigIssue[] {
    return [
      ...this.customIssues.map((i) => ({ file: CUSTOM_MODELS_SETTING, path: `[${i.index}]`, message: i.message })),
      ...this.composeIssues,
    ];
  }

  /** Called after the models or their readiness changed. Returns the unsubscribe function. */
  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- reads ------------------------------------------------------------------------------------

  /** The model with this provider and id, if known. */
  find(provider: string, id: string): ModelInfo | undefined {
    return this.byKey.get(`${provider}\u0000${id}`);
  }

  /** Every chat model, provider by provider. */
  all(): ModelInfo[] {
    return [...this.byKey.values()];
  }

  /** The models of one provider. */
  byProvider(provider: string): ModelInfo[] {
    return [...this.models.getModels(provider)];
  }

  /** Every provider, with how one logs in to it. */
  providers(): ProviderInfo[] {
    return this.models.getProviders().map((p) => this.providerInfo(p));
  }

  /** One provider, if known. */
  provider(id: string): ProviderInfo | undefined {
    const p = this.models.getProvider(id);
    return p ? this.providerInfo(p) : undefined;
  }

  private providerInfo(p: Provider): ProviderInfo {
    const auth: ProviderAuthInfo = {};
    if (p.auth.apiKey)
      auth.apiKey = {
        name: p.auth.apiKey.name,
        envNames: [...(this.envNames.get(p.id) ?? [])],
        login: p.auth.apiKey.login !== undefined,
      };
    if (p.auth.oauth)
      auth.oauth = {
        name: p.auth.oauth.name,
        isSubscription: p.auth.oauth.isSubscription === true,
        ...(p.auth.oauth.loginLabel ? { loginLabel: p.auth.oauth.loginLabel } : {}),
      };
    return { id: p.id, name: p.name, auth, modelCount: p.getModels().length };
  }

  // ---- readiness --------------------------------------------------------------------------------

  /**
   * Checks every provider's credentials (pi-ai's `checkAuth`: a stored credential, then the environment or other
   * ambient sources; nothing is sent anywhere) and keeps the result for the synchronous reads below.
   */
  async refreshAuth(signal?: AbortSignal): Promise<void> {
    const generation = ++this.authGeneration;
    const providers = this.models.getProviders();
    const states = new Map<string, ProviderAuthState>();
    const names = new Map<string, string[]>();
    await Promise.all(
      providers.map(async (p) => {
        names.set(
          p.id,
          (await askedEnvNames(p, this.authContext.fileExists)).filter((n) => SECRET_NAME.test(n)),
        );
        try {
          const check = await this.models.checkAuth(p.id, { signal });
          states.set(
            p.id,
            check
              ? { ready: true, type: check.type, ...(check.source ? { source: check.source } : {}) }
              : { ready: false },
          );
        } catch (e) {
          states.set(p.id, { ready: false, error: errorText(e) });
        }
      }),
    );
    if (generation !== this.authGeneration) return;
    this.authStates = states;
    this.envNames = names;
    this.fire();
  }

  /** The provider's readiness as of the last `refreshAuth()`. */
  authState(providerId: string): ProviderAuthState | undefined {
    return this.authStates.get(providerId);
  }

  /** True when the provider had credentials (or needs none) at the last `refreshAuth()`. */
  isReady(providerId: string): boolean {
    return this.authStates.get(providerId)?.ready === true;
  }

  /** Every model with its provider's readiness. */
  listModels(): ModelListing[] {
    return this.all().map((model) => {
      const state = this.authStates.get(model.provider);
      return { model, ready: state?.ready === true, ...(state?.source ? { source: state.source } : {}) };
    });
  }

  /** The models whose provider is ready. */
  available(): ModelInfo[] {
    return this.all().filter((m) => this.isReady(m.provider));
  }

  /**
   * The environment variables the providers read credentials from (each provider's, as of the last
   * `refreshAuth()`; the `$NAME`s of pi's models.json included). api-key.ts adds the names no provider claims yet.
   */
  keyEnvNames(): string[] {
    const names = new Set<string>(this.configuredSecretNames);
    for (const list of this.envNames.values()) for (const n of list) names.add(n);
    return [...names];
  }

  /**
   * The secret values of the stored credentials seen so far (keys, login tokens: credential-secrets.ts), so tool
   * output is redacted of them too (`keyEnvValues(env, registry)`).
   */
  secretValues(): string[] {
    return this.credentials.values();
  }

  // ---- thinking levels --------------------------------------------------------------------------

  /** The thinking levels `model` takes (pi-ai's rule). */
  supportedThinkingLevels(model: ModelInfo): ThinkingLevel[] {
    return this.pi.getSupportedThinkingLevels(model);
  }

  /** `level`, or the nearest level `model` takes. */
  clampThinkingLevel(model: ModelInfo, level: ThinkingLevel): ThinkingLevel {
    return this.pi.clampThinkingLevel(model, level);
  }

  /** True when `message` failed because its request did not fit `model`'s context window (pi-ai's test). */
  isContextOverflow(message: AssistantMessage, model: ModelInfo | undefined): boolean {
    return this.pi.isContextOverflow(message as Parameters<PiAi["isContextOverflow"]>[0], model?.contextWindow ?? 0);
  }

  // ---- calls ------------------------------------------------------------------------------------

  /**
   * Stream one reply through the model's provider. Never throws: every failure (auth, HTTP error after retries,
   * cut stream, abort) ends the stream with an `error` event carrying the partial message.
   */
  stream(request: StreamRequest): AsyncIterable<StreamEvent> {
    return streamThroughModels(
      {
        models: this.models,
        pi: this.pi,
        keyEnvNames: (provider) => [
          ...new Set([...(this.configuredKeyNames.get(provider) ?? []), ...(this.envNames.get(provider) ?? [])]),
        ],
        env: this.env === process.env ? undefined : this.env,
        secrets: () => this.credentials.values(),
        errorKind: (provider, message) => this.extraOptions.get(provider)?.errorKind?.(message),
      },
      request,
    );
  }

  /** Run a request to completion; rejects with a ProviderError (its `partial` holds what came) on error or abort. */
  async complete(request: StreamRequest): Promise<AssistantMessage> {
    for await (const event of this.stream(request)) {
      if (event.type === "done") return event.message;
      if (event.type === "error") {
        const err = new ProviderError(
          event.errorKind ?? (event.message.stopReason === "aborted" ? "aborted" : "bad_response"),
          event.message.errorMessage ?? "Model call failed",
        );
        err.partial = event.message;
        throw err;
      }
    }
    throw new ProviderError("bad_response", "The model stream ended without a result");
  }

  // ---- internals --------------------------------------------------------------------------------

  private fire(): void {
    for (const l of this.listeners) l();
  }

  /** Builds every provider from its layers (provider-compose.ts) into the collection. */
  private rebuild(): void {
    const { config: custom, issues } = customModelsConfig(this.custom, new Set(this.builtinProviders.keys()));
    this.customIssues = issues;
    const composeIssues: ConfigIssue[] = [];
    const ids = new Set([
      ...this.builtinProviders.keys(),
      ...this.extra.keys(),
      ...Object.keys(this.piModels.config.providers),
      ...Object.keys(custom.providers),
    ]);
    this.models.clearProviders();
    for (const id of ids) {
      let provider: Provider | undefined = this.extra.get(id) ?? this.builtinProviders.get(id);
      const layers: [PiProviderConfig | undefined, string][] = [
        [this.piModels.config.providers[id], this.piModels.file],
        [custom.providers[id], CUSTOM_MODELS_SETTING],
      ];
      for (const [layer, file] of layers) {
        if (!layer) continue;
        const composed = composeProvider(this.pi, id, provider, layer, file, this.env);
        composeIssues.push(...composed.issues);
        if (composed.provider) provider = composed.provider;
      }
      if (provider) this.models.setProvider(provider);
    }
    this.composeIssues = composeIssues;
    this.configuredKeyNames = new Map();
    for (const c of [this.piModels.config, custom])
      for (const [id, p] of Object.entries(c.providers))
        if (p.apiKey) this.configuredKeyNames.set(id, configValueEnvNames(p.apiKey));
    this.configuredSecretNames = [this.piModels.config, custom].flatMap((c) =>
      Object.values(c.providers).flatMap((p) =>
        [
          p.apiKey,
          ...Object.values(p.headers ?? {}),
          ...(p.models ?? []).flatMap((m) => Object.values(m.headers ?? {})),
        ]
          .filter((v): v is string => v !== undefined)
          .flatMap(configValueEnvNames),
      ),
    );
    const byKey = new Map<string, ModelInfo>();
    for (const m of this.models.getModels()) byKey.set(`${m.provider}\u0000${m.id}`, m);
    this.byKey = byKey;
    this.fire();
  }
}

/** `fileExists` of the auth context (ADC files, AWS profiles), without blocking. */
async function fileExists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** Issues as one line each ("file: field: message"). */
export function issueLines(issues: readonly ConfigIssue[]): string[] {
  return issues.map(formatIssue);
}
