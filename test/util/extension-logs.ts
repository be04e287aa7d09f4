/**
 * What VS Code logged against this extension in a code-server run: the errors and deprecation warnings of the
 * extension host's log that come from the extension (their text or stack names it: its id, which its installed
 * folder's name starts with), and the errors of its own output channel ("Agent Tree"). Read from the run's user-data
 * folder (`<runDir>/ud/logs/<session>/exthost<N>/`), where code-server writes them. VS Code logs a deprecation (e.g.
 * `'PendingMigrationError' is deprecated. navigator is now a global in nodejs`, for a touch of Node's `navigator`)
 * only for a development extension; an installed one only reports it to telemetry, so the extension-host suite's
 * runner watches for those itself (test/extension-runner/migration-errors.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";

/** The extension's id, as VS Code names its log folder and its installed folder (`<id>-<version>`). */
const EXTENSION_ID = "agent-tree.agent-tree";
/** A log entry starts with its time and level; the lines up to the next one (a stack) belong to it. */
const ENTRY_START = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} \[(\w+)\]/;

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** A warning VS Code logs when an extension uses something deprecated. */
const DEPRECATION = /^\S+ \S+ \[warning\] \[Deprecation Warning\]/;

/** The entries of a VS Code log file that are errors or deprecation warnings, each with its continuation lines. */
function errorEntries(file: string): string[] {
  const entries: string[] = [];
  let current: string[] | undefined;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const start = ENTRY_START.exec(line);
    if (start) {
      current = start[1] === "error" || DEPRECATION.test(line) ? [line] : undefined;
      if (current) entries.push("");
    } else if (current) current.push(line);
    if (current) entries[entries.length - 1] = current.join("\n");
  }
  return entries;
}

/**
 * The errors logged so far against this extension (or the one whose id is `id`) in the code-server run whose folder
 * is `runDir` (activation failures, uncaught errors, deprecated things it used, and what the extension itself logged
 * as an error), each as `<log file>: <entry with its stack>`.
 */
export function extensionErrors(runDir: string, id = EXTENSION_ID): string[] {
  const found: string[] = [];
  for (const file of files(join(runDir, "ud", "logs"))) {
    const name = basename(file);
    const own = file.includes(`/${id}/`);
    const host = /^(remote)?exthost\.log$/.test(name);
    if (!own && !host) continue;
    for (const entry of errorEntries(file)) {
      if (own || entry.includes(id)) found.push(`${name}: ${entry}`);
    }
  }
  return found;
}
