/**
 * The export page's tree: the sidebar's filter, search and layout code (webview/tree, pure modules) with a
 * small windowed DOM renderer of its own, so 100k-entry sessions stay responsive.
 */
import type { TreeFilter } from "../../src/shared/protocol.js";
import { encodeTreeRows } from "../../src/core/rows/row-columns.js";
import { rowWords } from "../../src/core/entries/row-words.js";
import type { TreeRow } from "../../src/core/rows/tree-row.js";
import { CONTEXT, computeVisibility, queryTokens } from "../tree/tree-filter.js";
import { EXPANDED, FOLDABLE, flatten, guideText, type FlatRows } from "../tree/tree-flatten.js";
import { TreeIndex } from "../tree/tree-index.js";
import { h } from "./dom.js";

/** Row height in px; must match `.row` in the export stylesheet. */
export const ROW_HEIGHT = 24;
const OVERSCAN = 10;

/** Sidebar tree with filter, search and selection. */
export class TreePanel {
  readonly index: TreeIndex;
  private filter: TreeFilter = "default";
  private tokens: string[] = [];
  private vis: Uint8Array;
  private rows: FlatRows;
  private selected = -1;
  /** Node indices whose branches are folded (ignored while searching, so every hit shows). */
  private readonly folded = new Set<number>();
  private readonly spacer: HTMLElement;
  private readonly rendered = new Map<number, HTMLElement>();
  private frame = 0;

  constructor(
    private readonly scroller: HTMLElement,
    nodes: readonly TreeRow[],
    leafId: string | null,
    private readonly onSelect: (id: string) => void,
    private readonly onStatus: (shown: number, total: number) => void,
  ) {
    this.index = new TreeIndex(encodeTreeRows(nodes), leafId);
    this.spacer = h("div");
    this.spacer.id = "tree-spacer";
    scroller.appendChild(this.spacer);
    scroller.setAttribute("role", "tree");
    scroller.setAttribute("aria-label", "Session tree");
    scroller.tabIndex = 0;
    this.vis = new Uint8Array(0);
    this.rows = flatten(this.index, this.vis, this.folded, true);
    this.recompute();
    scroller.addEventListener("scroll", () => this.schedule());
    scroller.addEventListener("click", (e) => {
      const target = e.target as HTMLElement;
      const row = target.closest<HTMLElement>(".row");
      const id = row?.dataset.id;
      if (id === undefined) return;
      if (target.classList.contains("twisty")) this.toggleFold(id);
      else this.onSelect(id);
    });
    scroller.addEventListener("keydown", (e) => this.onKey(e));
    // Showing the sidebar again (display:none → visible) changes the size without a scroll event.
    new ResizeObserver(() => this.schedule()).observe(scroller);
  }

  /** Change the filter. */
  setFilter(filter: TreeFilter): void {
    this.filter = filter;
    this.recompute();
  }

  /** Change the search text (every token must match). */
  setQuery(query: string): void {
    this.tokens = queryTokens(query);
    this.recompute();
  }

  /** Re-render after the tree was hidden (its scroll position may have been reset). */
  refresh(): void {
    this.scrollToSelected();
    this.paint();
  }

  /** Mark a node selected and scroll its row into view when it is shown. */
  select(id: string): void {
    this.selected = this.index.idToIdx.get(id) ?? -1;
    this.scrollToSelected();
    this.paint();
  }

  /** Fold or unfold the branch below a node. */
  toggleFold(id: string): void {
    const i = this.index.idToIdx.get(id);
    if (i === undefined) return;
    if (this.folded.has(i)) this.folded.delete(i);
    else this.folded.add(i);
    this.recompute();
  }

  private recompute(): void {
    this.vis = computeVisibility(this.index, this.filter, this.tokens);
    this.rows = flatten(this.index, this.vis, this.folded, this.tokens.length > 0);
    this.spacer.style.height = `${this.rows.count * ROW_HEIGHT}px`;
    for (const el of this.rendered.values()) el.remove();
    this.rendered.clear();
    let hits = 0;
    for (let r = 0; r < this.rows.count; r++) if (this.vis[this.rows.node[r]] !== CONTEXT) hits++;
    this.onStatus(hits, this.index.size);
    this.scrollToSelected();
    this.paint();
  }

  private scrollToSelected(): void {
    if (this.selected < 0) return;
    const row = this.rows.rowOf[this.selected];
    if (row < 0) return;
    const top = row * ROW_HEIGHT;
    const view = this.scroller.clientHeight;
    if (top < this.scroller.scrollTop || top + ROW_HEIGHT > this.scroller.scrollTop + view) {
      this.scroller.scrollTop = Math.max(0, top - Math.floor(view / 2));
    }
  }

