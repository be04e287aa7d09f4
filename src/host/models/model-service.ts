/**
 * The host's owner of the model registry: built on first use (never during activation: pi-ai and its catalog load
 * then, see docs/models.md "Lazy loading"), from pi's models.json and settings.json (its agent folder, watched)
 * and the extension's settings — VS Code's over pi's; with the credentials of SecretStorage (and, when the user
 * chose so, pi's `auth.json` below them: layered-credential-store.ts) and VS Code's language models (lm-models.ts).
 * Problems of pi's files are reported once each, naming the file and field.
 */
import * as vscode from "vscode";
import { ModelRegistry } from "../../core/providers/model-registry.js";
import type { PiAi } from "../../core/providers/pi-ai.js";
import type { Provider } from "../../core/providers/types.js";
import { formatIssue, type ConfigIssue } from "../../core/providers/json-check.js";
import { readPiAgentConfig } from "../../core/providers/pi-agent-config.js";
import { PiAuthFileStore, piAuthFile } from "../../core/providers/pi-auth-store.js";
import {
  mergeModelSettings,
  type EffectiveModelSettings,
  type PiModelSettings,
} from "../../core/providers/pi-settings.js";
import { resolveModelScope, type ScopedModel } from "../../core/providers/model-scope.js";
import { getAgentDir } from "../../core/session/paths.js";
import { errorText } from "../../core/error-text.js";
import { customModelsSetting, vsCodeModelSettings } from "../common/settings.js";
import { LayeredCredentialStore } from "./layered-credential-store.js";
import { lmApiOf } from "./lm-messages.js";
import { LmModels, type LmSource } from "./lm-models.js";
import { SecretCredentialStore } from "./secret-credential-store.js";

/** What the service needs. */
export interface ModelServiceDeps {
  secrets: vscode.SecretStorage;
  /** Where the answer to "use pi's logins?" is kept (the extension's globalState). */
  globalState: vscode.Memento;
  log: vscode.LogOutputChannel;
  /** The workspace folder (its `.pi/settings.json` counts in a trusted workspace). */
  cwd: string;
}

/** The globalState key of the answer to "use pi's stored logins and keys?" ("use" or "ignore"). */
export const PI_CREDENTIALS_ANSWER = "agentTree.piCredentials";
/** How long building the registry waits for VS Code's language models before going on without them. */
const LM_FIRST_WAIT_MS = 1500;

/** See the file comment. */
export class ModelService implements vscode.Disposable {
  private loading: Promise<ModelRegistry> | undefined;
  private loaded: ModelRegistry | undefined;
  private piSettings: PiModelSettings = {};
  private readonly reported = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  /** The models, their readiness or the settings changed. */
  readonly onDidChange = this.changed.event;
  /** The extension's own stored credentials (SecretStorage). */
  readonly ownCredentials: SecretCredentialStore;
  /** What the registry reads credentials from: the extension's, and pi's when the user chose so. */
  readonly credentials: LayeredCredentialStore;
  private lm: LmModels | undefined;
  /** Providers other extensions registered (`AgentTreeApi.registerModelProvider`), with the id each got. */
  private readonly external = new Set<{ create: (pi: PiAi) => Provider; id?: string }>();

  constructor(private readonly deps: ModelServiceDeps) {
    this.ownCredentials = new SecretCredentialStore(deps.secrets);
    this.credentials = new LayeredCredentialStore(this.ownCredentials, (message) => {
      deps.log.warn(message);
      void vscode.window.showWarningMessage(`Agent Tree: ${message}`);
    });
    if (deps.globalState.get(PI_CREDENTIALS_ANSWER) === "use") this.credentials.setPiStore(this.piStore());
    this.disposables.push(this.changed, { dispose: () => this.ownCredentials.dispose() });
    // A key or login stored here or in another window: the providers' readiness changes.
    this.disposables.push({ dispose: this.ownCredentials.onDidChange(() => void this.loaded?.refreshAuth()) });
  }

  /** The registry if it is built already (synchronous reads for views). */
  get registry(): ModelRegistry | undefined {
    return this.loaded;
  }

  /** The registry, built on the first call. A failed build is reported and tried again on the next call. */
  load(): Promise<ModelRegistry> {
    this.loading ??= this.build().catch((e: unknown) => {
      this.loading = undefined;
      throw e;
    });
    return this.loading;
  }

  /** The settings in force: VS Code's (`agentTree.model`, `.thinkingLevel`, `.models.enabled`, `.compaction.*`) over pi's. */
  settings(): EffectiveModelSettings {
    return mergeModelSettings(this.piSettings, vsCodeModelSettings());
  }

