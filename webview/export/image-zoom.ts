/**
 * An image in a message opens larger in a modal dialog: the image is a button (click, or Enter/Space when focused),
 * the dialog closes with Esc, its Close button or a click anywhere on it, and the focus goes back to the image.
 * One native `<dialog>` serves the page; it shows the same `data:` URL, so nothing is fetched.
 */
import { h } from "./dom.js";

let dialog: HTMLDialogElement | undefined;
let opener: HTMLElement | undefined;

function theDialog(): HTMLDialogElement {
  if (dialog) return dialog;
  const close = h("button", "close", "Close");
  const img = h("img");
  const d = h("dialog", undefined, close, img);
  d.id = "image-zoom";
  d.setAttribute("aria-label", "Enlarged image");
  // Anywhere on it (the image, the button, the backdrop the dialog covers) closes it.
  d.addEventListener("click", () => d.close());
  d.addEventListener("close", () => {
    img.removeAttribute("src");
    opener?.focus();
    opener = undefined;
  });
  document.body.appendChild(d);
  dialog = d;
  return d;
}

/** `img` wrapped in a button that opens it enlarged. */
export function zoomable(img: HTMLImageElement): HTMLButtonElement {
  const button = h("button", "zoom", img);
  button.title = "Enlarge the image";
  button.setAttribute("aria-label", `Enlarge ${img.alt || "the image"}`);
  button.addEventListener("click", () => {
    const d = theDialog();
    const big = d.querySelector("img");
    if (!big) return;
    big.src = img.src;
    big.alt = img.alt;
    opener = button;
    d.showModal();
    d.querySelector<HTMLButtonElement>("button.close")?.focus();
  });
  return button;
}
