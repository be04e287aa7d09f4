/**
 * Whether a mention's label is still in the message: as a whole word (followed by whitespace, punctuation
 * that ends a sentence, or the end), so `@src/` is not found inside `@src/main.ts` and a folder picked on the
 * way to a file is not attached too. Shared by the chat input (which sends only the mentions still typed) and
 * the host (which attaches only those).
 */
export function mentionInText(text: string, label: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(label, from);
    if (at < 0) return false;
    const before = at === 0 ? " " : text[at - 1];
    const after = text[at + label.length] ?? " ";
    if (/[\s([{"']/.test(before) && /[\s.,;:!?)\]}"']/.test(after)) return true;
    from = at + 1;
  }
}
