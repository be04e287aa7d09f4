/** Entry and session ids (pi: 8 hex chars from a random UUID, re-drawn on collision). */
import { randomUUID } from "node:crypto";
import { SessionIdError } from "./errors.js";

/** A new 8-hex-char entry id for which `taken(id)` is false. */
export function newEntryId(taken: (id: string) => boolean): string {
  for (let i = 0; i < 100; i++) {
    const id = randomUUID().slice(0, 8);
    if (!taken(id)) return id;
  }
  // 100 collisions in a row means the id space is nearly full: fall back to a full UUID.
  return randomUUID();
}

/** A new session id (a full UUID, as pi uses). */
export function newSessionId(): string {
  return randomUUID();
}

/** pi's rule for session ids a caller chooses (they also name the session's file). */
const SESSION_ID = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** Throws SessionIdError unless pi would accept `id` as a session id. */
export function assertSessionId(id: string): void {
  if (!SESSION_ID.test(id)) throw new SessionIdError(id);
}
