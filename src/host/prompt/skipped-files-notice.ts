/**
 * Says which instruction, skill or template files were skipped and why: each message once per window, every one as
 * its own line in the output channel, and all the new ones of a load in one chat status line (the chat shows one
 * status at a time, so separate posts would hide all but the last). Pure: no `vscode` import.
 */

/** Where the notices go. */
export interface NoticeSink {
  /** The chat's status line. */
  chat(text: string, kind: "info" | "error"): void;
  /** The output channel. */
  log(text: string, kind: "info" | "warning"): void;
}

/** Skipped files named in the chat line at most; the output channel has them all. */
export const MAX_NAMED_IN_CHAT = 3;

/** The chat line for `skipped` (new messages, at least one). */
export function skippedFilesText(skipped: readonly string[]): string {
  if (skipped.length === 1) return skipped[0];
  const named = skipped.slice(0, MAX_NAMED_IN_CHAT).join(" · ");
  const rest = skipped.length - MAX_NAMED_IN_CHAT;
  const more = rest > 0 ? ` · and ${rest} more (see the Agent Tree output channel)` : "";
  return `${skipped.length} files were skipped: ${named}${more}`;
}

/** See the file comment. */
export class SkippedFilesNotice {
  private readonly said = new Set<string>();

  constructor(private readonly sink: NoticeSink) {}

  /** Says the `skipped` messages and the `info` line not said before (nothing when all were). */
  say(skipped: readonly string[], info?: string): void {
    const fresh = [...new Set(skipped)].filter((m) => !this.said.has(m));
    const note = info !== undefined && !this.said.has(info) ? info : undefined;
    for (const m of fresh) {
      this.said.add(m);
      this.sink.log(m, "warning");
    }
    if (note !== undefined) {
      this.said.add(note);
      this.sink.log(note, "info");
    }
    if (fresh.length === 0 && note === undefined) return;
    const parts = [...(fresh.length > 0 ? [skippedFilesText(fresh)] : []), ...(note !== undefined ? [note] : [])];
    this.sink.chat(parts.join(" — "), fresh.length > 0 ? "error" : "info");
  }
}