  /** `provider/id` of pi's default model (settings.json `defaultProvider`/`defaultModel`; "" when none is set). */
  piDefaultModelKey(): string {
    const m = mergeModelSettings(this.piSettings).defaultModel;
    return m ? `${m.provider}/${m.id}` : "";
  }

  /**
   * The short list (pi's Ctrl+P cycle, "Agent: Next Model"): the `enabledModels` patterns resolved against the models
   * that can be called, as pi resolves them; every model that can be called when no pattern is set. Warnings (a
   * pattern that matches nothing) go to the log.
   */
  shortList(registry: ModelRegistry): { models: ScopedModel[]; configured: boolean } {
    const patterns = this.settings().enabledModels?.patterns;
    if (!patterns) return { models: registry.available().map((model) => ({ model })), configured: false };
    const scope = resolveModelScope(patterns, registry.available());
    for (const w of scope.warnings) this.reportOnce(`Short list (enabledModels): ${w}`, false);
    return { models: scope.models, configured: true };
  }

  /** `agentTree.models.custom` changed. */
  reloadCustomModels(): void {
    const registry = this.loaded;
    if (!registry) return;
    const issues = registry.setCustomModels(customModelsSetting());
    if (issues.length > 0)
      void vscode.window.showWarningMessage(`agentTree.models.custom: ${issues.map((i) => i.message).join("; ")}`);
    for (const i of issues) this.deps.log.warn(i.message);
  }

  /** Use pi's stored logins and keys (or stop), remembering the answer; the readiness is checked again. */
  async usePiCredentials(use: boolean): Promise<void> {
    await this.deps.globalState.update(PI_CREDENTIALS_ANSWER, use ? "use" : "ignore");
    this.credentials.setPiStore(use ? this.piStore() : undefined);
    await this.loaded?.refreshAuth();
  }

  /** The user's answer to "use pi's logins?", if given. */
  piCredentialsAnswer(): "use" | "ignore" | undefined {
    const v = this.deps.globalState.get<unknown>(PI_CREDENTIALS_ANSWER);
    return v === "use" || v === "ignore" ? v : undefined;
  }

  /**
   * Adds a provider another extension makes with pi-ai (`create` gets the model library's runtime: `createProvider`,
   * the API implementations, …), now or when the models load; disposing removes it.
   */
  registerProvider(create: (pi: PiAi) => Provider): vscode.Disposable {
    const entry: { create: (pi: PiAi) => Provider; id?: string } = { create };
    this.external.add(entry);
    if (this.loaded) this.addExternal(this.loaded, entry);
    return {
      dispose: () => {
        this.external.delete(entry);
        if (entry.id) this.loaded?.unregisterProvider(entry.id);
      },
    };
  }

  private addExternal(registry: ModelRegistry, entry: { create: (pi: PiAi) => Provider; id?: string }): void {
    try {
      const provider = entry.create(registry.pi);
      entry.id = provider.id;
      registry.registerProvider(provider);
      this.deps.log.info(`Model provider ${provider.id} registered by another extension`);
    } catch (e) {
      this.deps.log.warn(`A model provider of another extension could not be added: ${errorText(e)}`);
    }
  }

  /** pi's `auth.json` in its agent folder. */
  piStore(): PiAuthFileStore {
    return new PiAuthFileStore(piAuthFile(getAgentDir()));
  }

  dispose(): void {
    this.lm?.dispose();
    for (const d of this.disposables) d.dispose();
  }

  private async build(): Promise<ModelRegistry> {
    const started = Date.now();
    const pi = await this.readPiFiles();
    const registry = await ModelRegistry.create({
      credentials: this.credentials,
      custom: customModelsSetting(),
      piModels: pi.models,
    });
    this.loaded = registry;
    this.report(registry.issues());
    // Keys stored by earlier versions move into the credential store.
    const moved = await this.ownCredentials.migrate(registry.providers().map((p) => p.id));
    if (moved.length > 0) {
      this.deps.log.info(`Stored API keys moved to the credential store: ${moved.join(", ")}`);
      await registry.refreshAuth();
    }
    this.disposables.push({ dispose: registry.onDidChange(() => this.changed.fire()) });
    for (const entry of this.external) this.addExternal(registry, entry);
    this.watchPiFiles(pi.watch);
    await this.startLanguageModels(registry);
    this.deps.log.info(
      `Models: ${registry.all().length} models of ${registry.providers().length} providers loaded in ${Date.now() - started} ms`,
    );
    this.changed.fire();
    void this.offerPiCredentials();
    return registry;
  }

