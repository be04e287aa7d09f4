/**
 * Helpers for the Agent Tree UI in the workbench: the tree and chat webviews (selectors agreed with the
 * webview: rows `role="treeitem"` with `data-entry-id`, the leaf row `.active-leaf`, the chat textarea
 * `aria-label="Message"`, buttons "Send"/"Abort"), and reading the session file the UI writes.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { FrameLocator, Locator, Page } from "playwright-core";
import { findWebview, waitUntil } from "./workbench.js";

/** The tree webview's inner frame. */
export function treeView(page: Page): Promise<FrameLocator> {
  return findWebview(page, '[role="tree"]');
}

/** The chat webview's inner frame. */
export function chatView(page: Page): Promise<FrameLocator> {
  return findWebview(page, 'textarea[aria-label="Message"]');
}

/** The tree row of an entry. */
export function row(tree: FrameLocator, entryId: string): Locator {
  return tree.locator(`[role="treeitem"][data-entry-id="${entryId}"]`);
}

/** Id of the row marked as the active leaf, or undefined when none is. */
export async function activeLeafId(tree: FrameLocator): Promise<string | undefined> {
  const leaf = tree.locator('[role="treeitem"].active-leaf');
  if ((await leaf.count()) !== 1) return undefined;
  return (await leaf.getAttribute("data-entry-id")) ?? undefined;
}

/** Waits until the active leaf is `entryId` (or satisfies `test`) and returns it. */
export async function waitForLeaf(
  tree: FrameLocator,
  expected: string | ((id: string) => boolean),
  what: string,
  timeoutMs?: number,
): Promise<string> {
  const test = typeof expected === "string" ? (id: string) => id === expected : expected;
  let last: string | undefined;
  return waitUntil(
    async () => {
      last = await activeLeafId(tree);
      return last !== undefined && test(last) ? last : undefined;
    },
    `${what} (active leaf is ${last ?? "none"})`,
    timeoutMs,
  );
}

/** Ids of all rendered tree rows, top to bottom. */
export async function rowIds(tree: FrameLocator): Promise<string[]> {
  return tree
    .locator('[role="treeitem"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-entry-id") ?? "").filter((id) => id !== ""));
}

/** Types a prompt into the chat and clicks Send. */
export async function sendPrompt(chat: FrameLocator, text: string): Promise<void> {
  const input = chat.locator('textarea[aria-label="Message"]');
  await input.fill(text);
  await chat.getByRole("button", { name: "Send" }).click();
}

/** One parsed line of a session file. */
export type SessionLine = Record<string, unknown> & { type: string; id?: string; parentId?: string | null };

/** Parses a session file (header first). Throws on a broken line: the UI must never write one. */
export function readSession(file: string): SessionLine[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l, i) => {
      try {
        return JSON.parse(l) as SessionLine;
      } catch {
        throw new Error(`${file}:${i + 1} is not valid JSON: ${l.slice(0, 200)}`);
      }
    });
}

/** The entry with `id` in a session file. */
export function entryById(file: string, id: string): SessionLine | undefined {
  return readSession(file).find((l) => l.id === id);
}

/** Session files (*.jsonl) in a folder, full paths. */
export function sessionFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => join(dir, f));
}
