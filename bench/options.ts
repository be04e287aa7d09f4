/** Command-line options of `npm run bench -- [options]`. */

/** Thrown for --help: the message is the usage line, printed without a stack. */
export class UsageRequested extends Error {}

/** What a run does. */
export interface BenchOptions {
  /** Smoke run: smaller sessions, fewer runs, results not written to the committed files. */
  quick: boolean;
  /** Fresh processes per implementation and session (medians are taken over these). */
  runs: number;
  /** Appends timed per run. */
  appends: number;
  /** Skip the headless-Chromium tree measurements. */
  skipWebview: boolean;
  /** Skip the real-UI measurements (code-server + Chromium). */
  skipUi: boolean;
  /** Real-UI runs per session (each a fresh code-server), and clicks/moves per run. */
  uiRuns: number;
  uiMoves: number;
  /** Write CPU profiles of the store children into bench/.data/profiles (for finding what is slow). */
  cpuProf: boolean;
  /** Only these datasets (names), if given. */
  only?: string[];
  /** Write results to bench/results.md and docs/ (default: on for full runs, off for --quick). */
  write: boolean;
  /** Measure nothing: rewrite the result files from the last run (bench/.data/last-report.json). */
  fromLast: boolean;
  /** Time workspace checkpoints (src/core/checkpoints). */
  checkpoints: boolean;
  /** Only the checkpoint timings: no sessions, no webview, nothing written. */
  checkpointsOnly: boolean;
  /** Skip the session search over ~1 GB. */
  skipSearch: boolean;
  /** Measure only the session search (with --write: only its section of the result files). */
  searchOnly: boolean;
  /** Only the start of a `bash` tool call against a plain spawn: printed, nothing written. */
  bashOnly: boolean;
  /**
   * Only the session stores (open → tree → context against pi and the floor): printed with their targets; with
   * `--write`, they replace the stores' figures of the last written run.
   */
  storesOnly: boolean;
  /** Measure only the headless tree webview on the selected sessions (printed, never written). */
  webviewOnly: boolean;
  /** Measure only the real UI, the demo session against the big one (printed, never written). */
  uiOnly: boolean;
  /** Only the start of an MCP stdio server through the pool against the SDK's own transport: printed, nothing written. */
  mcpOnly: boolean;
  /** Only the HTML export of big sessions (page size, export and opening times): printed, nothing written. */
  exportOnly: boolean;
  /** Only Open Session…'s listing of the search corpus against pi's: printed, nothing written. */
  listOnly: boolean;
  /** Only a long reply and a long command output streamed into the chat webview (host and page): printed, nothing written. */
  streamOnly: boolean;
  /** Only a long reply streamed in the real UI (code-server + Chromium, the fake model server): printed, nothing written. */
  uiStreamOnly: boolean;
  /** Measure only activation and the bundles (printed; nothing written). */
  activationOnly: boolean;
  /** A git revision whose build the activation figures are compared with (before → after). */
  activationBaseline?: string;
}

/** The names of BenchOptions' yes/no options. */
type BooleanOption = { [K in keyof BenchOptions]: BenchOptions[K] extends boolean ? K : never }[keyof BenchOptions];

const USAGE = `usage: npm run bench -- [--quick] [--runs N] [--appends N] [--no-webview] [--no-ui] [--ui-runs N] [--cpu-prof] [--only a,b] [--write|--no-write] [--from-last] [--no-checkpoints|--checkpoints-only] [--no-search|--search-only] [--bash-only] [--stores-only] [--mcp-only] [--export-only] [--list-only] [--stream-only] [--ui-stream-only] [--webview-only|--ui-only] [--activation-only] [--activation-baseline <git ref>]`;

/** The options that set one flag of BenchOptions to true, and nothing else. */
const TRUE_FLAGS: Partial<Record<string, BooleanOption>> = {
  "--no-webview": "skipWebview",
  "--no-ui": "skipUi",
  "--cpu-prof": "cpuProf",
  "--no-search": "skipSearch",
  "--search-only": "searchOnly",
  "--bash-only": "bashOnly",
  "--stores-only": "storesOnly",
  "--webview-only": "webviewOnly",
  "--ui-only": "uiOnly",
  "--mcp-only": "mcpOnly",
  "--export-only": "exportOnly",
  "--list-only": "listOnly",
  "--stream-only": "streamOnly",
  "--ui-stream-only": "uiStreamOnly",
  "--activation-only": "activationOnly",
  "--checkpoints-only": "checkpointsOnly",
};

/** Parses argv (without node and script). Throws with the usage line on anything unknown. */
export function parseOptions(argv: string[]): BenchOptions {
  const quick = argv.includes("--quick");
  const options: BenchOptions = {
    quick,
    runs: quick ? 2 : 5,
    appends: quick ? 200 : 1000,
    skipWebview: false,
    skipUi: false,
    // A real-UI run starts a code-server and a browser: fewer of them, several moves each.
    uiRuns: quick ? 1 : 5,
    uiMoves: quick ? 3 : 6,
    cpuProf: false,
    write: !quick,
    fromLast: false,
    checkpoints: true,
    checkpointsOnly: false,
    skipSearch: false,
    searchOnly: false,
    bashOnly: false,
    storesOnly: false,
    webviewOnly: false,
    uiOnly: false,
    mcpOnly: false,
    exportOnly: false,
    listOnly: false,
    streamOnly: false,
    uiStreamOnly: false,
    activationOnly: false,
  };
  let writeGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value\n${USAGE}`);
      return next;
    };
    const count = (): number => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw new Error(`${arg} needs a positive whole number\n${USAGE}`);
      return n;
    };
    const flag = TRUE_FLAGS[arg];
    if (flag) {
      options[flag] = true;
      continue;
    }
    switch (arg) {
      case "--quick":
        break;
      case "--runs":
        options.runs = count();
        break;
      case "--appends":
        options.appends = count();
        break;
      case "--ui-runs":
        options.uiRuns = count();
        break;
      case "--only":
        options.only = value().split(",");
        break;
      case "--write":
        options.write = true;
        writeGiven = true;
        break;
      case "--activation-baseline":
        options.activationBaseline = value();
        break;
      case "--from-last":
        options.fromLast = true;
        options.write = true;
        break;
      case "--no-write":
        options.write = false;
        break;
      case "--no-checkpoints":
        options.checkpoints = false;
        break;
      case "--help":
      case "-h":
        throw new UsageRequested(USAGE);
      default:
        throw new Error(`unknown option ${arg}\n${USAGE}`);
    }
  }
  if (options.checkpointsOnly) {
    // A partial run must not overwrite the committed results.
    options.checkpoints = true;
    options.write = false;
  }
  // A webview-only run measures one part of the tables: it must not overwrite the committed results.
  if (options.webviewOnly) options.write = false;
  // A UI-only run replaces the real-UI figures of the last written run, and only when asked to.
  if (options.uiOnly && !writeGiven) options.write = false;
  // An activation-only run prints its figures only.
  if (options.activationOnly) options.write = false;
  // A search-only run rewrites its own section only, and only when asked to.
  if (options.searchOnly && !writeGiven) options.write = false;
  // A stores-only run replaces the stores' figures of the last written run, and only when asked to.
  if (options.storesOnly && !writeGiven) options.write = false;
  return options;
}
