/**
 * Watching a running parallel branch in the chat (docs/parallel.md, "Watching a branch"): selecting a row of a
 * branch that runs does not move the leaf; the chat shows that branch's path, root to its newest entry, with its
 * reply streaming as the branch writes it, read-only. The main branch's own chat posts wait meanwhile (its agent
 * goes on); going back shows the main branch as it is then. When the branch ends the banner says so and offers
 * the switch (an ordinary move). One chat: the watched branch goes through the chat's own path window
 * (ChatPath) and stream mirror (ChatSync). Pure: no `vscode` import.
 */
import type { SessionChange } from "../../core/session/types.js";
import type { SessionManager } from "../../core/session/session-manager.js";
import type { BranchEvent } from "../../core/parallel/branch-run.js";
import type { HostToWebview, WatchedBranchDto } from "../../shared/protocol.js";
import { usageOf } from "../chat/chat-dto.js";
import { ChatPath } from "../chat/chat-path.js";
import { ChatSync } from "../chat/chat-sync.js";
import type { Notify } from "../common/notifier.js";
import { newestEntryOf } from "./branch-lookup.js";

/** What the watch reads from the session. */
export type WatchSession = Pick<
  SessionManager,
  "getPathEnvelopes" | "getEntry" | "getUsage" | "getEnvelopes" | "getEnvelope" | "subscribe"
>;

/** A running branch, as the watch names it. */
export interface RunningBranch {
  /** Its first entry. */
  branchId: string;
  /** "Branch 2 of 3", "The aside". */
  label: string;
}

/** What the watch needs from the rest of the host. */
export interface BranchWatchDeps {
  /** The open session. */
  session(): WatchSession | undefined;
  /** The running branch holding `entryId`, if one does (src/host/parallel/parallel-actions.ts). */
  runningBranchOf(entryId: string): RunningBranch | undefined;
  /** Posts to the chat view (the watched branch's messages: never held back). */
  postChat(msg: HostToWebview): void;
  /** The chat shows the main branch again, as it is now: a fresh window of its path. */
  showMain(): void;
  /** The watch started or ended (the palette's Back to My Branch follows it). */
  onWatchingChanged?(watching: boolean): void;
  notify: Pick<Notify, "info">;
}

interface Watched {
  sm: WatchSession;
  branch: WatchedBranchDto;
  path: ChatPath;
  sync: ChatSync;
  /** A reply of the branch is under way (false from its agent_end on). */
  streaming: boolean;
  unsubscribe: () => void;
}

/** The main chat's posts that still reach the chat while a branch is watched (see mainMayPost). */
const PASS_WHILE_WATCHING: ReadonlySet<HostToWebview["type"]> = new Set([
  "status",
  "chat/approval",
  "chat/approvalDone",
]);

/** Said when a banner's switch is asked while the branch still runs. */
export const STILL_RUNNING_TEXT = "The branch is still running: stop it or wait for it first.";

/** See the file comment. */
export class BranchWatch {
  private watched: Watched | undefined;

  constructor(private readonly d: BranchWatchDeps) {}

  /** True while the chat shows a watched branch. */
  get active(): boolean {
    return this.watched !== undefined;
  }

  /** The watched branch's first entry (Stop Branch from the banner). */
  get branchId(): string | undefined {
    return this.watched?.branch.branchId;
  }

  /** True when `entryId` is a row of a running branch: selecting it watches instead of moving the leaf. */
  isRunningRow(entryId: string): boolean {
    return this.d.runningBranchOf(entryId) !== undefined;
  }

  /**
   * Whether a post of the main branch's chat may go out now: while a branch is watched only status lines and the
   * main agent's approvals (it waits for the user: the question must not hide), not its stream or anything else.
   */
  mainMayPost(msg: HostToWebview): boolean {
    return this.watched === undefined || PASS_WHILE_WATCHING.has(msg.type);
  }

