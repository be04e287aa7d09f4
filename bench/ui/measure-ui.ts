/**
 * What the user sees, in the real UI: code-server (the newest by default; `AGENT_TREE_CODE_SERVER=oldest` picks
 * 4.100.3) with the extension installed from the .vsix of its production build (minified, as users install it; see
 * run-ui.ts), driven by Chromium, on the demo workspace with
 * either its small sample session or a generated big one. Each run is a fresh code-server, browser profile and copy of the session file, so a run's moves do
 * not leak into the next and every open is a first open:
 *
 * - **load → tree with leaf**: from `page.goto` of the workbench (the Agent view opened as soon as the activity
 *   bar is there) to the first frame in which the tree marks the active leaf; also → first chat message;
 * - **click → summary choice**: a click on a tree row until the frame showing the summary quick pick;
 * - **move (no summary)**: Enter on "No summary" until the tree marks the new leaf and the chat ends with it
 *   (the later of the two);
 * - **extension host RSS**: VmRSS of the extension host process 2 s after the views are drawn, and settled
 *   (after the moves and 30 s idle), and its VmHWM (the peak, transient garbage included).
 */
import {
  closeSync,
  createReadStream,
  createWriteStream,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { pipeline } from "node:stream/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { Frame, Page } from "playwright-core";
import { generateDemo } from "../../demo/generate-demo.js";
import { REPO_ROOT, sleep, startCodeServer, workbenchUrl, type CodeServer } from "../../test/util/code-server.js";
import { launchBrowser, openViewContainer, openWorkbench } from "../../test/util/workbench.js";
import { extensionHostMemory, type ProcessMemory } from "./ext-host.js";
import { armInput, armWatch, LOAD_PROBE, loadTime, watchTime, webviewFrame } from "./probes.js";

/** The summary quick pick's title (src/host/tree/vscode-navigate-ui.ts). */
const CHOICE_TITLE = "Summarize the branch you're leaving?";
/** Pause between moves: a user does not click ten times a second, and the previous move's status settles. */
const BETWEEN_MOVES_MS = 500;
/** Time after the views are drawn until the extension host's memory is first read. */
const SETTLE_MS = 2000;
/**
 * Idle time after the moves until its memory is read again. An idle Node process does not collect the
 * garbage a big open left (the snapshot's JSON copies): V8's memory reducer does, 10–30 s later.
 */
const IDLE_MS = 30_000;

/** One run's numbers (ms, bytes). */
export interface UiRun {
  loadToLeafMs: number;
  loadToChatMs: number;
  clickToChoiceMs: number[];
  /** Per move: the later of the two below. */
  moveMs: number[];
  /** Per move: Enter until the tree marks the new leaf, and until the chat ends with it. */
  moveTreeMs: number[];
  moveChatMs: number[];
  /** VmRSS of the extension host 2 s after the views are drawn (garbage of the open included). */
  rssOpen: number;
  /** VmRSS after the moves and 30 s idle: what the session costs while it is open. */
  rssSettled: number;
  /** VmHWM of the extension host at the end of the run. */
  peakRss: number;
  /**
   * Views the extension re-created because they had not said `ready` 8 s after they were shown (code-server's
   * webview start-up race, see src/host/views/webview-view.ts): such a run's load time measures the recovery.
   */
  recreatedViews: number;
}

/** A session to open: the demo's own (no file) or a copy of `file`. */
export interface UiSession {
  label: string;
  file?: string;
}

/** Two assistant rows above the leaf, in view: the moves (and bench/ui/measure-parallel-ui.ts's clicks) alternate between them. */
export async function moveTargets(tree: Frame): Promise<[string, string]> {
  const ids = (await tree.evaluate(`(() => {
    const rows = [...document.querySelectorAll('[role="treeitem"]')].sort((a, b) => a.offsetTop - b.offsetTop);
    const leaf = rows.findIndex((r) => r.classList.contains("active-leaf"));
    const scroller = rows[0] ? rows[0].offsetParent : null;
    const box = scroller ? scroller.getBoundingClientRect() : null;
    const inView = (r) => { const b = r.getBoundingClientRect(); return box !== null && b.top >= box.top && b.bottom <= box.bottom; };
    return rows.slice(0, leaf < 0 ? rows.length : leaf).reverse()
      .filter((r) => r.classList.contains("kind-assistant") && inView(r))
      .map((r) => r.getAttribute("data-entry-id"));
  })()`)) as string[];
  if (ids.length < 2) throw new Error(`need two assistant rows above the leaf in view, found ${ids.length}`);
  // Not the nearest ones: a move should change more than the last message.
  return [ids[Math.min(1, ids.length - 2)], ids[Math.min(3, ids.length - 1)]];
}

interface Move {
  choiceMs: number;
  treeMs: number;
  chatMs: number;
}

async function move(page: Page, tree: Frame, chat: Frame, id: string): Promise<Move> {
  await armInput(tree, "click", "click");
  await armWatch(page, "choice", { kind: "quickPick", title: CHOICE_TITLE });
  await tree.locator(`[role="treeitem"][data-entry-id="${id}"]`).click();
  const clickAt = await watchTime(tree, "click", "the click on the tree row");
  const choiceAt = await watchTime(page, "choice", "the summary quick pick");
  await armInput(page, "enter", "keydown");
  await armWatch(tree, "leaf", { kind: "leaf", id });
  await armWatch(chat, "chat", { kind: "chatEnds", id });
  // "No summary" is the first item, active when the pick opens.
  await page.keyboard.press("Enter");
  const enterAt = await watchTime(page, "enter", "Enter in the quick pick");
  const leafAt = await watchTime(tree, "leaf", `the tree to mark ${id} as the leaf`);
  const chatAt = await watchTime(chat, "chat", `the chat to end with ${id}`);
  return { choiceMs: choiceAt - clickAt, treeMs: leafAt - enterAt, chatMs: chatAt - enterAt };
}

/** How often the extension logged that it re-created a blank view (its log is in the run's folder). */
function recreatedViews(runDir: string): number {
  let count = 0;
  const visit = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) visit(path);
      else if (e.name.endsWith("Agent Tree.log"))
        count += readFileSync(path, "utf8").split("re-creating it").length - 1;
    }
  };
  visit(runDir);
  return count;
}

