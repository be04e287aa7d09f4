/**
 * Playwright helpers that drive the VS Code web workbench the way a user does: activity bar, webview views,
 * command palette, quick picks, context menus, screenshots. Every wait is bounded and fails with a message
 * that says what was awaited.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type BrowserContext, type FrameLocator, type Locator, type Page } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./chromium.js";
import { REPO_ROOT, sleep } from "./code-server.js";

/** The extension's id as VS Code puts it into webview iframe URLs. */
export const EXTENSION_ID = "agent-tree.agent-tree";

/** Where step screenshots go (git-ignored). */
export const ARTIFACT_DIR = join(REPO_ROOT, "test-results", "e2e");

/** Default bound for UI waits. The machine is shared and slow; failures still come in well under a minute. */
export const UI_TIMEOUT_MS = 30_000;

/**
 * Bound for finding an Agent view's frame. On code-server a view that starts together with the other one can
 * stay blank until the extension re-creates it (8 s per attempt, up to 3 attempts, one view at a time), so
 * this allows for a few rounds of that; a healthy view appears within seconds.
 */
export const WEBVIEW_TIMEOUT_MS = 90_000;

/** Launches headless Chromium with a fresh profile, no network beyond 127.0.0.1. */
export async function launchBrowser(profileDir: string): Promise<BrowserContext> {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: [...CHROMIUM_ARGS, "--disable-dev-shm-usage", '--host-resolver-rules="MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"'],
  });
  return context;
}

/** Opens the workbench URL and waits for the activity bar. */
export async function openWorkbench(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: "domcontentloaded", timeout: 60_000 });
  await page
    .locator(".monaco-workbench .part.activitybar")
    .waitFor({ state: "visible", timeout: 60_000 })
    .catch((err: unknown) => {
      throw new Error(`the VS Code workbench did not appear at ${url}: ${String(err)}`);
    });
}

/**
 * Reloads the window ("Developer: Reload Window" as far as the extension can tell: a new extension host and
 * new webviews), like a user's reload. Both Agent views start again together, which on code-server can leave
 * one blank until the extension re-creates it (src/host/views/webview-ready-watchdog.ts): callers wait for the
 * views with bounds that allow for that.
 */
export async function reloadWorkbench(page: Page, url: string): Promise<void> {
  await page.reload({ waitUntil: "domcontentloaded", timeout: 60_000 });
  await openWorkbench(page, url);
}

/** Clicks the activity-bar entry whose aria-label starts with `title` (e.g. "Agent") unless its view is open. */
export async function openViewContainer(page: Page, title: string): Promise<void> {
  const item = page.locator(`.part.activitybar .action-item a[aria-label^="${title}"]`).first();
  await item.waitFor({ state: "visible", timeout: UI_TIMEOUT_MS }).catch(() => {
    throw new Error(`no activity-bar entry "${title}" (is the extension loaded? its viewsContainers contributed?)`);
  });
  // Open means: the entry is checked *and* the side bar is shown. The entry's state is not read once and
  // acted on: during a window reload the workbench restores the last open container a moment later, and a
  // click meant to open it would then toggle it closed. So look, click only when it is closed, and look again.
  const isOpen = async (): Promise<boolean> => {
    const entry = item.locator("xpath=..");
    const checked =
      (await entry.getAttribute("aria-checked")) === "true" ||
      ((await entry.getAttribute("class"))?.split(/\s+/).includes("checked") ?? false);
    return checked && (await page.locator(".part.sidebar").isVisible());
  };
  for (let attempt = 0; attempt < 4; attempt++) {
    if (await holdsWithin(isOpen, attempt === 0 ? 1_500 : 5_000)) return;
    await item.click();
  }
  if (await holdsWithin(isOpen, 5_000)) return;
  throw new Error(`the "${title}" view container did not open after 4 clicks on its activity-bar entry`);
}

/** Polls `condition` every 200 ms until it holds (true) or `timeoutMs` has passed (false). */
async function holdsWithin(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition().catch(() => false)) return true;
    if (Date.now() >= deadline) return false;
    await sleep(200);
  }
}

