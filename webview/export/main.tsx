/**
 * The exported session page (bundled to dist/export.js and inlined into the HTML by the core's exporter).
 * Sidebar: the whole tree with the sidebar's filters and search. Main: the path root→selected node.
 */
import type { TreeFilter } from "../../src/shared/protocol.js";
import { TREE_FILTER_LABELS, TREE_FILTERS } from "../../src/core/rows/row-filter.js";
import type { ExportData, ExportEntry, ExportUsage } from "../../src/core/export/export-data.js";
import { formatTokens } from "../../src/core/entries/row-words.js";
import { isHiddenHookMessage } from "../../src/core/entries/entry-view.js";
import { asRecord, h } from "./dom.js";
import { readExportData } from "./read-data.js";
import { renderEntry, type RenderContext } from "./render-entry.js";
import { LazyHighlighter } from "./highlight.js";
import { TreePanel } from "./tree-panel.js";
import { systemPromptBlocks } from "./system-prompt.js";
import { copyLinkButton, idOfHash, onCopyLink } from "./copy-link.js";
import { sidebarResizer } from "./sidebar-resizer.js";
import { downloadButton } from "./jsonl-download.js";
import { countMessages, countsLine } from "../../src/core/entries/message-counts.js";

const FILTERS: readonly { value: TreeFilter; text: string }[] = TREE_FILTERS.map((value) => ({
  value,
  text: TREE_FILTER_LABELS[value],
}));
const NARROW = "(max-width: 800px)";
/** The folds the T and O keys (and their buttons) open and close together. */
const THINKING = "details.thinking";
const TOOLS = "details.tool-call, details.output";
/** The keys, as the help line under the usage line lists them. */
const KEYS_HELP = "Keys: T thinking · O tool calls and output · H hidden messages · / search · Esc clear search";

/** True when a key press goes to a text field (typing there is no shortcut), or is a chord with a modifier. */
function typing(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey) return true;
  const t = e.target instanceof HTMLElement ? e.target : null;
  return t !== null && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));
}
/** Path entries rendered at once. */
const PATH_CHUNK = 200;

/** "openai/gpt · 12k in · 3k out · 1.5M cache read · $0.1234": what the session used, as pi's export heads it. */
function usageLine(u: ExportUsage): string {
  const parts = [u.models.join(", ")];
  const tokens: [number, string][] = [
    [u.input, "in"],
    [u.output, "out"],
    [u.cacheRead, "cache read"],
    [u.cacheWrite, "cache write"],
  ];
  for (const [n, word] of tokens) if (n > 0) parts.push(`${formatTokens(n)} ${word}`);
  if (u.cost > 0) parts.push(`$${u.cost.toFixed(u.cost < 1 ? 4 : 2)}`);
  return parts.filter((p) => p !== "").join(" · ");
}

function fail(app: HTMLElement, message: string): void {
  app.replaceChildren(h("p", "msg error", message));
}

