/**
 * Lines holding more than one entry. pi before 0.84.3 appended to a file whose last line had no newline without
 * adding one, so its entry was glued to that line: two complete entries (`{…}{…}`), or a torn entry (cut mid-write)
 * followed by a complete one. Real cases sit in pi's own published sessions. Both the loader (session-scan.ts) and
 * the v1/v2 migration (migrate.ts) split such lines into the entries they hold.
 */

/** One entry found on a glued line. */
export interface GluedPiece {
  /** Character offsets of its JSON text in the line. */
  start: number;
  end: number;
  value: unknown;
}

/** What a glued line holds. */
export interface GluedLine {
  /** Characters before the first entry: a torn entry (0 when the line starts with a whole one). */
  skipped: number;
  pieces: GluedPiece[];
  /** Character offset of a torn entry ending the line (only when `tornTailAllowed`); undefined when none. */
  tornTail?: number;
}

/** Where an entry starts: every writer puts `type` first. */
const ENTRY_START = '{"type":"';
/** Starting points tried for the first whole entry (a torn prefix is usually one entry). */
const MAX_STARTS = 64;

function parse(text: string, isEntry: (v: unknown) => boolean): unknown {
  try {
    const v = JSON.parse(text) as unknown;
    return isEntry(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Whole entries from `from` to the end of the line (a torn one may end it when allowed), or undefined. */
function chain(
  line: string,
  from: number,
  isEntry: (v: unknown) => boolean,
  tornTailAllowed: boolean,
): { pieces: GluedPiece[]; tornTail?: number } | undefined {
  const pieces: GluedPiece[] = [];
  let at = from;
  while (at < line.length) {
    let found: GluedPiece | undefined;
    // An entry ends where the next one starts: `}` then `{"type":"` (in valid JSON `}{` occurs nowhere else,
    // and inside a string the quotes would be escaped), or at the end of the line.
    for (let next = line.indexOf("}" + ENTRY_START, at); ; next = line.indexOf("}" + ENTRY_START, next + 1)) {
      const end = next < 0 ? line.length : next + 1;
      const value = parse(line.slice(at, end), isEntry);
      if (value !== undefined) {
        found = { start: at, end, value };
        break;
      }
      if (next < 0) break;
    }
    if (!found) return tornTailAllowed && pieces.length > 0 ? { pieces, tornTail: at } : undefined;
    pieces.push(found);
    at = found.end;
  }
  return { pieces };
}

/**
 * Split a line that does not parse as one JSON value into the entries glued on it: an optional torn prefix, then
 * whole entries up to the end of the line (`isEntry` decides what counts). `tornTailAllowed` (an unterminated last
 * line): the line may also end in a torn entry. Undefined when the line holds no such run of entries.
 */
export function splitGluedLine(
  line: string,
  isEntry: (v: unknown) => boolean,
  tornTailAllowed = false,
): GluedLine | undefined {
  for (
    let start = line.startsWith(ENTRY_START) ? 0 : line.indexOf(ENTRY_START, 1), tries = 0;
    start >= 0 && tries < MAX_STARTS;
    start = line.indexOf(ENTRY_START, start + 1), tries++
  ) {
    const found = chain(line, start, isEntry, tornTailAllowed);
    // A single whole line is not glued: two entries or more, or one with a torn entry before or after it.
    if (found && (found.pieces.length > 1 || start > 0 || found.tornTail !== undefined))
      return found.tornTail === undefined
        ? { skipped: start, pieces: found.pieces }
        : { skipped: start, pieces: found.pieces, tornTail: found.tornTail };
  }
  return undefined;
}
