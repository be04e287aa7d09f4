/** Reading and driving the tree view in Chromium, for the tree view tests. */
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
