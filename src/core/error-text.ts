/** The one way an error becomes text for a message: its message, else the thrown value as a string. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
