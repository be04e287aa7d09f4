/** Model picker and API keys. */
import * as vscode from "vscode";
import { THINKING_LEVEL_DESCRIPTIONS } from "../core/providers/thinking-levels.js";
import type { ThinkingLevel } from "../core/providers/types.js";
import type { ApiKeys } from "./api-keys.js";
import type { Notify } from "./common/notifier.js";
import { modelKey } from "./model-choice.js";
import type { SessionController } from "./session-controller.js";

/** See the file comment. */
export class ModelActions {
  constructor(
    private readonly controller: SessionController,
    private readonly keys: ApiKeys,
    private readonly notify: Pick<Notify, "status" | "error">,
  ) {}

  /** Quick pick of the usable models; offers Set API Key when there are none. */
  async selectModel(): Promise<void> {
    await this.controller.models();
    const usable = this.controller.usable();
    if (usable.length === 0) {
      const choice = await vscode.window.showInformationMessage(
        "No model is usable yet: set an API key or add a local model (setting agentTree.models.custom).",
        "Set API Key",
        "Open Settings",
      );
      if (choice === "Set API Key") await this.setApiKey();
      if (choice === "Open Settings")
        await vscode.commands.executeCommand("workbench.action.openSettings", "agentTree.models");
      return;
    }
    const current = this.controller.agent?.getModel();
    const items = usable.map((m) => ({
      label: m.name,
      description: `${modelKey(m)}${current && modelKey(current) === modelKey(m) ? " (current)" : ""}`,
      detail: `${Math.round(m.contextWindow / 1000)}k context${m.baseUrl ? ` · ${m.baseUrl}` : ""}`,
      key: modelKey(m),
    }));
    const picked = await vscode.window.showQuickPick(items, { title: "Select Model", matchOnDescription: true });
    if (picked) this.select(picked.key);
  }

  /** Switch to a model by key (picker or webview). */
  select(key: string): void {
    const error = this.controller.selectModel(key);
    if (error) void vscode.window.showErrorMessage(error);
    else this.notify.status(`Model: ${key}`);
  }

  /** Select Thinking Level: a quick pick of the levels the current model takes. */
  async selectThinkingLevel(): Promise<void> {
    const agent = this.controller.agent;
    if (!agent) return;
    const current = agent.getThinkingLevel();
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

  /** Switch the thinking level (picker or webview). */
  setThinkingLevel(level: ThinkingLevel): void {
    const error = this.controller.selectThinkingLevel(level);
    if (!error) return this.notify.status(`Thinking level: ${level}`);
    void vscode.window.showErrorMessage(error);
    // The chat's picker already shows the refused level: give it the one in force again.
    this.controller.pushChat();
  }

  /** Store a provider's key in SecretStorage (never in settings or logs). */
  async setApiKey(): Promise<void> {
    const registry = await this.controller.models();
    // Every provider that takes a key (pi-ai's and the configured ones), named as pi names them.
    const providers = registry.providers().filter((p) => p.auth.apiKey);
    const picked = await vscode.window.showQuickPick(
      providers.map((p) => ({
        label: p.id,
        description: p.name !== p.id ? p.name : undefined,
        detail: p.auth.apiKey?.envNames.length ? `instead of ${p.auth.apiKey.envNames.join(" / ")}` : undefined,
      })),
      { title: "Set API Key", placeHolder: "Which provider's key?", matchOnDescription: true },
    );
    if (!picked) return;
    const key = await vscode.window.showInputBox({
      title: `API key for ${picked.label}`,
      prompt: "Stored in VS Code's secret storage. Leave empty to remove the stored key.",
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined) return;
    await this.keys.set(picked.label, key);
    this.controller.refreshModels();
    this.notify.status(key.trim() ? `API key for ${picked.label} stored.` : `API key for ${picked.label} removed.`);
  }
}
