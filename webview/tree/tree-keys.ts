/**
 * Keyboard handling of the tree, separate from rendering so it can be read as one table.
 */
import type { WebviewToHost } from "../../src/shared/protocol.js";
import { EXPANDED, FOLDABLE } from "./tree-flatten.js";
import type { TreeModel } from "./tree-model.js";

/** What the view must do after a key. */
export interface KeyContext {
  model: TreeModel;
  /** Rows that fit in the viewport (PageUp/PageDown step). */
  pageRows: number;
  post: (msg: WebviewToHost) => void;
  /** Send printable keys to the search box. */
  focusSearch: (initial?: string) => void;
  /** Scroll the selected row into view after a move. */
  revealSelection: () => void;
  /** Select the active row and bring it into view (Shift+A, as the view's "active" control). */
  goToActive: () => void;
  /** Open the selected row's menu, as a right click on it does (Shift+F10, the context-menu key). */
  openRowMenu: () => void;
}

/** Handle a keydown on the tree; returns true when handled (the caller prevents the default). */
export function handleTreeKey(e: KeyboardEvent, ctx: KeyContext): boolean {
  const { model } = ctx;
  const rows = model.rows;
  const sel = model.selected;
  const row = sel >= 0 ? rows.rowOf[sel] : -1;
  const moveTo = (r: number): void => {
    if (rows.count === 0) return;
    const clamped = Math.max(0, Math.min(rows.count - 1, r));
    model.select(rows.node[clamped]);
    ctx.revealSelection();
  };
  const mod = e.ctrlKey || e.metaKey;
  if (mod && !e.shiftKey && !e.altKey) {
    const k = e.key.toLowerCase();
    if (k === "u") {
      model.setFilter(model.filter === "user-only" ? "default" : "user-only");
      ctx.revealSelection();
      return true;
    }
    if (k === "o") {
      model.setFilter(model.filter === "all" ? "default" : "all");
      ctx.revealSelection();
      return true;
    }
    if (k === "c" && sel >= 0 && !hasTextSelection()) {
      ctx.post({ type: "tree/action", command: "agentTree.copyText", entryId: model.index.id(sel) });
      return true;
    }
    if (k === "f") {
      ctx.focusSearch();
      return true;
    }
    return false;
  }
  switch (e.key) {
    case "ArrowDown":
      moveTo(row < 0 ? 0 : row + 1);
      return true;
    case "ArrowUp":
      moveTo(row < 0 ? 0 : row - 1);
      return true;
    case "Home":
      moveTo(0);
      return true;
    case "End":
      moveTo(rows.count - 1);
      return true;
    case "PageDown":
      moveTo(row + Math.max(1, ctx.pageRows - 1));
      return true;
    case "PageUp":
      moveTo(row - Math.max(1, ctx.pageRows - 1));
      return true;
    case "ArrowRight": {
      if (row < 0) return true;
      const f = rows.flags[row];
      if ((f & FOLDABLE) !== 0 && (f & EXPANDED) === 0) {
        if (model.searching) return true;
        model.setFolded(sel, false);
      } else if (row + 1 < rows.count && rows.displayParent[row + 1] === sel) moveTo(row + 1);
      return true;
    }
    case "ArrowLeft": {
      if (row < 0) return true;
      const f = rows.flags[row];
      if ((f & FOLDABLE) !== 0 && (f & EXPANDED) !== 0 && !model.searching) {
        model.setFolded(sel, true);
        ctx.revealSelection();
        return true;
      }
      // Up to the nearest foldable ancestor row: the start of this branch or its branch point.
      for (let r = row - 1, a = rows.displayParent[row]; r >= 0 && a >= 0; r--) {
        if (rows.node[r] !== a) continue;
        if ((rows.flags[r] & FOLDABLE) !== 0) {
          moveTo(r);
          break;
        }
        a = rows.displayParent[r];
      }
      return true;
    }
    case "Enter":
      // Busy or not, the host decides whether the move may start (its operations table): one answer, there.
      if (sel < 0) return true;
      ctx.post(
        e.shiftKey
          ? { type: "tree/action", command: "agentTree.summarizeAndSwitchHere", entryId: model.index.id(sel) }
          : { type: "tree/navigate", entryId: model.index.id(sel), mode: "ask" },
      );
      return true;
    case "F12": {
      // Go to where the selected branch summary came from.
      const src = sel >= 0 ? model.index.summarySource(sel) : -1;
      if (src >= 0) {
        model.apply({ type: "tree/reveal", entryId: model.index.id(src) });
        ctx.revealSelection();
      }
      return true;
    }
    case "Delete":
      // Delete archives (or unarchives) the selected branch; Shift+Delete deletes it for good, after asking.
      if (sel >= 0 && !e.altKey && !mod)
        ctx.post({
          type: "tree/action",
          command: e.shiftKey
            ? "agentTree.deleteBranch"
            : model.isArchived(sel)
              ? "agentTree.unarchiveBranch"
              : "agentTree.archiveBranch",
          entryId: model.index.id(sel),
        });
      return true;
    case "F10":
      // Shift+F10, as in VS Code's own lists (F10 alone is the browser's and the workbench's).
      if (e.shiftKey && !e.altKey) {
        ctx.openRowMenu();
        return true;
      }
      break;
    case "ContextMenu":
      ctx.openRowMenu();
      return true;
    case "F2":
      if (sel >= 0) ctx.post({ type: "tree/action", command: "agentTree.labelEntry", entryId: model.index.id(sel) });
      return true;
    case "A":
      // Shift+A: back to the active row (typing a lower-case "a" still starts a search).
      if (e.shiftKey && !e.altKey) {
        ctx.goToActive();
        return true;
      }
      break;
    case "L":
      if (e.shiftKey && !e.altKey && sel >= 0) {
        ctx.post({ type: "tree/action", command: "agentTree.labelEntry", entryId: model.index.id(sel) });
        return true;
      }
      break;
    case "R":
      // Shift+R: Replay with Model… from the selected row's turn (a lower-case "r" still starts a search).
      if (e.shiftKey && !e.altKey && sel >= 0) {
        ctx.post({ type: "tree/action", command: "agentTree.replayWithModel", entryId: model.index.id(sel) });
        return true;
      }
      break;
    case "Escape":
      if (model.query !== "") {
        model.setQuery("");
        ctx.revealSelection();
        return true;
      }
      return false;
    default:
      break;
  }
  // Typing starts a search, as in pi's selector.
  if (e.key.length === 1 && !e.altKey && e.key !== " ") {
    ctx.focusSearch(e.key);
    return true;
  }
  return false;
}

function hasTextSelection(): boolean {
  const s = window.getSelection();
  return s !== null && s.toString().length > 0;
}
