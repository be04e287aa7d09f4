/**
 * When the tree scrolls to the active row by itself. After the leaf moved (a reply, a queued message delivered, a
 * branch switch, a compaction, an adoption) the view shows the active row, scrolling only as far as needed, as
 * VS Code's trees reveal their active item. Two things hold that back:
 *
 * - the pointer over the rows: rows never move under it, so the scroll waits until the pointer leaves;
 * - the user's own scroll: for FOLLOW_HOLD_MS after the user scrolled the active row out of view, a leaf move
 *   leaves the view where the user put it (the view's "active" control and Shift+A bring the row back).
 *
 * Outside Preact, with no DOM: the view tells it what happened and asks it what to do.
 */

/** How long after the user scrolled the active row out of view leaf moves leave the view alone. */
export const FOLLOW_HOLD_MS = 5000;

/** Whether and when the tree follows the active row; one per tree view. */
export class ActiveFollow {
  /** The scroll position as the view last set or saw it: any other is the user's doing. */
  private knownTop = 0;
  /** Until when (`now()`) leaf moves leave the view alone. */
  private holdUntil = -Infinity;
  private pointerInside = false;
  /** A leaf move not shown yet (the pointer is over the rows). */
  private pending = false;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** The leaf moved: show the active row as soon as nothing holds it back. */
  leafMoved(): void {
    this.pending = true;
  }

  /**
   * Whether to bring the active row into view now. A move the user's scroll holds back is dropped (the user's
   * view wins; the next move asks again); one waiting for the pointer to leave stays.
   */
  shouldReveal(): boolean {
    if (!this.pending || this.pointerInside) return false;
    this.pending = false;
    return this.now() >= this.holdUntil;
  }

  /** The view set the scroll position itself: not the user's. */
  scrolledTo(top: number): void {
    this.knownTop = top;
  }

  /**
   * The scroll position is `top` (a scroll event, or a render): when the view did not put it there, the user
   * scrolled, unless the list got shorter and the browser pulled it back to `maxTop`. `activeInView`: whether the
   * active row is wholly in view at `top`. Returns true when it was the user's scroll.
   */
  observe(top: number, maxTop: number, activeInView: boolean): boolean {
    const known = this.knownTop;
    if (Math.abs(top - known) < 1) return false;
    this.knownTop = top;
    if (top < known && top >= maxTop - 1) return false;
    this.userMoved(activeInView);
    return true;
  }

  /** The user moved the view (a scroll, a keyboard move, a reveal): away from the active row, moves wait a while. */
  userMoved(activeInView: boolean): void {
    this.holdUntil = activeInView ? -Infinity : this.now() + FOLLOW_HOLD_MS;
  }

  /**
   * The pointer is over the rows (`inside`) or left them. Returns true when the view should render again: a leaf
   * move waited for the pointer to leave.
   */
  pointer(inside: boolean): boolean {
    this.pointerInside = inside;
    return !inside && this.pending;
  }
}
