/** Entry ids (pi: 8 hex chars from a random UUID, re-drawn on collision) and session ids (pi: UUIDv7). */
import { randomBytes, randomUUID } from "node:crypto";
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

/** The last UUIDv7 made here: its millisecond and the counter in its `rand_a` bits (RFC 9562, method 1). */
let lastMs = -1;
let counter = 0;

/**
 * A UUIDv7 (RFC 9562), as pi writes session ids since 0.67.1: 48 bits of Unix milliseconds, then a 12-bit counter
 * that keeps ids made within one millisecond in order, then 62 random bits. Ids made by one process sort in the
 * order they were made, also when the clock steps back (the last millisecond is kept until it catches up).
 */
export function uuidv7(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    // 4096 ids in one millisecond: borrow the next one.
    lastMs++;
    counter = 0;
  }
  const b = randomBytes(16);
  b.writeUIntBE(lastMs, 0, 6);
  b[6] = 0x70 | (counter >> 8);
  b[7] = counter & 0xff;
  b[8] = 0x80 | (b[8] & 0x3f);
  const hex = b.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A new session id: a UUIDv7, time-ordered, as pi makes them. */
export function newSessionId(): string {
  return uuidv7();
}

/** pi's rule for session ids a caller chooses (they also name the session's file). */
const SESSION_ID = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** Throws SessionIdError unless pi would accept `id` as a session id. */
export function assertSessionId(id: string): void {
  if (!SESSION_ID.test(id)) throw new SessionIdError(id);
}
