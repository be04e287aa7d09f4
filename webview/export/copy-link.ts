/**
 * Links to entries: each entry's 🔗 button copies the page's address with `#<entry id>`, and the page reads that
 * fragment to show the entry's path (at the start and when it changes).
 */
import { h } from "./dom.js";

/** The entry id the address names after `#`, or undefined (none, or a malformed one: the page starts at the leaf). */
export function idOfHash(): string | undefined {
  try {
    return location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : undefined;
  } catch {
    return undefined;
  }
}

/** The page's address with `#<entry id>`: opening it shows that entry's path. */
function linkTo(id: string): string {
  return `${location.href.split("#")[0]}#${encodeURIComponent(id)}`;
}

/** Put text on the clipboard; the old way when the async API is missing or refused (some file:// pages). */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", undefined, text);
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

const COPY_LINK = "Copy a link to this entry";

/** The 🔗 button an entry's heading ends with. */
export function copyLinkButton(): HTMLButtonElement {
  const b = h("button", "copy-link", "🔗");
  b.type = "button";
  b.title = COPY_LINK;
  b.setAttribute("aria-label", COPY_LINK);
  return b;
}

/** Copies the link of the entry whose button was clicked, and says so on the button for a moment. */
export async function onCopyLink(button: HTMLButtonElement, id: string, say: (text: string) => void): Promise<void> {
  const ok = await copyText(linkTo(id));
  const text = ok ? "Link copied" : "Could not copy the link";
  button.textContent = ok ? "✓" : "✗";
  button.title = text;
  say(text);
  setTimeout(() => {
    button.textContent = "🔗";
    button.title = COPY_LINK;
  }, 1500);
}