/**
 * The inner frame of this extension's webview view that contains `marker` (e.g. `[role="tree"]`).
 * Webview views are two nested iframes overlaid on the workbench; several may exist (tree, chat), so the
 * one holding the marker is chosen. Throws after `timeoutMs` (default {@link WEBVIEW_TIMEOUT_MS}).
 */
export async function findWebview(page: Page, marker: string, timeoutMs = WEBVIEW_TIMEOUT_MS): Promise<FrameLocator> {
  const outer = page.locator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const count = await outer.count();
    for (let i = 0; i < count; i++) {
      const inner = outer.nth(i).contentFrame().locator("iframe#active-frame").contentFrame();
      if (
        (await inner
          .locator(marker)
          .count()
          .catch(() => 0)) > 0
      )
        return inner;
    }
    await sleep(250);
  }
  const count = await outer.count();
  throw new Error(`no ${EXTENSION_ID} webview containing ${marker} within ${timeoutMs} ms (${count} webview(s) found)`);
}

/** Waits for a locator with a clear message. */
export async function expectVisible(locator: Locator, what: string, timeoutMs = UI_TIMEOUT_MS): Promise<void> {
  await locator
    .first()
    .waitFor({ state: "visible", timeout: timeoutMs })
    .catch(() => {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    });
}