function start(data: ExportData, app: HTMLElement): void {
  const entries = new Map<string, ExportEntry>();
  const parents = new Map<string, string | null>();
  const labels = new Map<string, string>();
  data.nodes.forEach((n, i) => {
    if (entries.has(n.id)) return;
    entries.set(n.id, data.entries[i]);
    parents.set(n.id, n.parentId);
    if (n.label) labels.set(n.id, n.label);
  });
  // Tool call arguments by call id, so a result can show the file it read in the file's language.
  const calls = new Map<string, unknown>();
  for (const e of data.entries) {
    const content = asRecord(asRecord(e)?.message)?.content;
    if (!Array.isArray(content)) continue;
    for (const b of content) {
      const block = asRecord(b);
      if (block?.type === "toolCall" && typeof block.id === "string") calls.set(block.id, block.arguments);
    }
  }

  const toggle = h("button", undefined, "☰");
  toggle.id = "toggle-sidebar";
  toggle.title = "Show or hide the tree";
  toggle.setAttribute("aria-label", "Session tree");
  toggle.setAttribute("aria-controls", "sidebar");
  const back = h("button", undefined, "Back to session leaf");
  back.id = "back-to-leaf";
  back.disabled = data.leafId === null || !entries.has(data.leafId);
  const meta = h(
    "span",
    "meta",
    `${data.branchOnly ? "branch, " : ""}${data.nodes.length} entries · exported ${new Date(data.exportedAt).toLocaleString()}`,
  );
  const thinkingButton = h("button", undefined, "Thinking");
  thinkingButton.title = "Open or close all thinking (T)";
  const toolsButton = h("button", undefined, "Tools");
  toolsButton.title = "Open or close all tool calls and output (O)";
  const hiddenButton = h("button", undefined, "Hidden");
  hiddenButton.title = "Show or hide the messages hooks kept out of the chat (H)";
  const title = h("h1", undefined, data.title);
  title.title = `${data.title} — ${data.cwd}`;
  const topbar = h(
    "header",
    undefined,
    toggle,
    title,
    meta,
    thinkingButton,
    toolsButton,
    hiddenButton,
    back,
    downloadButton(data),
  );
  topbar.id = "topbar";

  const filter = h("select");
  filter.id = "filter";
  filter.setAttribute("aria-label", "Filter");
  for (const f of FILTERS) {
    const o = h("option", undefined, f.text);
    o.value = f.value;
    filter.appendChild(o);
  }
  const search = h("input");
  search.id = "search";
  search.type = "search";
  search.placeholder = "Search";
  search.setAttribute("aria-label", "Search the tree");
  const controls = h("div", undefined, filter, search);
  controls.id = "controls";
  const status = h("div");
  status.id = "tree-status";
  const treeBox = h("div");
  treeBox.id = "tree";
  const sidebar = h("aside", undefined, controls, status, treeBox);
  sidebar.id = "sidebar";
  const backdrop = h("div");
  backdrop.id = "sidebar-backdrop";
  const pathHeader = h("div");
  pathHeader.id = "path-header";
  const messages = h("div");
  messages.id = "messages";
  // The system prompt and tools in force at the selected entry, folded (when the session records them).
  const system = h("div");
  system.id = "system";
  const info = h("p", undefined, data.usage ? usageLine(data.usage) : "");
  info.id = "session-info";
  info.hidden = info.textContent === "";
  // What the page holds, counted as pi's page counts it (over the exported entries: the tree, or the branch).
  const counts = h("p", undefined, countsLine(countMessages(data.entries)));
  counts.id = "message-counts";
  counts.hidden = counts.textContent === "";
  const keys = h("p", undefined, KEYS_HELP);
  keys.id = "keys-help";
  // Says what a button did (a copied link) to screen readers.
  const live = h("div", "visually-hidden");
  live.setAttribute("aria-live", "polite");
  const content = h("main", undefined, info, counts, keys, pathHeader, system, messages, live);
  content.id = "content";
  // The path scrolls on its own; a path without folds has nothing else to focus, so the pane takes the focus
  // itself for the arrow and page keys.
  content.tabIndex = 0;
  // Inside the tree's landmark, on its edge.
  sidebar.appendChild(sidebarResizer(sidebar));
  const layout = h("div", undefined, sidebar, backdrop, content);
  layout.id = "layout";
  app.replaceChildren(topbar, layout);
  const highlighter = new LazyHighlighter(content);
  const ctx: RenderContext = { highlighter, callArgs: (id) => calls.get(id) };
  // Paper cannot open a fold or scroll a block into view: before printing, every fold opens (the stylesheet does it
  // too, where the browser lets it) and what waits is highlighted; afterwards the folds close as they were.
  let openedForPrint: HTMLDetailsElement[] = [];
  window.addEventListener("beforeprint", () => {
    openedForPrint = [...content.querySelectorAll<HTMLDetailsElement>("details:not([open])")];
    for (const d of openedForPrint) d.open = true;
    highlighter.flush(content);
  });
  window.addEventListener("afterprint", () => {
    for (const d of openedForPrint) d.open = false;
    openedForPrint = [];
  });

  // Sidebar: open by default on wide screens, closed on narrow ones (where it overlays the page).
  const narrow = window.matchMedia(NARROW);
  const setSidebar = (open: boolean): void => {
    document.body.classList.toggle("sidebar-open", open);
    document.body.classList.toggle("sidebar-closed", !open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) panel.refresh();
  };

  // Whether all thinking / all tool folds are open; entries rendered later (another path, earlier entries) follow.
  const open = { [THINKING]: false, [TOOLS]: false };
  const buttons = { [THINKING]: thinkingButton, [TOOLS]: toolsButton };
  const applyFolds = (root: ParentNode, selector: typeof THINKING | typeof TOOLS): void => {
    for (const d of root.querySelectorAll<HTMLDetailsElement>(selector)) d.open = open[selector];
  };
  const toggleFolds = (selector: typeof THINKING | typeof TOOLS): void => {
    open[selector] = !open[selector];
    buttons[selector].setAttribute("aria-pressed", String(open[selector]));
    applyFolds(messages, selector);
  };
  for (const b of [thinkingButton, toolsButton]) b.setAttribute("aria-pressed", "false");
  thinkingButton.addEventListener("click", () => toggleFolds(THINKING));
  // Messages hooks kept out of the chat (display: false) are hidden, as on pi's page, until H shows them.
  const setHiddenShown = (shown: boolean): void => {
    document.body.classList.toggle("show-hidden", shown);
    hiddenButton.setAttribute("aria-pressed", String(shown));
  };
  setHiddenShown(false);
  hiddenButton.addEventListener("click", () => setHiddenShown(!document.body.classList.contains("show-hidden")));
  toolsButton.addEventListener("click", () => toggleFolds(TOOLS));

  const showPath = (id: string): void => {
    const path: string[] = [];
    const seen = new Set<string>();
    for (let cur: string | null | undefined = id; cur && entries.has(cur) && !seen.has(cur); cur = parents.get(cur)) {
      seen.add(cur);
      path.unshift(cur);
    }
    // Long paths render their end first; earlier entries come in chunks on request, so a 10k-entry path
    // does not block the page.
    let start = Math.max(0, path.length - PATH_CHUNK);
    const render = (from: number, to: number): DocumentFragment => {
      const frag = document.createDocumentFragment();
      for (let k = from; k < to; k++) {
        const pid = path[k];
        const el = renderEntry(entries.get(pid), labels.get(pid), ctx);
        el.dataset.id = pid;
        el.querySelector(".head")?.appendChild(copyLinkButton());
        if (pid === id) el.classList.add("target");
        if (open[THINKING]) applyFolds(el, THINKING);
        if (open[TOOLS]) applyFolds(el, TOOLS);
        frag.appendChild(el);
      }
      return frag;
    };
    const more = h("button", undefined);
    more.id = "show-earlier";
    const updateMore = (): void => {
      more.textContent = `Show ${Math.min(PATH_CHUNK, start)} earlier entries (${start} hidden)`;
      more.hidden = start === 0;
    };
    more.addEventListener("click", () => {
      const from = Math.max(0, start - PATH_CHUNK);
      const before = content.scrollHeight - content.scrollTop;
      more.after(render(from, start));
      start = from;
      updateMore();
      // Keep what the reader was looking at in place.
      content.scrollTop = content.scrollHeight - before;
    });
    updateMore();
    highlighter.reset();
    messages.replaceChildren(more, render(start, path.length));
    system.replaceChildren(
      ...systemPromptBlocks(
        path.map((pid) => entries.get(pid)),
        data.currentSystemPrompt,
      ),
    );
    const isLeaf = id === data.leafId;
    const hidden = path.filter((pid) => isHiddenHookMessage(entries.get(pid))).length;
    // The entry asked for is shown even when it is a hidden message (a link or a tree row led here).
    if (isHiddenHookMessage(entries.get(id))) setHiddenShown(true);
    const hiddenNote = hidden === 0 ? "" : ` (${hidden} hidden from the chat: H shows or hides them)`;
    pathHeader.replaceChildren(
      h(
        "span",
        undefined,
        `Path to ${isLeaf ? "the session leaf" : "the selected entry"}: ${path.length} entries${hiddenNote}`,
      ),
    );
    const target = messages.lastElementChild;
    if (target instanceof HTMLElement) target.scrollIntoView({ block: "start" });
  };

  const panel = new TreePanel(
    treeBox,
    data.nodes,
    data.leafId,
    (id) => select(id, true),
    (shown, total) => {
      status.textContent = shown === total ? `${total} entries` : `${shown} of ${total} entries shown`;
    },
  );

  setSidebar(!narrow.matches);
  narrow.addEventListener("change", () => setSidebar(!narrow.matches));
  toggle.addEventListener("click", () => setSidebar(!document.body.classList.contains("sidebar-open")));
  backdrop.addEventListener("click", () => setSidebar(false));

  function select(id: string, fromTree: boolean): void {
    if (!entries.has(id)) return;
    panel.select(id);
    showPath(id);
    if (history.replaceState) history.replaceState(null, "", `#${encodeURIComponent(id)}`);
    if (fromTree && narrow.matches) setSidebar(false);
  }

  filter.addEventListener("change", () => {
    panel.setFilter(filter.value as TreeFilter);
  });
  search.addEventListener("input", () => panel.setQuery(search.value));
  back.addEventListener("click", () => {
    if (data.leafId !== null) select(data.leafId, false);
  });
  messages.addEventListener("click", (e) => {
    const button = (e.target as HTMLElement).closest<HTMLButtonElement>("button.copy-link");
    const id = button?.closest<HTMLElement>(".msg")?.dataset.id;
    if (button && id !== undefined) void onCopyLink(button, id, (text) => (live.textContent = text));
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && e.target === search && search.value !== "") {
      search.value = "";
      panel.setQuery("");
      return;
    }
    // Not behind the enlarged image's dialog (Esc there is the dialog's).
    if (typing(e) || document.querySelector("dialog[open]")) return;
    const key = e.key.toLowerCase();
    if (key === "t") toggleFolds(THINKING);
    else if (key === "o") toggleFolds(TOOLS);
    else if (key === "h") setHiddenShown(!document.body.classList.contains("show-hidden"));
    else if (key === "/") {
      if (!document.body.classList.contains("sidebar-open")) setSidebar(true);
      search.focus();
    } else return;
    e.preventDefault();
  });
  // A link to an entry followed inside the page (or typed into the address bar) shows that entry's path.
  window.addEventListener("hashchange", () => {
    const id = idOfHash();
    if (id !== undefined && entries.has(id)) select(id, false);
  });

  const fromHash = idOfHash() ?? "";
  const initial = entries.has(fromHash) ? fromHash : (data.leafId ?? data.nodes[data.nodes.length - 1]?.id);
  if (initial !== undefined && entries.has(initial)) select(initial, false);
  else pathHeader.textContent = "This session has no entries.";
  document.body.dataset.ready = "true";
}

function main(): void {
  let app = document.getElementById("app");
  if (!app) {
    app = h("div");
    app.id = "app";
    document.body.appendChild(app);
  }
  const data = readExportData(document);
  if (typeof data === "string") fail(app, data);
  else start(data, app);
}

main();
