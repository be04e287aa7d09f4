/** Errors thrown by the session store. Each message says what happened and what to do. */

/** Who holds (or held) a session's writer lock, as far as its lock says. */
export interface LockHolderInfo {
  pid?: number;
  hostname?: string;
  /** When the holder took the lock (ISO). */
  time?: string;
}

/**
 * Why a lock stops a writer:
 * - `this-process`: another SessionManager of this process writes the same file (maybe under another path);
 * - `live`: a running process (or one on another machine) refreshed its lock recently;
 * - `unresponsive`: the holder has not refreshed its lock for a while (its window is gone, or it hangs);
 * - `damaged`: the lock cannot be read (empty, corrupt, unexpected content);
 * - `busy`: the lock kept changing while this process tried to take it.
 */
export type LockCondition = "this-process" | "live" | "unresponsive" | "damaged" | "busy";

/** Details of a SessionLockedError. */
export interface LockedDetails {
  condition: LockCondition;
  /** The lock can be taken over, after asking the user: pass `claim` as `lock.takeOver` to open(). */
  canTakeOver: boolean;
  /** Names the lock as it was judged; a takeover only removes that very lock. */
  claim?: string;
  /** When the holder last refreshed the lock (ISO), if known. */
  refreshedAt?: string;
  /** What is wrong with a damaged lock. */
  detail?: string;
}

function age(refreshedAt: string | undefined): string {
  const t = refreshedAt === undefined ? NaN : Date.parse(refreshedAt);
  return Number.isNaN(t) ? "" : `${Math.max(0, Math.round((Date.now() - t) / 1000))} s ago`;
}

function lockedMessage(file: string, holder: LockHolderInfo | undefined, d: LockedDetails): string {
  const who = holder
    ? `process ${holder.pid ?? "?"} on ${holder.hostname ?? "?"} (since ${holder.time ?? "?"})`
    : "another writer";
  const readOnly = "open it read-only (SessionManager.open(path, { readOnly: true }))";
  switch (d.condition) {
    case "this-process":
      return `Session ${file} is already open for writing in this process (perhaps under another path). Close it there, or ${readOnly}.`;
    case "live":
      return `Session ${file} is being written by ${who}, which refreshed its lock ${age(d.refreshedAt) || "recently"}. Close it there, or ${readOnly}.`;
    case "unresponsive":
      return (
        `Session ${file} is locked by ${who}, which last refreshed its lock ${age(d.refreshedAt) || "long ago"}: ` +
        `its window is probably gone, or it hangs. Take the lock over (open with lock.takeOver), or ${readOnly}.`
      );
    case "damaged":
      return (
        `Session ${file} has a damaged lock (${d.detail ?? "unreadable"}${d.refreshedAt ? `, changed ${age(d.refreshedAt)}` : ""}). ` +
        `Take the lock over (open with lock.takeOver), or ${readOnly}.`
      );
    case "busy":
      return `Session ${file}: its lock kept changing while this process tried to take it (several writers starting at once). Try again, or ${readOnly}.`;
    default: {
      const never: never = d.condition;
      return never;
    }
  }
}

/** Another writer (this or another process) holds the session file's lock. */
export class SessionLockedError extends Error {
  override readonly name = "SessionLockedError";
  readonly condition: LockCondition;
  readonly canTakeOver: boolean;
  readonly claim: string | undefined;
  readonly refreshedAt: string | undefined;
  constructor(
    readonly sessionFile: string,
    readonly holder: LockHolderInfo | undefined,
    details: LockedDetails = { condition: "live", canTakeOver: false },
  ) {
    super(lockedMessage(sessionFile, holder, details));
    this.condition = details.condition;
    this.canTakeOver = details.canTakeOver;
    this.claim = details.claim;
    this.refreshedAt = details.refreshedAt;
  }
}

/**
 * This session's writer lock was taken over by another process (after its user agreed, or because this
 * process stopped refreshing it): the session is now read-only and nothing more is written.
 */
