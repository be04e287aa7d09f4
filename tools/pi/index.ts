/**
 * Where the real pi releases are, installed on first use by tools/pi/ensure.mjs (see there for how and why).
 * For the interop tests and the benchmark: load `sessionManager` (an ES module exporting pi's SessionManager)
 * in a child process started with `node`.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";

/** One pi release's session store and the Node to run it with. */
export interface PiRelease {
  /** npm version, e.g. "1.6.0". */
  version: string;
  /** The Node binary to run it with (pi 1.5 and later need Node >= 22.19; 0.73 runs under the project's Node). */
  node: string;
  /** Absolute path of pi's `dist/core/session-manager.js` (ES module; exports SessionManager). */
  sessionManager: string;
}

/** The two pi releases the project checks its files against. */
export interface PiReleases {
  /** pi 0.73.1 (npm `@mariozechner/pi-coding-agent`), the benchmark's baseline. */
  legacy: PiRelease;
  /** pi 1.6.0 (npm `@earendil-works/pi-coding-agent`), the newest. */
  latest: PiRelease;
}

const ENSURE = path.join(__dirname, "ensure.mjs");
let cached: PiReleases | undefined;

/**
 * Install what is missing (once per process; a ready machine costs one short child process) and return the
 * releases. Throws with npm's output on stderr when an install fails.
 */
export function ensurePiReleases(): PiReleases {
  cached ??= JSON.parse(
    execFileSync(process.execPath, [ENSURE, "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }),
  ) as PiReleases;
  return cached;
}