/** Polls `probe` until it returns a value that is not undefined; throws `what` on timeout. */
export async function waitUntil<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = UI_TIMEOUT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    await sleep(200);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ""}`);
}

/** The workbench's quick input (command palette, quick picks, input boxes). */
export function quickInput(page: Page): Locator {
  return page.locator(".quick-input-widget");
}

/** Opens the command palette and runs the command whose title is `title` (e.g. "Agent: New Session"). */
export async function runCommand(page: Page, title: string): Promise<void> {
  const widget = quickInput(page);
  for (let attempt = 0; attempt < 3; attempt++) {
    // Focus the workbench, not a webview: keys typed into a webview do not always reach the palette.
    await page.locator(".part.statusbar").first().hover();
    await page.keyboard.press("F1");
    if (await widget.isVisible({ timeout: 1000 }).catch(() => false)) break;
    await page
      .locator(".monaco-workbench")
      .first()
      .click({ position: { x: 700, y: 5 } });
  }
  await expectVisible(widget, "the command palette");
  const input = widget.locator(".quick-input-box input");
  await input.fill(`>${title}`);
  const row = widget.locator(".quick-input-list .monaco-list-row", { hasText: title }).first();
  await expectVisible(row, `command "${title}" in the palette`);
  await row.click();
}

/** Picks the quick-pick item whose label is exactly `label`. */
export async function pickQuickItem(page: Page, label: string): Promise<void> {
  const widget = quickInput(page);
  await expectVisible(widget, `a quick pick offering "${label}"`);
  const row = widget
    .locator(".quick-input-list .monaco-list-row")
    .filter({ has: page.locator(".label-name", { hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }) })
    .first();
  await expectVisible(row, `quick-pick item "${label}"`);
  await row.click();
}

/** Filters the open quick pick with `filter` and picks the first item whose text contains `text`. */
export async function pickQuickItemContaining(page: Page, filter: string, text: string): Promise<void> {
  const widget = quickInput(page);
  const input = widget.locator(".quick-input-box input");
  await expectVisible(input, `a quick pick to filter with "${filter}"`);
  await input.fill(filter);
  const row = widget.locator(".quick-input-list .monaco-list-row", { hasText: text }).first();
  await expectVisible(row, `a quick-pick item containing "${text}"`);
  await row.click();
}

/** Types into the open input box (label, custom prompt) and presses Enter. */
export async function answerInputBox(page: Page, text: string): Promise<void> {
  const input = quickInput(page).locator(".quick-input-box input");
  await expectVisible(input, "an input box");
  await input.fill(text);
  await input.press("Enter");
}

/**
 * VS Code's menu items start listening for the mouse 100 ms after they are drawn (a timer set when each item
 * renders), so that releasing the button that opened the menu does not pick an item; a click before that does
 * nothing and the menu stays open.
 */
const MENU_ITEM_ARMING_MS = 100;

/**
 * Clicks the context-menu item (rendered in the workbench DOM) whose label is `label`, once it takes clicks, and
 * waits for the menu to close.
 */
export async function clickMenuItem(page: Page, label: string): Promise<void> {
  const item = page.locator(".monaco-menu .action-item .action-label", { hasText: label }).first();
  await expectVisible(item, `context-menu item "${label}"`);
  // A timer of the same delay set in the page now fires after the items' (set earlier, when they were drawn),
  // however late a loaded machine runs them: then the item takes the click.
  await page.evaluate((ms) => new Promise<void>((ok) => setTimeout(ok, ms)), MENU_ITEM_ARMING_MS);
  await item.click();
  await item.waitFor({ state: "hidden", timeout: UI_TIMEOUT_MS }).catch(() => {
    throw new Error(`the context menu stayed open after clicking "${label}"`);
  });
}

/** The workbench's modal dialog (a modal message of the extension). */
export function dialog(page: Page): Locator {
  return page.locator(".monaco-dialog-box");
}

/** Clicks the button labelled `label` of the open modal dialog. */
export async function clickDialogButton(page: Page, label: string): Promise<void> {
  const button = dialog(page).locator(".dialog-buttons .monaco-button", { hasText: label }).first();
  await expectVisible(button, `dialog button "${label}"`);
  await button.click();
  await dialog(page)
    .waitFor({ state: "hidden", timeout: UI_TIMEOUT_MS })
    .catch(() => {
      throw new Error(`the dialog stayed open after clicking "${label}"`);
    });
}

/** The header of the side-bar view pane titled `viewTitle` (e.g. "Session Tree"), which holds its title actions. */
export function viewPaneHeader(page: Page, viewTitle: string): Locator {
  return page
    .locator(".part.sidebar .pane-header")
    .filter({ has: page.locator(".title", { hasText: new RegExp(`^\\s*${escapeRegExp(viewTitle)}\\s*$`) }) })
    .first();
}

/**
 * Clicks a title-bar action of a side-bar view by the start of its label (e.g. "New Session"; VS Code may
 * append the keybinding). The icons only show while the pointer is over the view, so the header is hovered.
 */
export async function clickViewTitleAction(page: Page, viewTitle: string, label: string): Promise<void> {
  const header = viewPaneHeader(page, viewTitle);
  await expectVisible(header, `the "${viewTitle}" view's header`);
  const action = header.locator(`.actions .action-label[aria-label^="${label}"]`).first();
  await waitUntil(async () => {
    await header.hover({ timeout: 2000 });
    return (await action.isVisible()) ? true : undefined;
  }, `title action "${label}" of the "${viewTitle}" view`);
  await action.click();
}

/** Labels of the title actions the view shows (header hovered first), e.g. ["New Session", …, "More Actions..."]. */
export async function viewTitleActions(page: Page, viewTitle: string): Promise<string[]> {
  const header = viewPaneHeader(page, viewTitle);
  await expectVisible(header, `the "${viewTitle}" view's header`);
  await header.hover({ timeout: UI_TIMEOUT_MS });
  const labels = await header
    .locator(".actions .action-label")
    .evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") ?? ""));
  return labels.filter((l) => l !== "");
}

/** Waits until the view's title bar shows (`shown` true) or no longer shows a title action whose label starts with `label`. */
export async function waitForTitleAction(
  page: Page,
  viewTitle: string,
  label: string,
  shown: boolean,
  what: string,
): Promise<void> {
  await waitUntil(
    async () =>
      (await viewTitleActions(page, viewTitle)).some((a) => a.startsWith(label)) === shown ? true : undefined,
    what,
  );
}

