/**
 * What the editor says when another program (pi in a terminal) appended to the open session and the session took
 * it in (SessionManager.refreshFromDisk; docs/tree-navigation.md): entries on another branch than the one shown
 * (with "Go There"), lines of theirs that could not be read, a file replaced on disk (with "Reopen"). Entries that
 * the leaf followed need no words: the tree and the chat show them. Pure: no `vscode` import.
 */
import type { DiskRefresh } from "../../core/session/types.js";
import { loadIssuesMessage } from "./load-issues.js";

/** The button that moves to their branch's end, as a click on its row would. */
export const GO_THERE = "Go There";
/** The button that opens the session file again. */
export const REOPEN = "Reopen";

/** One message to show: its words, how grave, and the button it offers with what it acts on. */
export type FollowNotice =
  | { kind: "info"; text: string; action?: { label: typeof GO_THERE; entryId: string } }
  | { kind: "warning"; text: string; action?: { label: typeof REOPEN } };

/** The messages a refresh of the session in `fileName` calls for (none when the views say it all). */
export function followNotices(fileName: string, refresh: DiskRefresh): FollowNotice[] {
  if (refresh.replaced)
    return [
      {
        kind: "warning",
        text:
          `${fileName}: the file was replaced on disk (${refresh.reason ?? "rewritten by another program"}). ` +
          "This window shows it as it was read and takes in nothing more of it; reopen it to see it as it is now.",
        action: { label: REOPEN },
      },
    ];
  const out: FollowNotice[] = [];
  const n = refresh.added.length;
  if (refresh.otherBranch && n > 0 && typeof refresh.otherLeafId === "string")
    out.push({
      kind: "info",
      text: `pi added ${n} ${n === 1 ? "entry" : "entries"} to ${fileName} on another branch.`,
      action: { label: GO_THERE, entryId: refresh.otherLeafId },
    });
  const issues = loadIssuesMessage(fileName, refresh.issues);
  if (issues !== undefined) out.push({ kind: "warning", text: issues });
  return out;
}

/**
 * One "on another branch" notice at a time. pi writes a turn as several appends seconds apart (the prompt, each
 * reply, each tool result), and each was said anew: a notice per append. While one is showing, later appends only
 * move the end its Go There goes to; once it is answered or dismissed, the next append may say so again.
 */
export class OtherBranchNotice {
  /** Per session showing a notice: the end its Go There goes to. */
  private readonly showing = new WeakMap<object, string>();

  /** pi's branch now ends at `entryId` in `session`: true when a notice is to be shown (none is showing). */
  offer(session: object, entryId: string): boolean {
    const open = this.showing.has(session);
    this.showing.set(session, entryId);
    return !open;
  }

  /** The notice of `session` was answered or dismissed: the end its Go There goes to (the newest offered). */
  settle(session: object): string | undefined {
    const entryId = this.showing.get(session);
    this.showing.delete(session);
    return entryId;
  }
}
