/**
 * The diff an `edit` result records in `details.diff`, in pi's edit tool's format (its `generateDiffString`): whole
 * lines, `-N text` removed (old line numbers), `+N text` added (new line numbers), ` N text` context (old line
 * numbers), up to four context lines around the change and a `   ...` line where more are left out, numbers padded
 * to the widest line count of either file. The change is known
 * exactly (one replaced region), so no diff algorithm is needed: the region is widened to whole lines and the
 * lines it leaves equal at its start and end become context. The export page (webview/export/edit-diff.ts) and
 * pi's page colour it by its first character.
 */

/** Context lines shown before and after the change, as pi's edit tool shows them. */
export const EDIT_DIFF_CONTEXT = 4;

/** The diff and the first changed line (1-based, in the new file). */
export interface EditDiff {
  diff: string;
  firstChangedLine: number;
}

/** The 0-based line of `offset` in `text`. */
function lineOf(text: string, offset: number): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** The file's lines (none for an empty file), without the empty one after a final line break, each without a CR. */
function linesOf(text: string): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

/**
 * The diff of replacing `oldText` at `index` of `before` with `newText` (giving `after`). An edit that changes no
 * line gives an empty diff.
 */
export function editDiff(
  before: string,
  after: string,
  index: number,
  oldText: string,
  newText: string,
  context = EDIT_DIFF_CONTEXT,
): EditDiff {
  const oldLines = linesOf(before);
  const newLines = linesOf(after);
  const first = lineOf(before, index);
  // The region in whole lines: from the line the replaced text starts on to the line it ends on (in each file).
  let oldEnd = Math.min(lineOf(before, index + oldText.length), oldLines.length - 1);
  let newEnd = Math.min(lineOf(after, index + newText.length), newLines.length - 1);
  let start = first;
  while (start <= oldEnd && start <= newEnd && oldLines[start] === newLines[start]) start++;
  while (oldEnd >= start && newEnd >= start && oldLines[oldEnd] === newLines[newEnd]) {
    oldEnd--;
    newEnd--;
  }
  if (oldEnd < start && newEnd < start) return { diff: "", firstChangedLine: first + 1 };
  // pi counts lines as line breaks + 1 (a final line break adds an empty line to the count).
  const width = String(Math.max(lineOf(before, before.length), lineOf(after, after.length)) + 1).length;
  const row = (mark: string, i: number, text: string | undefined): string =>
    `${mark}${String(i + 1).padStart(width, " ")} ${text ?? ""}`;
  const skipped = ` ${"".padStart(width, " ")} ...`;
  const out: string[] = [];
  const from = Math.max(0, start - context);
  if (from > 0) out.push(skipped);
  for (let i = from; i < start; i++) out.push(row(" ", i, oldLines[i]));
  for (let i = start; i <= oldEnd; i++) out.push(row("-", i, oldLines[i]));
  for (let i = start; i <= newEnd; i++) out.push(row("+", i, newLines[i]));
  const last = Math.min(oldLines.length - 1, oldEnd + context);
  for (let i = oldEnd + 1; i <= last; i++) out.push(row(" ", i, oldLines[i]));
  if (last < oldLines.length - 1) out.push(skipped);
  return { diff: out.join("\n"), firstChangedLine: start + 1 };
}
