/**
 * Reading the windowed chat list in the harness page: scroll position, mounted rows, which message is first
 * in view and where, and waiting until the list stops re-windowing.
 */
import type { ViewPage } from "./harness.js";
import { settle } from "./harness.js";

/** What the list shows. */
export interface ListState {
  scrollTop: number;
  fromBottom: number;
  mounted: number;
  markdown: number;
  /** First row (message id) intersecting the viewport and its top relative to the list's top. */
  firstId: string | null;
  firstTop: number;
}

// In-page code as strings: tsx's name-keeping helpers do not exist in the page.
const STATE_JS = `(() => {
  const el = document.querySelector('.chat-messages');
  const box = el.getBoundingClientRect();
  let firstId = null, firstTop = 0;
  for (const m of el.querySelectorAll('[data-message-id]')) {
    const r = m.getBoundingClientRect();
    if (r.bottom > box.top && r.top < box.bottom) { firstId = m.getAttribute('data-message-id'); firstTop = r.top - box.top; break; }
  }
  return {
    scrollTop: el.scrollTop,
    fromBottom: el.scrollHeight - el.scrollTop - el.clientHeight,
    mounted: el.querySelectorAll('[data-message-id]').length,
    markdown: el.querySelectorAll('.markdown').length,
    firstId, firstTop,
  };
})()`;

export async function listState(vp: ViewPage): Promise<ListState> {
  return (await vp.page.evaluate(STATE_JS)) as ListState;
}

/** Wait (bounded) until the list stops changing: measuring and re-windowing take a few frames. */
export async function stable(vp: ViewPage): Promise<ListState> {
  let prev = "";
  let same = 0;
  for (let i = 0; i < 60; i++) {
    await settle(vp.page);
    const s = await listState(vp);
    const sig = JSON.stringify(s);
    same = sig === prev ? same + 1 : 0;
    if (same >= 2) return s;
    prev = sig;
  }
  throw new Error(`chat list did not settle: ${prev}`);
}

/** Where a message's top is relative to the list's top, or null when it is not mounted. */
export async function topOf(vp: ViewPage, id: string): Promise<number | null> {
  return (await vp.page.evaluate(`(() => {
    const m = document.querySelector('[data-message-id="${id}"]');
    if (m === null) return null;
    return m.getBoundingClientRect().top - document.querySelector('.chat-messages').getBoundingClientRect().top;
  })()`)) as number | null;
}

export async function inView(vp: ViewPage, id: string): Promise<boolean> {
  return (await vp.page.evaluate(`(() => {
    const m = document.querySelector('[data-message-id="${id}"]');
    if (m === null) return false;
    const r = m.getBoundingClientRect(), b = document.querySelector('.chat-messages').getBoundingClientRect();
    return r.bottom > b.top && r.top < b.bottom;
  })()`)) as boolean;
}

export async function setScrollTop(vp: ViewPage, top: number): Promise<void> {
  await vp.page.evaluate(`document.querySelector('.chat-messages').scrollTop = ${top}`);
}
