/** Errors thrown by the session store. Each message says what happened and what to do. */

/** Another writer (this or another process) holds the session file's lock. */
export class SessionLockedError extends Error {
  override readonly name = "SessionLockedError";
  constructor(
    readonly sessionFile: string,
    readonly holder: { pid?: number; hostname?: string; time?: string } | undefined,
  ) {
    const who = holder
      ? `process ${holder.pid ?? "?"} on ${holder.hostname ?? "?"} since ${holder.time ?? "?"}`
      : "another writer";
    super(
      `Session ${sessionFile} is already open for writing by ${who}. ` +
        `Close it there, or open it read-only (SessionManager.open(path, { readOnly: true })).`,
    );
  }
}

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
