/**
 * What an operation needs before it may start, checked in one place with one wording: a session open, the
 * session writable, nothing at work where it acts (the session's one answer, `busyAt`: docs/architecture.md,
 * "One busy"), the workspace's files free. Pure: no `vscode` import (the Notify it reports through is the host's
 * Notifier, or a recording fake in tests).
 */
import type { SessionWork } from "../../core/agent/session-runs.js";
import type { FilesLock } from "../common/files-lock.js";
import { filesBusyText } from "../common/files-lock.js";
import { busyText, NO_SESSION_TEXT } from "../common/guard-texts.js";
import type { Notify } from "../common/notifier.js";

/**
 * One need of an operation on an entry (undefined: the leaf):
 * - `session`: a session is open; `writable`: it may be written;
 * - `idle`: no work at the entry — the leaf's run, a command the user typed or a move when the entry is on the
 *   current path; a parallel branch, an aside or a subagent when the entry is one of its own;
 * - `leafIdle`: no work at the leaf (the operation moves the leaf or changes the workspace's files, where the leaf's
 *   agent works), whatever its entry;
 * - `branchIdle`: no work at the entry or anywhere below it (an archive or a deletion takes the whole branch);
 * - `files`: the workspace's files are free (the one FilesLock).
 */
export type OperationNeed = "session" | "writable" | "idle" | "leafIdle" | "branchIdle" | "files";

/** What the guards ask about the window's state. */
export interface GuardState {
  hasSession(): boolean;
  /** Why the open session cannot be written, or undefined when it can (the flag and its reason, together). */
  readOnlyReason(): string | undefined;
  /** The work at `entryId` (undefined: the leaf), or undefined: the session's `busyAt`. */
  busyAt(entryId: string | undefined): SessionWork | undefined;
  /** The work at `entryId` or below it, or undefined (`SessionRuns.busyWithin`). */
  busyWithin(entryId: string): SessionWork | undefined;
  /**
   * Holds the leaf for an operation while it asks and works (a branch switch with its questions): registered with the
   * session as work at the leaf, so a second one is refused. Returns the release.
   */
  hold(label: string): () => void;
  /** The window's one lock on the workspace's files. */
  files: FilesLock;
}

/** Why an operation may not start: how loudly to say it, and what. */
export interface Refusal {
  level: "info" | "warn";
  text: string;
}

/** How a busy entry is said: a hold of the host's informs (the user caused it), anything running warns. */
function busyRefusal(work: SessionWork): Refusal {
  return { level: work.kind === "operation" ? "info" : "warn", text: busyText(work) };
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
      case "leafIdle":
      case "branchIdle": {
        const work =
          need === "leafIdle"
            ? state.busyAt(undefined)
            : need === "branchIdle" && entryId !== undefined
              ? state.busyWithin(entryId)
              : state.busyAt(entryId);
        if (work) return busyRefusal(work);
        break;
      }
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
