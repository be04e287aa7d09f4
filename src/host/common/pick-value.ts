/**
 * The one quick pick of a value: shows `items`, resolves to the chosen item's value, or undefined when dismissed.
 * Also the quick picks' icon buttons.
 */
import * as vscode from "vscode";

/** A quick pick's button: a codicon and its tooltip. */
export function iconButton(icon: string, tooltip: string): vscode.QuickInputButton {
  return { iconPath: new vscode.ThemeIcon(icon), tooltip };
}

/** A quick-pick item carrying the value it stands for (separators carry none). */
export type ValueItem<T> = vscode.QuickPickItem & { value?: T };

/** How the pick looks: title, placeholder, what typing matches, where the cursor starts. */
export interface PickOptions<T> {
  title: string;
  placeholder?: string;
  matchOnDetail?: boolean;
  /** The item the cursor starts on (the leaf, in the node pickers). */
  active?: ValueItem<T>;
}

/** See the file comment. Typing matches labels and descriptions (and details when asked). */
export function pickValue<T>(items: readonly ValueItem<T>[], options: PickOptions<T>): Promise<T | undefined> {
  const qp = vscode.window.createQuickPick<ValueItem<T>>();
  qp.items = items;
  qp.title = options.title;
  if (options.placeholder !== undefined) qp.placeholder = options.placeholder;
  qp.matchOnDescription = true;
  qp.matchOnDetail = options.matchOnDetail === true;
  if (options.active) qp.activeItems = [options.active];
  return new Promise((resolve) => {
    qp.onDidAccept(() => {
      resolve((qp.selectedItems[0] ?? qp.activeItems[0])?.value);
      qp.hide();
    });
    qp.onDidHide(() => {
      resolve(undefined);
      qp.dispose();
    });
    qp.show();
  });
}
