/**
 * pi is a dev dependency of the benchmark only, in its own folder (bench/pi) with a committed lock file:
 * installed with `npm ci` on first use, never part of the extension's dependencies.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { PI_DIR, PI_SESSION_MANAGER } from "./paths.js";

/** Installs bench/pi if pi's SessionManager module is missing. Throws with npm's output if that fails. */
export function ensurePi(log: (line: string) => void): void {
  if (existsSync(PI_SESSION_MANAGER)) return;
  log("installing pi for the benchmark: npm ci --prefix bench/pi (once)");
  // --ignore-scripts: only pi's SessionManager is used; no native add-on or postinstall step is needed.
  execFileSync("npm", ["ci", "--prefix", PI_DIR, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], {
    stdio: "inherit",
  });
  if (!existsSync(PI_SESSION_MANAGER)) {
    throw new Error(`npm ci --prefix bench/pi finished but ${PI_SESSION_MANAGER} does not exist`);
  }
}