  /**
   * Shows the running branch holding `entryId` in the chat, read-only; the leaf does not move. A row of a
   * branch that does not run is said and nothing changes (a click on it is an ordinary move).
   */
  watch(entryId: string): void {
    const sm = this.d.session();
    const running = this.d.runningBranchOf(entryId);
    if (!sm || !running) return this.d.notify.info("That row is not on a running branch.");
    if (this.watched?.branch.branchId === running.branchId) return;
    this.drop();
    const branchId = running.branchId;
    const path = new ChatPath({
      getPathEnvelopes: () => sm.getPathEnvelopes(newestEntryOf(sm, branchId)),
      getEntry: (id) => sm.getEntry(id),
      getUsage: (id) => sm.getUsage(id),
    });
    const sync = new ChatSync((m) => this.postWatched(branchId, m), {
      onSettled: () => this.pushWatched(),
      onStreaming: (on) => {
        if (this.watched?.branch.branchId === branchId) this.watched.streaming = on;
      },
    });
    // Any move of the leaf (a click elsewhere, the palette, Adopt) brings the chat back to the main branch.
    const unsubscribe = sm.subscribe((change: SessionChange) => {
      if (change.type === "leaf" && this.watched?.sm === sm) this.back();
    });
    this.watched = {
      sm,
      branch: { branchId, label: running.label, state: "running" },
      path,
      sync,
      streaming: true,
      unsubscribe,
    };
    this.d.onWatchingChanged?.(true);
    this.postBanner();
    this.pushWatched();
  }

  /** A running branch's event: the watched one streams into the chat as the main agent's replies do. */
  event(branchId: string, e: BranchEvent): void {
    const w = this.watched;
    if (!w || w.branch.branchId !== branchId || w.branch.state !== "running" || e.type === "branch_entry") return;
    w.sync.handle(e);
  }

  /** A branch ended: when it is the watched one, the banner says how and offers the switch. */
  ended(branchId: string, state: WatchedBranchDto["state"], error?: string): void {
    const w = this.watched;
    if (!w || w.branch.branchId !== branchId) return;
    w.branch = { ...w.branch, state, ...(error !== undefined ? { error } : {}) };
    this.postBanner();
    this.pushWatched();
  }

  /** Back to my branch: the chat shows the main branch as it is now. */
  back(): void {
    if (!this.drop()) return;
    this.d.showMain();
  }

  /**
   * Leaves the watch for a switch to the ended branch: its newest entry, where the move goes (the caller moves,
   * with the usual dialogs). Undefined, and the watch stays, while the branch runs or when none is watched.
   */
  leaveForSwitch(): string | undefined {
    const w = this.watched;
    if (!w) return undefined;
    if (w.branch.state === "running") {
      this.d.notify.info(STILL_RUNNING_TEXT);
      return undefined;
    }
    const tip = newestEntryOf(w.sm, w.branch.branchId);
    this.back();
    return tip;
  }

  /** The page of the watched path before the chat's first message (chat/requestOlder while watching). */
  older(requestId: number, before: number, beforeId: string): void {
    const page = this.watched?.path.older(before, beforeId);
    if (page) this.d.postChat({ type: "chat/older", requestId, ...page });
  }

  /** The session changed or the chat view reloaded: the watch ends without a snapshot of its own. */
  reset(): void {
    this.drop();
  }

  /** Ends the watch; false when none was on. */
  private drop(): boolean {
    const w = this.watched;
    if (!w) return false;
    this.watched = undefined;
    w.unsubscribe();
    w.sync.dispose();
    this.d.postChat({ type: "chat/watch" });
    this.d.onWatchingChanged?.(false);
    return true;
  }

  private postBanner(): void {
    if (this.watched) this.d.postChat({ type: "chat/watch", branch: { ...this.watched.branch } });
  }

  /** The stream's posts reach the chat only while this branch is the one watched. */
  private postWatched(branchId: string, msg: HostToWebview): void {
    if (this.watched?.branch.branchId === branchId) this.d.postChat(msg);
  }

  /** The watched path as stored now (what the view holds before it is kept), streaming while the branch runs. */
  private pushWatched(): void {
    const w = this.watched;
    if (!w) return;
    const update = w.path.update();
    this.d.postChat({
      type: "chat/snapshot",
      start: update.start,
      keep: update.keep,
      messages: update.messages,
      streaming: w.branch.state === "running" && w.streaming,
      usage: usageOf(update.usage, 0),
      // The watched branch's own checklist (its todo calls), as a switch to it would show.
      ...(update.todos ? { todos: update.todos } : {}),
    });
    // The snapshot drops the branch's reply still streaming from the view: its next update goes whole.
    w.sync.resendStreamed();
  }
}
