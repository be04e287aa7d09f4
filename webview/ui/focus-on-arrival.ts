/**
 * Where the focus goes when VS Code focuses a view (Focus on … View, `/tree`, the end of a question the view
 * asked): VS Code focuses the view's frame, and with nothing focused inside it the focus sits on the page, where
 * no key does anything. Each view names the element that should take it instead (the tree's list, the chat's
 * message box). A focus that a pointer brings (a click into the view) is left alone: the click decides. A press
 * whose release this page never sees (a right-click opens the workbench's menu, which takes the release) ends when
 * the page loses the focus, so it cannot make later arrivals look like clicks.
 */
import { useEffect } from "preact/hooks";

/** Focuses `target()` whenever the view's window gets the focus with nothing inside it focused, not by a pointer. */
export function useFocusOnArrival(target: () => HTMLElement | null | undefined): void {
  useEffect(() => {
    let pointerDown = false;
    const down = (): void => {
      pointerDown = true;
    };
    const up = (): void => {
      pointerDown = false;
    };
    const arrived = (): void => {
      if (pointerDown) return;
      const active = document.activeElement;
      if (active !== null && active !== document.body) return;
      target()?.focus({ preventScroll: true });
    };
    window.addEventListener("pointerdown", down, true);
    window.addEventListener("pointerup", up, true);
    window.addEventListener("pointercancel", up, true);
    window.addEventListener("blur", up);
    window.addEventListener("focus", arrived);
    return () => {
      window.removeEventListener("pointerdown", down, true);
      window.removeEventListener("pointerup", up, true);
      window.removeEventListener("pointercancel", up, true);
      window.removeEventListener("blur", up);
      window.removeEventListener("focus", arrived);
    };
  }, []);
}
