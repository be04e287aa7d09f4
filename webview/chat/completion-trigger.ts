/**
 * Where the caret stands for the completion list: after an `@` that starts a word (a file mention), or in
 * the first word of the input when it begins with `/` (a command). Pure, so the rules are tested alone.
 */

/** An open completion: its trigger, the text typed after it, and where the trigger is. */
export interface CompletionContext {
  trigger: "@" | "/";
  query: string;
  /** Index of the trigger character in the text. */
  start: number;
}

/** The completion the caret at `caret` is in, if any. */
export function completionAt(text: string, caret: number): CompletionContext | undefined {
  const before = text.slice(0, caret);
  const slash = /^\/(\S*)$/.exec(before);
  if (slash) return { trigger: "/", query: slash[1], start: 0 };
  // The word before the caret: an `@` at its start (the input's start or after whitespace or an opening bracket).
  const at = /(?:^|[\s([{"'])@([^\s@]*)$/.exec(before);
  if (!at) return undefined;
  return { trigger: "@", query: at[1], start: caret - at[1].length - 1 };
}

/**
 * The text after picking `value` for `ctx`: the trigger and query replaced by the trigger, the value and a
 * space — except for a folder (`value` ending with "/"), so the user can go on into it. Returns the new
 * text and caret.
 */
export function applyCompletion(
  text: string,
  caret: number,
  ctx: CompletionContext,
  value: string,
): { text: string; caret: number } {
  const folder = value.endsWith("/");
  let rest = text.slice(caret);
  if (!folder && rest.startsWith(" ")) rest = rest.slice(1);
  const insert = `${ctx.trigger}${value}${folder ? "" : " "}`;
  return { text: text.slice(0, ctx.start) + insert + rest, caret: ctx.start + insert.length };
}
