/**
 * Watches for the `PendingMigrationError`s an extension's code raises in this extension host. VS Code (>= 1.101)
 * raises one when an extension touches something it has retired — Node's `navigator` global, which its extension
 * host replaces with a getter that raises it and returns undefined — and reports it as a deprecation: in the
 * extension host's log for an extension under development, only to telemetry for an installed one. The suite runs
 * the installed .vsix, so the log no longer shows it; this sees the same errors the way VS Code attributes them to
 * an extension, by the files on their stack.
 *
 * How: VS Code formats every error's stack through `Error.prepareStackTrace` (V8's hook), and when an extension sets
 * that hook, VS Code keeps its own and calls the extension's after it. The watcher's hook notes the errors and
 * formats them with the hook it replaced, so stacks read as before.
 */
import { resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The name VS Code gives the error (its `PendingMigrationError._name`). */
const PENDING_MIGRATION = "PendingMigrationError";

type PrepareStackTrace = (error: Error, sites: NodeJS.CallSite[]) => unknown;

/** The path of a stack frame's file (bundles load as paths, ES module chunks as file: URLs). */
function framePath(site: NodeJS.CallSite): string | undefined {
  const name = site.getFileName() ?? undefined;
  if (name?.startsWith("file:")) return fileURLToPath(name);
  return name;
}

/** What V8 prints without a hook: the error, then one `at` line per frame. */
function defaultStack(error: Error, sites: NodeJS.CallSite[]): string {
  return [`${error.name}: ${error.message}`, ...sites.map((s) => `    at ${String(s)}`)].join("\n");
}

/**
 * Starts watching for `PendingMigrationError`s raised with a frame of a file under `extensionPath` on their stack.
 * `stop()` removes the hook and returns each one seen, with its stack.
 */
export function watchMigrationErrors(extensionPath: string): { stop(): string[] } {
  const folder = resolve(extensionPath) + sep;
  const seen: string[] = [];
  const previous = Error.prepareStackTrace as PrepareStackTrace | undefined;
  const hook: PrepareStackTrace = (error, sites) => {
    const stack = previous ? previous(error, sites) : defaultStack(error, sites);
    if (error.name === PENDING_MIGRATION && sites.some((s) => framePath(s)?.startsWith(folder)))
      seen.push(typeof stack === "string" ? stack : defaultStack(error, sites));
    return stack;
  };
  Error.prepareStackTrace = hook;
  return {
    stop() {
      // VS Code's setter takes its own hook back as it was (and any other as the one to call after its own).
      if (previous) Error.prepareStackTrace = previous;
      else delete (Error as { prepareStackTrace?: PrepareStackTrace }).prepareStackTrace;
      return seen;
    },
  };
}