/** Opens a view's title-bar "…" (More Actions) menu and returns its item labels, top to bottom. */
export async function openViewTitleMenu(page: Page, viewTitle: string): Promise<string[]> {
  await clickViewTitleAction(page, viewTitle, "More Actions");
  const items = page.locator(".monaco-menu .action-item .action-label");
  await expectVisible(items, `the "${viewTitle}" view's "…" menu`);
  return (await items.allInnerTexts()).map((t) => t.trim()).filter((t) => t !== "");
}

/**
 * Waits for the quick pick titled `title` (not the palette it replaces) and returns each row's text
 * (label, description, detail), top to bottom.
 */
export async function quickPickRows(page: Page, title: string): Promise<string[]> {
  const widget = quickInput(page);
  await expectVisible(widget.locator(".quick-input-title", { hasText: title }), `the "${title}" quick pick`);
  const rows = widget.locator(".quick-input-list .monaco-list-row");
  await expectVisible(rows, `rows in the "${title}" quick pick`);
  return (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
}

/** Text of every notification currently in the DOM (toasts and the notification center). */
export async function notificationsText(page: Page): Promise<string> {
  const texts = await page.locator(".notification-list-item-message").allInnerTexts();
  return texts.join("\n");
}

/** Closes every notification (so that a later wait sees only new ones). */
export async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, "Notifications: Clear All Notifications");
}

/** Drags the side bar's edge so that it is `width` px wide (the tree reads better wider). */
export async function setSidebarWidth(page: Page, width: number): Promise<void> {
  const sidebar = page.locator(".part.sidebar");
  const box = await sidebar.boundingBox();
  if (!box) throw new Error("the side bar is not visible");
  const edge = box.x + box.width;
  // Grab the sash that resizes it: the tall vertical one nearest its right edge. VS Code 1.100 lays it over the
  // edge; 1.139 puts it in the gap beside the side bar's card, a pixel or two outside.
  const sashes = await page.locator(".monaco-sash.vertical").evaluateAll((els) =>
    els.map((e) => ({
      x: e.getBoundingClientRect().x + e.getBoundingClientRect().width / 2,
      height: e.clientHeight,
    })),
  );
  const sash = sashes
    .filter((s) => s.height > box.height / 2 && Math.abs(s.x - edge) < 12)
    .sort((a, b) => Math.abs(a.x - edge) - Math.abs(b.x - edge))[0];
  const from = sash?.x ?? edge - 1;
  const y = box.y + box.height / 2;
  await page.mouse.move(from, y);
  await page.mouse.down();
  await page.mouse.move(from + box.x + width - edge, y, { steps: 5 });
  await page.mouse.up();
  const after = (await sidebar.boundingBox())?.width ?? 0;
  if (Math.abs(after - width) > 20)
    throw new Error(`the side bar is ${after} px wide after dragging it to ${width} px`);
}

/** Opens a workspace file in the editor with Quick Open. */
export async function quickOpenFile(page: Page, name: string): Promise<void> {
  const input = quickInput(page).locator(".quick-input-box input");
  for (let attempt = 0; attempt < 3; attempt++) {
    // Keys typed while a webview has focus do not always reach the workbench: focus it first.
    await page
      .locator(".monaco-workbench")
      .first()
      .click({ position: { x: 700, y: 5 } });
    await page.keyboard.press("Control+P");
    if (await input.isVisible({ timeout: 2000 }).catch(() => false)) break;
  }
  await expectVisible(input, "Quick Open");
  await input.fill(name);
  const item = quickInput(page).locator(".quick-input-list .monaco-list-row", { hasText: name }).first();
  await expectVisible(item, `"${name}" in Quick Open`);
  await item.click();
  await expectVisible(page.locator(`.part.editor .tab[aria-label^="${name}"]`), `an editor tab for ${name}`);
}

/** Saves a full-page screenshot as test-results/e2e/<name>.png and returns the path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACT_DIR, { recursive: true });
  const path = join(ARTIFACT_DIR, `${name}.png`);
  await page.screenshot({ path, timeout: UI_TIMEOUT_MS });
  return path;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
