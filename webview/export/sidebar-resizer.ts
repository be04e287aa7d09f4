/**
 * The bar between the tree and the path, as pi's export has it: drag it (or focus it and use the arrow keys) to
 * make the tree wider or narrower; the width is kept for the next page opened in this browser.
 */
import { h } from "./dom.js";

const MIN = 220;
const STEP = 20;
const KEY = "agent-tree-export-sidebar-width";

/** The widest the tree may be: half the window. */
function max(): number {
  return Math.max(MIN, Math.floor(window.innerWidth / 2));
}

function clamp(width: number): number {
  return Math.min(max(), Math.max(MIN, Math.round(width)));
}

function saved(): number | undefined {
  try {
    const n = Number(localStorage.getItem(KEY));
    return Number.isFinite(n) && n > 0 ? n : undefined;
  } catch {
    // Storage refused (some browsers' file:// pages): the default width.
    return undefined;
  }
}

function save(width: number): void {
  try {
    localStorage.setItem(KEY, String(width));
  } catch {
    // As above: the width lasts as long as the page.
  }
}

/** The resize bar for `sidebar` (it goes inside, on the right edge). */
export function sidebarResizer(sidebar: HTMLElement): HTMLElement {
  const bar = h("div");
  bar.id = "sidebar-resizer";
  bar.tabIndex = 0;
  bar.title = "Drag to resize the tree (or use the arrow keys)";
  bar.setAttribute("role", "separator");
  bar.setAttribute("aria-orientation", "vertical");
  bar.setAttribute("aria-label", "Resize the tree");
  bar.setAttribute("aria-controls", "sidebar");
  bar.setAttribute("aria-valuemin", String(MIN));
  const set = (width: number, keep: boolean): void => {
    const w = clamp(width);
    // A variable, not the width itself: on narrow screens the stylesheet sizes the overlaid tree its own way.
    sidebar.style.setProperty("--sidebar-width", `${w}px`);
    bar.setAttribute("aria-valuemax", String(max()));
    bar.setAttribute("aria-valuenow", String(w));
    if (keep) save(w);
  };
  set(saved() ?? 360, false);
  bar.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    bar.setPointerCapture(e.pointerId);
    const left = sidebar.getBoundingClientRect().left;
    const move = (m: PointerEvent): void => set(m.clientX - left, false);
    const up = (): void => {
      bar.removeEventListener("pointermove", move);
      bar.removeEventListener("pointerup", up);
      bar.removeEventListener("pointercancel", up);
      set(sidebar.getBoundingClientRect().width, true);
    };
    bar.addEventListener("pointermove", move);
    bar.addEventListener("pointerup", up);
    bar.addEventListener("pointercancel", up);
  });
  bar.addEventListener("keydown", (e) => {
    const width = sidebar.getBoundingClientRect().width;
    if (e.key === "ArrowLeft") set(width - STEP, true);
    else if (e.key === "ArrowRight") set(width + STEP, true);
    else return;
    e.preventDefault();
  });
  return bar;
}