  private schedule(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.paint();
    });
  }

  /** Render the rows in view (plus a margin), reusing nothing: rows are cheap and few. */
  private paint(): void {
    const view = this.scroller.clientHeight || 600;
    const first = Math.max(0, Math.floor(this.scroller.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.rows.count - 1, Math.ceil((this.scroller.scrollTop + view) / ROW_HEIGHT) + OVERSCAN);
    for (const [row, el] of this.rendered) {
      if (row < first || row > last) {
        el.remove();
        this.rendered.delete(row);
      }
    }
    for (let row = first; row <= last; row++) {
      const old = this.rendered.get(row);
      const el = this.renderRow(row);
      if (old) old.replaceWith(el);
      else this.spacer.appendChild(el);
      this.rendered.set(row, el);
    }
    const sel = this.selected >= 0 ? this.rows.rowOf[this.selected] : -1;
    if (sel >= first && sel <= last) this.scroller.setAttribute("aria-activedescendant", `tree-row-${this.selected}`);
    else this.scroller.removeAttribute("aria-activedescendant");
  }

  private renderRow(row: number): HTMLElement {
    const i = this.rows.node[row];
    const d = this.index.node(i);
    const isLeaf = i === this.index.leaf;
    const selected = i === this.selected;
    const cls = ["row", `kind-${d.kind}`];
    if (selected) cls.push("selected");
    if (this.index.onPath[i] === 1) cls.push("on-path");
    if (this.vis[i] === CONTEXT) cls.push("context");
    if (d.failed && !d.aborted) cls.push("failed");
    const guide = guideText(this.rows, row);
    const { role, text } = rowWords(d);
    const flags = this.rows.flags[row];
    const foldable = (flags & FOLDABLE) !== 0;
    const expanded = (flags & EXPANDED) !== 0;
    const el = h(
      "div",
      cls.join(" "),
      guide.text ? h("span", "branch-mark", (guide.deep ? "…" : "") + guide.text) : undefined,
      h("span", foldable ? "twisty" : "twisty none", foldable ? (expanded ? "▾" : "▸") : ""),
      d.label ? h("span", "label", d.label) : undefined,
      h("span", `kind kind-${d.kind}`, role),
      h("span", "preview", text),
      isLeaf ? h("span", "leaf-mark", "← leaf") : undefined,
      d.orphan ? h("span", "leaf-mark", "(orphan)") : undefined,
    );
    el.dataset.id = d.id;
    // Focus stays on the tree; the selected row is its active descendant, so screen readers read it.
    el.id = `tree-row-${i}`;
    el.setAttribute("role", "treeitem");
    el.setAttribute("aria-level", String(this.rows.level[row] + 1));
    // Only the rows in view exist: the row says where it stands among its siblings itself.
    el.setAttribute("aria-setsize", String(this.rows.setSize[row]));
    el.setAttribute("aria-posinset", String(this.rows.posInSet[row]));
    el.setAttribute("aria-selected", selected ? "true" : "false");
    if (foldable) el.setAttribute("aria-expanded", expanded ? "true" : "false");
    el.style.top = `${row * ROW_HEIGHT}px`;
    el.style.paddingLeft = "8px";
    el.title = d.preview;
    return el;
  }

  private onKey(e: KeyboardEvent): void {
    const count = this.rows.count;
    if (count === 0) return;
    const cur = this.selected >= 0 ? this.rows.rowOf[this.selected] : -1;
    let next = cur;
    if (e.key === "ArrowDown") next = Math.min(count - 1, cur + 1);
    else if (e.key === "ArrowUp") next = Math.max(0, cur < 0 ? 0 : cur - 1);
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = count - 1;
    else if (e.key === "PageDown")
      next = Math.min(count - 1, cur + Math.floor(this.scroller.clientHeight / ROW_HEIGHT));
    else if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && cur >= 0) {
      const flags = this.rows.flags[cur];
      const expanded = (flags & EXPANDED) !== 0;
      if ((flags & FOLDABLE) !== 0 && expanded === (e.key === "ArrowLeft")) {
        e.preventDefault();
        this.toggleFold(this.index.id(this.selected));
      }
      return;
    } else if (e.key === "PageUp") next = Math.max(0, cur - Math.floor(this.scroller.clientHeight / ROW_HEIGHT));
    else return;
    e.preventDefault();
    if (next >= 0 && next !== cur) this.onSelect(this.index.id(this.rows.node[next]));
  }
}
