/**
 * What an operation needs before it may start, checked in one place with one wording: a session open, the
 * session writable, the agent idle on the branch it touches, the workspace's files free. Pure: no `vscode`
 * import (the Notify it reports through is the host's Notifier, or a recording fake in tests).
 */
import type { FilesLock } from "./files-lock.js";
import { filesBusyText } from "./files-lock.js";

/** One need of an operation (see the file comment). */
export type OperationNeed = "session" | "writable" | "idle" | "files";

/** How operations report (src/host/operations/notifier.ts). */
export interface Notify {
  /** A transient status line: in one view (the chat, else the tree), the status bar and the log. */
  status(text: string, kind?: "info" | "error"): void;
  /** A failure: "what: why", in a notification (not also a status line). */
  error(what: string, e: unknown): void;
  info(text: string): void;
  warn(text: string): void;
  /** A result with buttons, in a notification (not also a status line); resolves to the button picked. */
  offer<A extends string>(text: string, ...actions: A[]): PromiseLike<A | undefined>;
}

/** What the guards ask about the window's state. */
export interface GuardState {
  hasSession(): boolean;
  /** Why the open session cannot be written, or undefined when it can (the flag and its reason, together). */
  readOnlyReason(): string | undefined;
  /**
   * True when the agent is working on the branch that holds `entryId` (undefined: the current branch). One agent
   * runs per session today, so a reply makes every branch busy; with several agents, only their branches.
   */
  agentBusy(entryId: string | undefined): boolean;
  /** The window's one lock on the workspace's files. */
  files: FilesLock;
}

/** Said when an operation needs a session and none is open. */
export const NO_SESSION_TEXT = "No Agent session is open: open the Agent view first.";

/** Said when an operation needs the agent idle and a reply is streaming. */
export const STREAMING_TEXT = "A reply or a command is running: abort it (Agent: Abort) first.";

/** Why an operation may not start: how loudly to say it, and what. */
export interface Refusal {
  level: "info" | "warn";
  text: string;
}

/** The first need of `needs` that is not met for an operation on `entryId`, or undefined when all are. */
export function refusal(
  needs: readonly OperationNeed[],
  state: GuardState,
  entryId: string | undefined,
): Refusal | undefined {
  for (const need of needs) {
    switch (need) {
      case "session":
        if (!state.hasSession()) return { level: "info", text: NO_SESSION_TEXT };
        break;
      case "writable": {
        const why = state.hasSession() ? state.readOnlyReason() : undefined;
        if (why !== undefined) return { level: "warn", text: why };
        break;
      }
      case "idle":
        if (state.agentBusy(entryId)) return { level: "warn", text: STREAMING_TEXT };
        break;
      case "files": {
        const holder = state.files.heldBy;
        if (holder !== undefined) return { level: "info", text: filesBusyText(holder) };
        break;
      }
      default: {
        const never: never = need;
        return never;
      }
    }
  }
  return undefined;
}

/** Says a refusal through `notify`. */
export function sayRefusal(r: Refusal, notify: Pick<Notify, "info" | "warn">): void {
  if (r.level === "warn") notify.warn(r.text);
  else notify.info(r.text);
}
