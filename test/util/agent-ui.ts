/**
 * Helpers for the Agent Tree UI in the workbench: the tree and chat webviews (selectors agreed with the
 * webview: rows `role="treeitem"` with `data-entry-id`, the leaf row `.active-leaf`, the chat textarea
 * `aria-label="Message"`, buttons "Send"/"Abort"), reading the session file the UI writes, seeding sessions,
 * and the start-up the end-to-end tests share (code-server + Chromium on the workbench, failure reports).
 */
import { copyFileSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, FrameLocator, Locator, Page } from "playwright-core";
import { emptyUsage } from "../../src/core/messages.js";
import { REPO_ROOT, startCodeServer, workbenchUrl, type CodeServer } from "./code-server.js";
import type { FakeRequestBody, FakeServer } from "./fake-provider-common.js";
import { assistant, readJsonl, SessionBuilder, user } from "./session-builder.js";
import {
  clickMenuItem,
  expectVisible,
  findWebview,
  launchBrowser,
  openWorkbench,
  screenshot,
  waitUntil,
} from "./workbench.js";

/** Retries with backoff make a failing model call take a while; this bounds every model-driven wait. */
export const MODEL_TIMEOUT_MS = 60_000;

/** The tree webview's inner frame (waits up to `timeoutMs`, default the UI bound). */
export function treeView(page: Page, timeoutMs?: number): Promise<FrameLocator> {
  return findWebview(page, '[role="tree"]', timeoutMs);
}

/** The chat webview's inner frame. */
export function chatView(page: Page): Promise<FrameLocator> {
  return findWebview(page, 'textarea[aria-label="Message"]');
}

/** The tree row of an entry. */
export function row(tree: FrameLocator, entryId: string): Locator {
  return tree.locator(`[role="treeitem"][data-entry-id="${entryId}"]`);
}

/**
 * Right-click an entry's row and pick `item` from its context menu (clickMenuItem copes with a menu that ignores its
 * first click); `shot` names a screenshot of the open menu.
 */