  /** VS Code's language models as providers; waits a moment for the first listing (a session may name one). */
  private async startLanguageModels(registry: ModelRegistry): Promise<void> {
    const lm = (vscode as Partial<typeof vscode>).lm;
    if (typeof lm?.selectChatModels !== "function") return;
    const source: LmSource = {
      selectChatModels: () => lm.selectChatModels(),
      onDidChangeChatModels: (listener) => lm.onDidChangeChatModels(listener),
      vendorName: (vendor) => vendorDisplayName(vendor),
    };
    this.lm = new LmModels(source, lmApiOf(vscode), registry, registry.pi, (m) => this.deps.log.info(m));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.lm.refresh(),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, LM_FIRST_WAIT_MS))),
    ]).finally(() => clearTimeout(timer));
  }

  /** Offers, once, to use the logins and keys pi stored (when there are any and the user was not asked yet). */
  private async offerPiCredentials(): Promise<void> {
    if (this.piCredentialsAnswer() !== undefined) return;
    const store = this.piStore();
    if (!store.exists()) return;
    let ids: string[];
    try {
      ids = (await store.list()).map((c) => c.providerId);
    } catch (e) {
      this.deps.log.warn(`pi's stored logins (${store.file}) cannot be read: ${errorText(e)}`);
      return;
    }
    if (ids.length === 0) return;
    const choice = await vscode.window.showInformationMessage(
      `pi has logins or keys stored for ${ids.join(", ")}. Use them in Agent Tree too? (Agent Tree reads pi's ` +
        `auth.json and refreshes its tokens under pi's lock; nothing is copied.)`,
      "Use pi's Logins",
      "No",
    );
    // Only an answer is remembered: a notification closed without one asks again next time.
    if (choice === "Use pi's Logins") await this.usePiCredentials(true);
    else if (choice === "No") await this.usePiCredentials(false);
  }

  private async readPiFiles(): Promise<Awaited<ReturnType<typeof readPiAgentConfig>>> {
    const pi = await readPiAgentConfig({ projectDir: this.deps.cwd, trusted: vscode.workspace.isTrusted });
    this.piSettings = pi.settings;
    this.report(pi.issues);
    return pi;
  }

  /** Each problem once (a file read again with the same problem says nothing new). */
  private report(issues: readonly ConfigIssue[]): void {
    const fresh = issues.map(formatIssue).filter((line) => this.reportOnce(line, false));
    if (fresh.length > 0)
      void vscode.window.showWarningMessage(
        `Agent Tree: ${fresh.length === 1 ? fresh[0] : `${fresh.length} problems in pi's model files; see the Agent Tree log.`}`,
      );
  }

  /** Logs `line` unless it was logged before; true when it is new. */
  private reportOnce(line: string, notify: boolean): boolean {
    if (this.reported.has(line)) return false;
    this.reported.add(line);
    this.deps.log.warn(line);
    if (notify) void vscode.window.showWarningMessage(`Agent Tree: ${line}`);
    return true;
  }

  private watchPiFiles(files: readonly string[]): void {
    const agentDir = getAgentDir();
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(agentDir), "{models,settings,auth}.json"),
    );
    const reread = (uri: vscode.Uri): void => {
      if (uri.path.endsWith("/auth.json")) {
        // pi logged in or out, or refreshed a token.
        if (this.credentials.usesPi) void this.loaded?.refreshAuth();
        return;
      }
      void this.readPiFiles()
        .then((pi) => {
          this.loaded?.setPiModels(pi.models.config, pi.models.file);
          if (this.loaded) this.report(this.loaded.issues());
          this.changed.fire();
        })
        .catch((e: unknown) => this.deps.log.warn(`pi's model files: ${errorText(e)}`));
    };
    watcher.onDidChange(reread);
    watcher.onDidCreate(reread);
    watcher.onDidDelete(reread);
    this.disposables.push(watcher);
    this.deps.log.info(`Watching pi's model files: ${files.join(", ")}`);
  }
}

/** A vendor's name as the extension contributing it gives it (`contributes.languageModelChatProviders`). */
function vendorDisplayName(vendor: string): string | undefined {
  for (const ext of vscode.extensions.all) {
    const contributes = (ext.packageJSON as { contributes?: Record<string, unknown> } | undefined)?.contributes;
    for (const key of ["languageModelChatProviders", "languageModels"]) {
      const list = contributes?.[key];
      if (!Array.isArray(list)) continue;
      for (const entry of list as { vendor?: unknown; displayName?: unknown }[])
        if (entry?.vendor === vendor && typeof entry.displayName === "string" && entry.displayName)
          return entry.displayName;
    }
  }
  return undefined;
}
