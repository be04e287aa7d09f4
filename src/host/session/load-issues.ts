/** The warning shown when a session loaded with skipped lines. Pure. */
import type { LoadIssue } from "../../core/session/types.js";

/** "Skipped 3 damaged lines in x.jsonl (lines 4, 9, 12): …" — line numbers first, bounded length. */
export function loadIssuesMessage(fileName: string, issues: readonly LoadIssue[], maxLines = 10): string | undefined {
  if (issues.length === 0) return undefined;
  const lines = issues.slice(0, maxLines).map((i) => i.line);
  const more = issues.length > maxLines ? ` and ${issues.length - maxLines} more` : "";
  const noun = issues.length === 1 ? "line" : "lines";
  const first = issues[0].reason.length > 160 ? issues[0].reason.slice(0, 159) + "…" : issues[0].reason;
  return (
    `Session ${fileName}: skipped ${issues.length} damaged ${noun} ` +
    `(${noun} ${lines.join(", ")}${more}). First problem: ${first}. The file was left as it is; ` +
    `details are in the "Agent Tree" output.`
  );
}
