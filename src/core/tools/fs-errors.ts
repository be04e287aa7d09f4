/** Friendlier messages for common file-system errors. */
import { toError } from "../error-text.js";

/** Describe an fs error for the model, naming the path as the model gave it. */
export function describeFsError(e: unknown, shownPath: string): Error {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return new Error(`File not found: ${shownPath}`);
    case "EISDIR":
      return new Error(`${shownPath} is a directory, not a file (use ls to list it).`);
    case "ENOTDIR":
      return new Error(`${shownPath}: a parent of this path is not a directory.`);
    case "EACCES":
    case "EPERM":
      return new Error(`Permission denied: ${shownPath}`);
    default:
      return toError(e);
  }
}
