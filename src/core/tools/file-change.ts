/**
 * What `write` and `edit` would leave in a file, computed by the same code the tools run: the edit tool
 * applies `applyEdit`, and a host that asks before the call (a diff to review) gets the result from
 * `proposedFileChange` without anything being written — with the hash of what it read, so an approval runs the
 * tool only on that file (reviewed-file.ts).
 */
import { describeFsError } from "./fs-errors.js";
import { displayPath, namedPath } from "./path-guard.js";
import { contentHash, type ReviewedFile } from "./reviewed-file.js";
import { reqString } from "./tool-args.js";
import { openInWorkspace } from "./workspace-open.js";

/** An edit that applies: the new content, and where (for the tool's short diff). */
export interface AppliedEdit {
  ok: true;
  after: string;
  /** Offset of the replaced text in the old content. */
  index: number;
  /** The texts as matched (line breaks in the file's convention). */
  oldText: string;
  newText: string;
}

/** An edit that does not apply, with what the model is told. */
export interface FailedEdit {
  ok: false;
  /** `shown` stands for the file's path in the message. */
  error: (shown: string) => string;
}

function countOccurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** Replaces the one exact occurrence of `oldText` in `before` (the edit tool's rule). Pure. */
export function applyEdit(before: string, oldText: string, newText: string): AppliedEdit | FailedEdit {
  let count = countOccurrences(before, oldText);
  // Models write "\n"; Windows files hold "\r\n". Match in the file's own convention.
  if (count === 0 && before.includes("\r\n") && !oldText.includes("\r\n")) {
    const crlfOld = oldText.replace(/\n/g, "\r\n");
    const crlfCount = countOccurrences(before, crlfOld);
    if (crlfCount > 0) {
      oldText = crlfOld;
      newText = newText.replace(/\r?\n/g, "\r\n");
      count = crlfCount;
    }
  }
  if (count === 0)
    return {
      ok: false,
      error: (shown) =>
        `Could not find the text to replace in ${shown}. oldText must match the file exactly, including whitespace and line breaks; read the file again and copy the text.`,
    };
  if (count > 1)
    return {
      ok: false,
      error: (shown) =>
        `The text to replace occurs ${count} times in ${shown}; it must be unique. Include more surrounding lines in oldText.`,
    };
  if (oldText === newText)
    return { ok: false, error: (shown) => `oldText and newText are identical; ${shown} was not changed.` };
  const index = before.indexOf(oldText);
  return {
    ok: true,
    after: before.slice(0, index) + newText + before.slice(index + oldText.length),
    index,
    oldText,
    newText,
  };
}

/** A file as it is and as a `write` or `edit` call would leave it. */
export interface ProposedFileChange {
  /** Workspace-relative path as the tools show it. */
  path: string;
  /** Absolute path. */
  absPath: string;
  /** Current content; undefined when the file does not exist yet. */
  before: string | undefined;
  after: string;
  /** What an approval of this diff passes to the tool: the bytes `before` was read from, hashed. */
  reviewed: ReviewedFile;
}

/**
 * The change a `write` or `edit` call would make, read through the same workspace guard as the tools; nothing is
 * written. Undefined for other tools; rejects with the tool's own error when the call could not run (bad
 * arguments, a path outside the workspace, an edit that does not apply).
 */
export async function proposedFileChange(
  cwd: string,
  toolName: string,
  args: Record<string, unknown>,
): Promise<ProposedFileChange | undefined> {
  if (toolName !== "write" && toolName !== "edit") return undefined;
  const requested = reqString(args, "path");
  const absPath = namedPath(cwd, requested);
  const shown = displayPath(cwd, absPath);
  let before: string | undefined;
  let reviewed: ReviewedFile = { sha256: null };
  try {
    const { handle } = await openInWorkspace(cwd, requested, "read");
    try {
      const bytes = await handle.readFile();
      before = bytes.toString("utf8");
      reviewed = { sha256: contentHash(bytes) };
    } finally {
      await handle.close();
    }
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
    if (!(missing && toolName === "write")) throw describeFsError(e, shown);
  }
  if (toolName === "write") return { path: shown, absPath, before, after: reqString(args, "content", true), reviewed };
  const edit = applyEdit(before ?? "", reqString(args, "oldText"), reqString(args, "newText", true));
  if (!edit.ok) throw new Error(edit.error(shown));
  return { path: shown, absPath, before, after: edit.after, reviewed };
}
