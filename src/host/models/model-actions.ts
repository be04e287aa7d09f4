/**
 * The model commands: **Agent: Select Model** (the picker, also behind the chat's model button), **Agent: Next
 * Model** (cycles the short list, as pi's Ctrl+P), **Agent: Select Thinking Level**, and the pickers of several
 * models and their level (Replay with Model…); keys and logins are credential-actions.ts's.
 */
import { performance } from "node:perf_hooks";
import * as vscode from "vscode";
import type { ModelRegistry } from "../../core/providers/model-registry.js";
import {
  supportedThinkingLevels,
  THINKING_LEVEL_DESCRIPTIONS,
  THINKING_LEVELS,
} from "../../core/providers/thinking-levels.js";
import type { ModelInfo, ThinkingLevel } from "../../core/providers/types.js";
import type { Notify } from "../common/notifier.js";
import type { SessionController } from "../session/session-controller.js";
import type { CredentialActions } from "./credential-actions.js";
import { modelKey } from "./model-choice.js";
import { nextInShortList } from "./next-model.js";
import { pickerItems, showModelPicker, showModelsPicker } from "./model-picker.js";
import { pickerRows } from "./model-picker-rows.js";
import type { ModelService } from "./model-service.js";

/** See the file comment. */
export class ModelActions {
  /** The picker's items, built once per change of the models, their readiness or the settings. */
  private items: { version: number; currentKey: string; items: ReturnType<typeof pickerItems> } | undefined;
  private version = 0;

  constructor(
    private readonly controller: SessionController,
    private readonly service: ModelService,
    readonly credentials: CredentialActions,
    private readonly notify: Pick<Notify, "status" | "error" | "info">,
    private readonly log: (line: string) => void,
  ) {
    service.onDidChange(() => this.version++);
  }

  /** The model, the short list or the settings changed (the current model is marked in the picker). */
  invalidate(): void {
    this.version++;
  }

  /** Agent: Select Model — the picker of every model (see model-picker.ts). */
  async selectModel(): Promise<void> {
    const started = performance.now();
    const registry = await this.controller.models();
    const built = this.pickerItemsFor(registry);
    await showModelPicker(
      built.items,
      {
        select: (key, level) => this.select(key, level),
        setUp: (providerId, kind) => this.credentials.setUp(providerId, kind),
        providerName: (id) => registry.provider(id)?.name ?? id,
      },
      () =>
        this.log(
          `Model picker: ${built.items.length} items (${built.fresh ? "built" : "cached"}) shown in ${Math.round(performance.now() - started)} ms`,
        ),
    );
  }

  /** Agent: Next Model — the next model of the short list (pi's `enabledModels`; every usable model without one). */
  async nextModel(): Promise<void> {
    const registry = await this.controller.models();
    const { models, configured } = this.service.shortList(registry);
    const current = this.controller.agent?.getModel();
    const next = nextInShortList(models, current ? modelKey(current) : undefined);
    if (!next) {
      const choice = await vscode.window.showInformationMessage(
        configured
          ? "No model of the short list (enabledModels) can be called: log in or set an API key for one."
          : "No model can be called yet: log in or set an API key.",
        "Log In…",
        "Set API Key…",
      );
      if (choice === "Log In…") await this.credentials.logIn();
      if (choice === "Set API Key…") await this.credentials.setApiKey();
      return;
    }
    if (models.length === 1 && current && modelKey(current) === modelKey(next.scoped.model)) {
      this.notify.status(`Only ${next.scoped.model.name} is in the short list.`);
      return;
    }
    this.select(modelKey(next.scoped.model), next.scoped.thinkingLevel, `(${next.index + 1}/${models.length})`);
  }

  /** Switch to a model by key (picker, Next Model or webview), with a thinking level its pattern named. */
  select(key: string, thinkingLevel?: ThinkingLevel, suffix = ""): void {
    const error = this.controller.selectModel(key);
    if (error) {
      void vscode.window.showErrorMessage(error);
      return;
    }
    this.invalidate();
    const model = this.controller.agent?.getModel();
    if (thinkingLevel && model && this.controller.modelRegistry) {
      const level = this.controller.modelRegistry.clampThinkingLevel(model, thinkingLevel);
      this.controller.selectThinkingLevel(level);
    }
    this.notify.status(`Model: ${model?.name ?? key}${suffix ? ` ${suffix}` : ""}`);
  }

