/**
 * How the test-runner extension (./extension.ts, inside VS Code's extension host) and the test process
 * (test/e2e/extension-host.test.ts) talk: through files in a folder the test names in an environment variable of the
 * code-server process, which the extension host inherits. mocha's lines are appended to {@link OUTPUT_FILE} as they
 * come (so a run that never finishes still shows how far it got); {@link RESULT_FILE} appears, whole, when the run
 * is over.
 */

/** The folder for the files below; the runner does nothing unless it is set. */
export const RESULTS_DIR_ENV = "AGENT_TREE_EXTENSION_TESTS_DIR";

/** mocha's output, one line at a time. */
export const OUTPUT_FILE = "mocha.log";

/** The {@link SuiteResult} as JSON, written under another name and renamed, so it is never read half-written. */
export const RESULT_FILE = "result.json";

/** The runner extension's id (its package.json), for its own log entries. */
export const RUNNER_ID = "agent-tree.extension-tests";

/** What a run reports. */
export interface SuiteResult {
  /** 0: every test passed; 1: some failed; 2: the suite could not run (see `error`). */
  exitCode: number;
  /** Failed tests (mocha's count). */
  failures: number;
  /** mocha's spec report. */
  output: string;
  /** Why the suite could not run (with its stack), when it could not. */
  error?: string;
  /** VS Code's version (`vscode.version`). */
  vscodeVersion: string;
  /** The folder VS Code loaded Agent Tree from (the installed .vsix's), or undefined when it is not installed. */
  extensionPath?: string;
  /** True when Agent Tree was active before the runner started to watch it (its activation then went unwatched). */
  activeBeforeRunner: boolean;
  /**
   * The `PendingMigrationError`s raised from Agent Tree's files (with their stacks): what VS Code reports as a
   * deprecation, e.g. a read of Node's `navigator` global, which it logs only for an extension under development
   * (./migration-errors.ts).
   */
  migrationErrors: string[];
}
