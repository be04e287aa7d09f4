/**
 * HTML-escaping of text for element content and quoted attribute values: the one escape the export page, the
 * webview shells and the markdown renderer use. Pure (the webview bundles it too).
 */

/** `&`, `<`, `>`, `"` and `'` as numeric character references. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