/**
 * Copies a generated session into the run's session folder with its header's `cwd` set to the run's workspace:
 * the extension opens the newest session *of this workspace* (a folder shared by several workspaces lists only
 * theirs), and the generated files name another folder. Only the header line is rewritten; the rest is streamed.
 */
async function copyForWorkspace(from: string, to: string, workspace: string): Promise<void> {
  const fd = openSync(from, "r");
  let head: Buffer;
  try {
    const buf = Buffer.alloc(1 << 16);
    head = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
  } finally {
    closeSync(fd);
  }
  const nl = head.indexOf(10);
  if (nl < 0) throw new Error(`${from}: no header line in its first 64 KB`);
  const header = JSON.parse(head.subarray(0, nl).toString("utf8")) as Record<string, unknown>;
  writeFileSync(to, `${JSON.stringify({ ...header, cwd: workspace })}\n`);
  await pipeline(createReadStream(from, { start: nl + 1 }), createWriteStream(to, { flags: "a" }));
}

function memory(server: CodeServer): ProcessMemory {
  if (server.process.pid === undefined) throw new Error("code-server has no pid");
  return extensionHostMemory(server.process.pid);
}

/** One run on a fresh code-server: open, then `moves` clicks and moves. */
export async function measureUiRun(session: UiSession, moves: number): Promise<UiRun> {
  const tmp = mkdtempSync(join(tmpdir(), "agent-tree-bench-ui-"));
  let server: CodeServer | undefined;
  let closeBrowser: (() => Promise<void>) | undefined;
  try {
    // No model is called: the address only has to be well-formed.
    const demo = generateDemo(join(tmp, "demo"), { baseUrl: "http://127.0.0.1:9/v1" });
    if (session.file !== undefined) {
      unlinkSync(demo.sessionFile);
      await copyForWorkspace(session.file, join(demo.sessionDir, basename(session.file)), demo.workspace);
    }
    server = await startCodeServer({ workspace: demo.workspace });
    const context = await launchBrowser(join(tmp, "profile"));
    closeBrowser = () => context.close();
    await context.addInitScript(LOAD_PROBE);
    const page = context.pages()[0] ?? (await context.newPage());
    const url = workbenchUrl(server, { folder: demo.workspace, extensionDevelopmentPath: REPO_ROOT });

    const started = Date.now();
    await openWorkbench(page, url);
    await openViewContainer(page, "Agent");
    const tree = await webviewFrame(page, '[role="tree"]');
    const leafAt = await loadTime(tree, "__agentTreeLeafAt");
    const chat = await webviewFrame(page, ".chat-messages");
    const chatAt = await loadTime(chat, "__agentTreeChatAt");
    await sleep(SETTLE_MS);
    const afterOpen = memory(server);

    const targets = await moveTargets(tree);
    const done: Move[] = [];
    for (let i = 0; i < moves; i++) {
      done.push(await move(page, tree, chat, targets[i % 2]));
      await sleep(BETWEEN_MOVES_MS);
    }
    await sleep(IDLE_MS);
    const settled = memory(server);
    return {
      loadToLeafMs: leafAt - started,
      loadToChatMs: chatAt - started,
      clickToChoiceMs: done.map((m) => m.choiceMs),
      moveMs: done.map((m) => Math.max(m.treeMs, m.chatMs)),
      moveTreeMs: done.map((m) => m.treeMs),
      moveChatMs: done.map((m) => m.chatMs),
      rssOpen: afterOpen.rss,
      rssSettled: settled.rss,
      peakRss: settled.peakRss,
      recreatedViews: recreatedViews(server.runDir),
    };
  } finally {
    await closeBrowser?.().catch(() => undefined);
    await server?.stop();
    rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  }
}
