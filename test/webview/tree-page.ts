/** Reading and driving the tree view in Chromium, for the tree view tests. */
import type { WebviewToHost } from "../../src/shared/protocol.js";
import { settle, type ViewPage } from "./harness.js";

/** The ids of the rendered rows, top to bottom. */
export async function rowIds(vp: ViewPage): Promise<string[]> {
  return vp.page.$$eval('[role="treeitem"]', (els) =>
    els
      .map((e) => ({ id: e.getAttribute("data-entry-id") ?? "", top: parseFloat((e as HTMLElement).style.top) }))
      .sort((a, b) => a.top - b.top)
      .map((x) => x.id),
  );
}

/** Press `key` with the tree focused, and wait for the view to paint. */
export async function press(vp: ViewPage, key: string): Promise<void> {
  await vp.page.focus('[role="tree"]');
  await vp.page.keyboard.press(key);
  await settle(vp.page);
}

/** Press each of `keys` in turn with the tree focused, as press() does. */
export async function pressAll(vp: ViewPage, keys: readonly string[]): Promise<void> {
  for (const key of keys) await press(vp, key);
}

/** What the tree posted to act or move, without the hover texts it asked for on the way (tree/requestText). */
export async function postedActions(vp: ViewPage): Promise<WebviewToHost[]> {
  return (await vp.posted()).filter((m) => m.type !== "tree/requestText");
}
