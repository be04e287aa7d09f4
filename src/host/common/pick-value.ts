/**
 * The one quick pick of a value: shows `items`, resolves to the chosen item's value, or undefined when dismissed.
 * Also the quick picks' icon buttons.
 */
import * as vscode from "vscode";
import { toError } from "../../core/error-text.js";

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

/** Items that take a while to find, and the placeholder to show once they are there. */
export interface LoadedItems<T> {
  items: readonly ValueItem<T>[];
  placeholder?: string;
}

/** Items that take a while to find, found by a function told to stop (`signal`) when the pick closes first. */
export type ItemsLoader<T> = (signal: AbortSignal) => Promise<LoadedItems<T>>;

/**
 * See the file comment. Typing matches labels and descriptions (and details when asked). `items` may be a promise,
 * or a loader given a signal (e.g. a folder being read): the pick shows at once, busy with `options.placeholder`, and
 * fills in when it settles; if it fails, the pick closes and the promise returned rejects with its error. Closing
 * the pick before aborts the loader's signal (its work stops; what it rejects with then is not an error).
 */
export function pickValue<T>(
  items: readonly ValueItem<T>[] | Promise<LoadedItems<T>> | ItemsLoader<T>,
  options: PickOptions<T>,
): Promise<T | undefined> {
  const qp = vscode.window.createQuickPick<ValueItem<T>>();
  qp.title = options.title;
  if (options.placeholder !== undefined) qp.placeholder = options.placeholder;
  qp.matchOnDescription = true;
  qp.matchOnDetail = options.matchOnDetail === true;
  const fill = (rows: readonly ValueItem<T>[]): void => {
    qp.items = rows;
    if (options.active) qp.activeItems = [options.active];
  };
  const stop = new AbortController();
  return new Promise((resolve, reject) => {
    let done = false;
    qp.onDidAccept(() => {
      // Enter while still loading picks nothing: there is nothing to pick yet.
      if (qp.busy) return;
      done = true;
      resolve((qp.selectedItems[0] ?? qp.activeItems[0])?.value);
      qp.hide();
    });
    qp.onDidHide(() => {
      done = true;
      stop.abort();
      resolve(undefined);
      qp.dispose();
    });
    if (Array.isArray(items)) fill(items as readonly ValueItem<T>[]);
    else {
      qp.busy = true;
      const loading = typeof items === "function" ? items(stop.signal) : (items as Promise<LoadedItems<T>>);
      loading.then(
        (loaded) => {
          if (done) return;
          qp.busy = false;
          if (loaded.placeholder !== undefined) qp.placeholder = loaded.placeholder;
          fill(loaded.items);
        },
        (e: unknown) => {
          if (done) return;
          done = true;
          reject(toError(e));
          qp.hide();
        },
      );
    }
    qp.show();
  });
}
