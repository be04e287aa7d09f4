/**
 * The host's owner of the model registry: built on first use (never during activation: pi-ai and its catalog load
 * then, see docs/models.md "Lazy loading"), from pi's models.json and settings.json (its agent folder, watched)
 * and the settings `agentTree.models.custom` / `agentTree.model` — VS Code's over pi's. Problems of either file
 * are reported once each, naming the file and field.
 */
import * as vscode from "vscode";
import { ModelRegistry } from "../../core/providers/model-registry.js";
import { formatIssue, type ConfigIssue } from "../../core/providers/json-check.js";
import { readPiAgentConfig } from "../../core/providers/pi-agent-config.js";
import {
  mergeModelSettings,
  type EffectiveModelSettings,
  type PiModelSettings,
} from "../../core/providers/pi-settings.js";
import { getAgentDir } from "../../core/session/paths.js";
import { errorText } from "../../core/error-text.js";
import type { ApiKeys } from "./api-keys.js";
import { customModelsSetting, defaultModelSetting } from "../settings.js";

/** What the service needs. */
export interface ModelServiceDeps {
  keys: ApiKeys;
  log: vscode.LogOutputChannel;
  /** The workspace folder (its `.pi/settings.json` counts in a trusted workspace). */
  cwd: string;
}

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

  constructor(private readonly deps: ModelServiceDeps) {
    this.disposables.push(this.changed);
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

  /** The settings in force: VS Code's `agentTree.model` over pi's settings.json, pi's compaction settings. */
  settings(): EffectiveModelSettings {
    return mergeModelSettings(this.piSettings, { model: defaultModelSetting() });
  }

  /** `provider/id` of pi's default model (settings.json `defaultProvider`/`defaultModel`; "" when none is set). */
  piDefaultModelKey(): string {
    const m = mergeModelSettings(this.piSettings).defaultModel;
    return m ? `${m.provider}/${m.id}` : "";
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

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private async build(): Promise<ModelRegistry> {
    const started = Date.now();
    const pi = await this.readPiFiles();
    const registry = await ModelRegistry.create({ custom: customModelsSetting(), piModels: pi.models });
    this.loaded = registry;
    this.report(registry.issues());
    // The host's own keys (SecretStorage) of every provider, so the picker knows at once which are usable.
    await this.deps.keys.load(registry.providers().map((p) => p.id));
    this.disposables.push({ dispose: registry.onDidChange(() => this.changed.fire()) });
    this.watchPiFiles(pi.watch);
    this.deps.log.info(
      `Models: ${registry.all().length} models of ${registry.providers().length} providers loaded in ${Date.now() - started} ms`,
    );
    this.changed.fire();
    return registry;
  }

  private async readPiFiles(): Promise<Awaited<ReturnType<typeof readPiAgentConfig>>> {
    const pi = await readPiAgentConfig({ projectDir: this.deps.cwd, trusted: vscode.workspace.isTrusted });
    this.piSettings = pi.settings;
    this.report(pi.issues);
    return pi;
  }

  /** Each problem once (a file read again with the same problem says nothing new). */
  private report(issues: readonly ConfigIssue[]): void {
    const fresh = issues.map(formatIssue).filter((line) => !this.reported.has(line));
    for (const line of fresh) {
      this.reported.add(line);
      this.deps.log.warn(line);
    }
    if (fresh.length > 0)
      void vscode.window.showWarningMessage(
        `Agent Tree: ${fresh.length === 1 ? fresh[0] : `${fresh.length} problems in pi's model files; see the Agent Tree log.`}`,
      );
  }

  private watchPiFiles(files: readonly string[]): void {
    const agentDir = getAgentDir();
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(agentDir), "{models,settings}.json"),
    );
    const reread = (): void => {
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
