/**
 * The one way a thrown value becomes text (or an Error): every `catch` that words a failure calls these, so a
 * thrown string, an Error and anything else read the same everywhere. Lint (eslint.config.mjs) refuses the inline
 * `e instanceof Error ? e.message : String(e)`, `(e as Error).message` and `String(e)` outside this file.
 */

/** The one way an error becomes text for a message: its message, else the thrown value as a string. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** An error for the log: its stack when it has one (where it was thrown), else its text. */
export function errorDetail(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** The thrown value as an Error (a thrown string or object becomes one with that text). */
export function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