export class SessionLockLostError extends Error {
  override readonly name = "SessionLockLostError";
  constructor(
    readonly sessionFile: string,
    readonly newHolder: LockHolderInfo | undefined,
    /** Why the lock went: another process took it over, or the file (or its folder) was deleted. */
    readonly reason: LockLossReason = "taken-over",
  ) {
    const by = newHolder ? `process ${newHolder.pid ?? "?"} on ${newHolder.hostname ?? "?"}` : "another process";
    super(
      reason === "file-gone"
        ? `Session ${sessionFile} was deleted (the file or its folder) while it was open; this view is now ` +
            `read-only and nothing was written. What it holds is kept in memory: saveAgain() writes it back.`
        : `Session ${sessionFile} was taken over by ${by}; this view is now read-only and nothing was written. ` +
            `Reopen the session to see what was written since.`,
    );
  }
}

/**
 * Why a session lost its writer lock: `taken-over` — another process took the lock over; `file-gone` — the session
 * file, or the folder holding it (and its lock), was deleted while it was open.
 */
export type LockLossReason = "taken-over" | "file-gone";

/** A write was attempted on a read-only view. */
export class SessionReadOnlyError extends Error {
  override readonly name = "SessionReadOnlyError";
  constructor(readonly sessionFile: string | undefined) {
    super(`Session ${sessionFile ?? "(in memory)"} is open read-only; reopen it without readOnly to change it.`);
  }
}

/** The file is not a readable session (missing or garbled header, unreadable bytes). Nothing was changed. */
export class SessionFormatError extends Error {
  override readonly name = "SessionFormatError";
  constructor(
    readonly sessionFile: string,
    readonly line: number,
    reason: string,
  ) {
    super(`${sessionFile}:${line}: ${reason}`);
  }
}

/** What kind of thing a session path names, when it is not a regular file. */
export type NonRegularKind = "directory" | "fifo" | "socket" | "device" | "other";

/** The session path names something that is not a regular file (a folder, a FIFO, …). Nothing was opened. */
export class SessionFileTypeError extends Error {
  override readonly name = "SessionFileTypeError";
  constructor(
    readonly sessionFile: string,
    readonly kind: NonRegularKind,
  ) {
    const what = kind === "fifo" ? "a FIFO (named pipe)" : kind === "other" ? "not a regular file" : `a ${kind}`;
    super(`Cannot open session ${sessionFile}: it is ${what}, not a session file.`);
  }
}

/**
 * The file changed on disk in a way this view cannot account for (another program wrote to it while it was
 * open): nothing was written and nothing was cut. Reopen the session.
 */
export class SessionChangedError extends Error {
  override readonly name = "SessionChangedError";
  constructor(
    readonly sessionFile: string,
    reason: string,
  ) {
    super(`Session ${sessionFile} ${reason}; nothing was written or cut. Reopen it to continue.`);
  }
}

/** An entry id that does not exist in this session. */
export class EntryNotFoundError extends Error {
  override readonly name = "EntryNotFoundError";
  constructor(readonly entryId: string) {
    super(`Entry ${entryId} not found in this session`);
  }
}

/** A session id the caller chose that pi would not accept (pi's rule: see assertSessionId). */
export class SessionIdError extends Error {
  override readonly name = "SessionIdError";
  constructor(readonly sessionId: string) {
    super(
      `Session id ${JSON.stringify(sessionId)} is not valid: use letters, digits, ".", "_" and "-", starting and ending with a letter or digit.`,
    );
  }
}

/**
 * Archiving or deleting a branch that holds the current leaf: the session would resume inside what was hidden
 * or removed. Nothing was written; move the leaf out of the branch first (branch()).
 */
export class ActiveBranchError extends Error {
  override readonly name = "ActiveBranchError";
  constructor(
    readonly entryId: string,
    readonly leafId: string,
  ) {
    super(
      `The branch starting at entry ${entryId} holds the current position (${leafId}); move out of it first. Nothing was changed.`,
    );
  }
}
