/**
 * The model picker: one QuickPick behind "Agent: Select Model" and the chat's model button, over the rows of
 * model-picker-rows.ts (grouped by provider under separators, the short list first, providers that cannot be called
 * yet last with "Log In…" / "Set API Key…"). Searching matches the name, `provider/id` and the detail line. Choosing
 * a model of a provider that is not set up sets the provider up first (its buttons do the same), then switches.
 * The items are built once per change of the models (1,700 of them: see `npm run bench -- --models-only`).
 */
import * as vscode from "vscode";
import type { ThinkingLevel } from "../../core/providers/types.js";
import { setupLabel, type PickerRow, type SetupKind } from "./model-picker-rows.js";

type Item = vscode.QuickPickItem & { row?: PickerRow };
type SetupButton = vscode.QuickInputButton & { setup: SetupKind };

/** What the picker does with a choice. */
export interface ModelPickerActions {
  /** Switch to a model (with the level its short-list pattern names). */
  select(key: string, thinkingLevel?: ThinkingLevel): void;
  /** Set up a provider (a login, a key); true when it can be called afterwards. */
  setUp(providerId: string, kind?: SetupKind): Promise<boolean>;
  /** The provider's name, for the buttons' tooltips. */
  providerName(providerId: string): string;
}

/** QuickPick items of the rows (kept while the rows are the same: building 1,700 items is not free). */
export function pickerItems(rows: readonly PickerRow[], actions: Pick<ModelPickerActions, "providerName">): Item[] {
  return rows.map((row): Item => {
    switch (row.kind) {
      case "separator":
        return { label: row.label, kind: vscode.QuickPickItemKind.Separator };
      case "setup":
        return {
          label: `${row.setup === "login" ? "$(account)" : "$(key)"} ${row.label}`,
          description: row.description,
          row,
        };
      case "model": {
        const name = actions.providerName(row.providerId);
        const buttons: SetupButton[] = row.setup.map((setup) => ({
          iconPath: new vscode.ThemeIcon(setup === "login" ? "account" : "key"),
          tooltip: setupLabel(setup, name),
          setup,
        }));
        return {
          label: row.current ? `$(check) ${row.name}` : row.name,
          description: row.description,
          detail: row.detail,
          ...(buttons.length > 0 ? { buttons } : {}),
          row,
        };
      }
    }
  });
}

/**
 * Shows the picker on `items` and acts on the choice. Resolves when the picker closed (and what was chosen ran).
 * `shown` is called right after the picker is on screen (for the open time in the log).
 */
export function showModelPicker(items: readonly Item[], actions: ModelPickerActions, shown: () => void): Promise<void> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<Item>();
    pick.title = "Select Model";
    pick.placeholder = "Search models by name, provider or id";
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    pick.items = items;
    const current = items.find((i) => i.row?.kind === "model" && i.row.current);
    if (current) pick.activeItems = [current];
    let chosen: (() => Promise<void>) | undefined;
    const modelChosen = (row: Extract<PickerRow, { kind: "model" }>, kind?: SetupKind) => async () => {
      if (!row.ready && !(await actions.setUp(row.providerId, kind))) return;
      actions.select(row.key, row.thinkingLevel);
    };
    pick.onDidAccept(() => {
      const row = pick.selectedItems[0]?.row;
      if (!row || row.kind === "separator") return;
      chosen =
        row.kind === "model"
          ? modelChosen(row)
          : async () => {
              await actions.setUp(row.providerId, row.setup);
            };
      pick.hide();
    });
    pick.onDidTriggerItemButton((e) => {
      const row = e.item.row;
      if (row?.kind !== "model") return;
      chosen = modelChosen(row, (e.button as SetupButton).setup);
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      void (chosen?.() ?? Promise.resolve()).finally(resolve);
    });
    pick.show();
    shown();
  });
}

/**
 * One or more models at once (Replay with Model…): the same grouped rows as the picker, ready models only (a
 * provider cannot be set up from here), a check box each, the current model checked. Resolves the checked models'
 * keys in row order ([] when none was checked), or undefined when the picker was closed without accepting.
 */
export function showModelsPicker(
  rows: readonly PickerRow[],
  actions: Pick<ModelPickerActions, "providerName">,
  title: string,
): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<Item>();
    pick.title = title;
    pick.placeholder = "Check one or more models (Space checks the highlighted one), then Enter";
    pick.canSelectMany = true;
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    const items = pickerItems(rows, actions);
    pick.items = items;
    pick.selectedItems = items.filter((i) => i.row?.kind === "model" && i.row.current);
    let accepted: string[] | undefined;
    pick.onDidAccept(() => {
      accepted = pick.selectedItems.flatMap((i) => (i.row?.kind === "model" ? [i.row.key] : []));
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(accepted);
    });
    pick.show();
  });
}