export async function pickFromRowMenu(
  page: Page,
  tree: FrameLocator,
  entryId: string,
  item: string,
  shot?: string,
): Promise<void> {
  await row(tree, entryId).click({ button: "right" });
  await expectVisible(page.locator(".monaco-menu .action-label", { hasText: item }), `the row menu's ${item}`);
  if (shot) await screenshot(page, shot);
  await clickMenuItem(page, item);
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

/** Waits (up to the model bound, or `timeoutMs`) until the active leaf's row shows `text`; returns the leaf's id. */
export function waitForLeafRow(
  tree: FrameLocator,
  text: string,
  what: string,
  timeoutMs = MODEL_TIMEOUT_MS,
): Promise<string> {
  return waitUntil(
    async () => {
      const id = await activeLeafId(tree);
      return id !== undefined && (await row(tree, id).innerText()).includes(text) ? id : undefined;
    },
    what,
    timeoutMs,
  );
}

/** The request number `count` (1-based) the fake model received, once it did. */
export async function modelRequest(fake: Pick<FakeServer, "requests">, count: number): Promise<FakeRequestBody> {
  await waitUntil(
    async () => (fake.requests.length >= count ? true : undefined),
    "the model to receive the message",
    MODEL_TIMEOUT_MS,
  );
  return fake.requests[count - 1];
}

/** Waits until nothing runs in the chat (its progress bar is gone). */
export async function waitChatIdle(chat: FrameLocator, what = "the run to end"): Promise<void> {
  await waitUntil(
    async () => ((await chat.locator('[role="progressbar"]').count()) === 0 ? true : undefined),
    what,
    MODEL_TIMEOUT_MS,
  );
}

/** Waits until the keyboard is on the tree's list (its frame focused, the list the focused element). */
export async function treeListFocused(tree: FrameLocator, what: string): Promise<void> {
  await waitUntil(
    async () =>
      (await tree
        .locator("body")
        .evaluate(() => document.hasFocus() && document.activeElement?.getAttribute("role") === "tree"))
        ? true
        : undefined,
    `the focus on the tree's list ${what}`,
    10_000,
  );
}

/** Ids of all rendered tree rows, top to bottom. */
export async function rowIds(tree: FrameLocator): Promise<string[]> {
  return tree
    .locator('[role="treeitem"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-entry-id") ?? "").filter((id) => id !== ""));
}

/** The chat's message input. */
export function chatInput(chat: FrameLocator): Locator {
  return chat.locator('textarea[aria-label="Message"]');
}

/** Types a prompt into the chat and clicks Send. */
export async function sendPrompt(chat: FrameLocator, text: string): Promise<void> {
  await chatInput(chat).fill(text);
  await chat.getByRole("button", { name: "Send" }).click();
}

/** Sends a prompt and waits (up to the model bound) until the chat shows `answer`, the model's turn that follows. */
export async function sendAndAwait(chat: FrameLocator, prompt: string, answer: string, what: string): Promise<void> {
  await sendPrompt(chat, prompt);
  await expectVisible(chat.getByText(answer), what, MODEL_TIMEOUT_MS);
}

/**
 * Types a message while the agent works and sends it with `key` (Enter queues a follow-up, Alt+Enter steers), then
 * waits until the queue above the input lists it as `kind` ("text": follow-up, "steer": steering).
 */
export async function queueMessage(chat: FrameLocator, text: string, key: "Enter" | "Alt+Enter"): Promise<void> {
  const input = chatInput(chat);
  await input.fill(text);
  await input.press(key);
  const kind = key === "Enter" ? "queued-text" : "queued-steer";
  await expectVisible(chat.locator(`.chat-queue .${kind}`, { hasText: text }), `"${text}" queued above the input`);
}

/**
 * Copies a step's screenshot to docs/<name> (the README shows it) when AGENT_TREE_UPDATE_SCREENSHOT=1 asks for a
 * refresh, or when the docs have none yet.
 */
export function refreshDocsScreenshot(shot: string, name: string): void {
  const docs = join(REPO_ROOT, "docs", name);
  if (process.env.AGENT_TREE_UPDATE_SCREENSHOT === "1" || !existsSync(docs)) copyFileSync(shot, docs);
}

/** One parsed line of a session file. */
export type SessionLine = Record<string, unknown> & { type: string; id?: string; parentId?: string | null };

/** Parses a session file (header first). Throws on a broken line: the UI must never write one. */
export function readSession(file: string): SessionLine[] {
  return readJsonl(file) as SessionLine[];
}

/** One message of a session written by {@link writePiSession}. */
export interface SeedMessage {
  id: string;
  role: "user" | "assistant";
  text: string;
}

/**
 * Writes a linear pi v3 session file (header, optional name, the messages chained in order) into `dir`,
 * named as pi names them, with its modification time set to `modified` (the pickers sort by it).
 * Written line by line, not through SessionManager, so it also checks that pi's format is read as pi writes it.
 */
export function writePiSession(
  dir: string,
  session: { id: string; cwd: string; name?: string; messages: SeedMessage[]; modified: Date },
): string {
  const start = session.modified.getTime() - 60_000;
  const s = new SessionBuilder({ id: session.id, cwd: session.cwd, start: start - 1000 }).header();
  if (session.name) s.entry("session_info", { name: session.name }, `${session.messages[0]?.id ?? "s"}-name`);
  for (const m of session.messages)
    s.message(
      m.role === "user"
        ? user(m.text)
        : assistant(m.text, [], {
            api: "openai-completions",
            provider: "local",
            model: "fake-model",
            usage: { ...emptyUsage(), input: 10, output: 5, totalTokens: 15 },
          }),
      m.id,
    );
  const stamp = new Date(start).toISOString().replace(/[:.]/g, "-");
  return s.write(dir, `${stamp}_${session.id}.jsonl`, { modified: session.modified });
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

/** A code-server with the extension loaded and one Chromium page on its workbench (see {@link startAgentWorkbench}). */
export interface AgentWorkbench {
  server: CodeServer;
  context: BrowserContext;
  page: Page;
  /** The workbench URL (for reloads). */
  url: string;
  /** Console errors (and service-worker notes) of the page and its frames, shown when a step fails. */
  consoleErrors: string[];
  /** Closes the browser and stops the server; safe to call twice. */
  close(): Promise<void>;
}

/** Options of {@link startAgentWorkbench}. */
export interface AgentWorkbenchOptions {
  /** Folder the workbench opens (e.g. a generated demo workspace). */
  workspace: string;
  /** A fresh Chromium profile folder. */
  profileDir: string;
  /** Extra environment of the server and its extension host (e.g. PI_CODING_AGENT_DIR, CLAUDE_CONFIG_DIR). */
  env?: Record<string, string>;
  /** Options for the server's Node, passed on to its extension host (see CodeServerOptions.nodeArgs). */
  nodeArgs?: string[];
  /** More extensions to install beside this one, each from its folder (e.g. a test extension: test/fixtures/). */
  installExtensions?: { folder: string }[];
}

/**
 * The end-to-end tests' start-up: an isolated code-server on `workspace` with the extension installed from the
 * .vsix of the current build, headless Chromium with console errors collected, the workbench opened.
 */
export async function startAgentWorkbench(options: AgentWorkbenchOptions): Promise<AgentWorkbench> {
  const server = await startCodeServer({
    workspace: options.workspace,
    env: options.env,
    nodeArgs: options.nodeArgs,
    installExtensions: options.installExtensions,
  });
  let context: BrowserContext | undefined;
  const close = async (): Promise<void> => {
    await context?.close().catch(() => undefined);
    await server.stop();
  };
  try {
    context = await launchBrowser(options.profileDir);
    const page = context.pages()[0] ?? (await context.newPage());
    const consoleErrors: string[] = [];
    page.on("console", (m) => {
      // The webview shell logs its service-worker handshake at info level; a blank view is explained there.
      const worker = /service worker/i.test(m.text());
      if (m.type() === "error" || worker)
        consoleErrors.push(`${m.location().url.slice(-60)}: ${m.text().slice(0, 400)}`);
    });
    page.on("pageerror", (e) => consoleErrors.push(`pageerror: ${e.message.slice(0, 400)}`));
    const url = workbenchUrl(server, { folder: options.workspace });
    await openWorkbench(page, url);
    return { server, context, page, url, consoleErrors, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Wraps a test step: on failure it saves test-results/e2e/FAILED-<name>.png and appends the rendered tree
 * rows and the page's recent console errors to the error, so a red run shows what the user would have seen.
 */
export function uiStep(
  workbench: () => AgentWorkbench | undefined,
  name: string,
  fn: () => Promise<void>,
): () => Promise<void> {
  return async () => {
    try {
      await fn();
    } catch (err) {
      const wb = workbench();
      if (!wb) throw err;
      const shot = await screenshot(wb.page, `FAILED-${name}`).catch(() => "(no screenshot)");
      const rows = await treeView(wb.page, 2000)
        .then((t) =>
          t
            .locator('[role="treeitem"]')
            .evaluateAll((els) => els.map((e) => `${e.className} | ${e.textContent ?? ""}`)),
        )
        .catch(() => ["(tree not found)"]);
      const errors = wb.consoleErrors.filter(
        (e) => !/gallery|ECONNREFUSED 127\.0\.0\.1:9|Failed to load resource/.test(e),
      );
      const detail = `\nscreenshot: ${shot}\ntree rows:\n${rows.join("\n")}\nconsole errors:\n${errors.slice(-15).join("\n")}`;
      if (err instanceof Error) err.message += detail;
      throw err;
    }
  };
}