  /** Select Thinking Level: a quick pick of the levels the current model takes. */
  async selectThinkingLevel(): Promise<void> {
    const agent = this.controller.agent;
    if (!agent) return;
    const current = this.controller.thinkingLevelInUse();
    const levels = agent.getSupportedThinkingLevels();
    const model = agent.getModel();
    const picked = await vscode.window.showQuickPick(
      levels.map((level) => ({
        label: level,
        description: `${THINKING_LEVEL_DESCRIPTIONS[level]}${level === current ? " (current)" : ""}`,
        level,
      })),
      {
        title: "Select Thinking Level",
        placeHolder:
          levels.length > 1
            ? `How hard ${model?.name ?? "the model"} thinks`
            : `${model?.name ?? "No model"} does not think: only "off"`,
      },
    );
    if (picked) this.setThinkingLevel(picked.level);
  }

  /**
   * Several models at once (Replay with Model…): the picker's grouped rows of the models that can be called, each
   * with a check box, the current one checked. [] when none was checked; undefined when cancelled.
   */
  async pickModels(title: string): Promise<ModelInfo[] | undefined> {
    const registry = await this.controller.models();
    const ready = registry.listModels().filter((l) => l.ready);
    const current = this.controller.agent?.getModel();
    const shortList = this.service.shortList(registry);
    const rows = pickerRows({
      listings: ready,
      providers: registry.providers(),
      shortList: shortList.configured ? shortList.models : [],
      currentKey: current ? modelKey(current) : "",
    });
    const keys = await showModelsPicker(rows, { providerName: (id) => registry.provider(id)?.name ?? id }, title);
    if (keys === undefined) return undefined;
    const byKey = new Map(ready.map((l) => [modelKey(l.model), l.model]));
    return keys.flatMap((k) => byKey.get(k) ?? []);
  }

  /**
   * A thinking level for `models` (Replay with Model…): every level one of them takes, the session's level first;
   * each request carries the nearest level its model takes. Undefined when cancelled.
   */
  async pickThinkingLevel(models: readonly ModelInfo[], title: string): Promise<ThinkingLevel | undefined> {
    const current = this.controller.agent?.getThinkingLevel() ?? "off";
    const taken = new Set(models.flatMap((m) => supportedThinkingLevels(m)));
    const levels = THINKING_LEVELS.filter((l) => taken.has(l) || l === current);
    const items = levels.map((level) => ({
      label: level,
      description: `${THINKING_LEVEL_DESCRIPTIONS[level]}${level === current ? " (current)" : ""}`,
      level,
    }));
    const picked = await new Promise<ThinkingLevel | undefined>((resolve) => {
      const pick = vscode.window.createQuickPick<(typeof items)[number]>();
      pick.title = title;
      pick.placeholder =
        levels.length > 1 ? "How hard the models think (each takes the nearest level it can)" : 'Only "off"';
      pick.items = items;
      pick.activeItems = items.filter((i) => i.level === current);
      let chosen: ThinkingLevel | undefined;
      pick.onDidAccept(() => {
        chosen = (pick.selectedItems[0] ?? pick.activeItems[0])?.level;
        pick.hide();
      });
      pick.onDidHide(() => {
        pick.dispose();
        resolve(chosen);
      });
      pick.show();
    });
    return picked;
  }

  /** Switch the thinking level (picker or webview). */
  setThinkingLevel(level: ThinkingLevel): void {
    const error = this.controller.selectThinkingLevel(level);
    if (!error) return this.notify.status(`Thinking level: ${level}`);
    void vscode.window.showErrorMessage(error);
    // The chat's picker already shows the refused level: give it the one in force again.
    this.controller.pushChat();
  }

  /** Agent: Set API Key. */
  async setApiKey(): Promise<void> {
    await this.credentials.setApiKey();
  }

  private pickerItemsFor(registry: ModelRegistry): { items: ReturnType<typeof pickerItems>; fresh: boolean } {
    const current = this.controller.agent?.getModel();
    const currentKey = current ? modelKey(current) : "";
    if (this.items?.version === this.version && this.items.currentKey === currentKey)
      return { items: this.items.items, fresh: false };
    const shortList = this.service.shortList(registry);
    const rows = pickerRows({
      listings: registry.listModels(),
      providers: registry.providers(),
      shortList: shortList.configured ? shortList.models : [],
      currentKey,
    });
    const items = pickerItems(rows, { providerName: (id) => registry.provider(id)?.name ?? id });
    this.items = { version: this.version, currentKey, items };
    return { items, fresh: true };
  }
}
