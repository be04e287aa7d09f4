/** The chat's `/explore [prompt]` and `/aside <question>`: recognised before the text goes to the agent. Pure. */

/** A parallel slash command typed in the chat. */
export interface ParallelSlash {
  command: "explore" | "aside";
  /** The text after the command (empty when none). */
  arg: string;
}

/** The command `text` is, or undefined for any other text (`/explorer` is not `/explore`). */
export function parseParallelSlash(text: string): ParallelSlash | undefined {
  const m = /^\/(explore|aside)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  return { command: m[1] as ParallelSlash["command"], arg: m[2]?.trim() ?? "" };
}
