#!/usr/bin/env node
/**
 * Installs the real pi releases that the interop tests (test/interop) and the benchmark run against, into
 * git-ignored folders, from the project's own pins. Idempotent: on a ready machine it only checks a few files.
 *
 * - pi 0.73.1 (npm `@mariozechner/pi-coding-agent`): bench/pi, its own package.json and lock file
 *   (`npm ci --ignore-scripts`). Runs under the project's Node.
 * - pi 1.6.0 (npm `@earendil-works/pi-coding-agent`): needs Node >= 22.19, and some of its dependencies are not
 *   in the npm registry, so it is not installed as a package. Only its session store is used:
 *   `dist/core/session-manager.js`, which imports `cross-spawn` and two helpers of `@earendil-works/pi-ai`
 *   (getCurrentSystemMessage, uuidv7). So:
 *   - tools/pi/package.json + lock pin Node 22 (the npm package `node`, which carries the binary) and
 *     cross-spawn: `npm ci` in tools/pi;
 *   - the two pi tarballs (versions and integrity pinned in tools/pi/package.json `piPackages`) are fetched with
 *     `npm pack`, checked against their integrity, and unpacked into tools/pi/.cache/pi-<version>/;
 *   - a two-line `@earendil-works/pi-ai` module there re-exports those helpers from the real pi-ai files.
 *
 *   node tools/pi/ensure.mjs           install what is missing; logs to stderr
 *   node tools/pi/ensure.mjs --json    the same, then prints the releases (see tools/pi/index.ts) as JSON
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const TOOL_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(TOOL_DIR, "..", "..");
const MANIFEST = JSON.parse(fs.readFileSync(path.join(TOOL_DIR, "package.json"), "utf8"));
const AGENT = "@earendil-works/pi-coding-agent";
const AI = "@earendil-works/pi-ai";

const say = (line) => process.stderr.write(`[ensure-pi] ${line}\n`);

function npm(args, cwd) {
  // npm's own output ("added 188 packages") goes to stderr: with --json, stdout carries only the releases.
  execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd,
    stdio: ["ignore", process.stderr, "inherit"],
  });
}

/** pi 0.73.1 for the project's Node: the benchmark's own install (bench/pi). */
function legacy() {
  const dir = path.join(ROOT, "bench", "pi");
  const sessionManager = path.join(
    dir,
    "node_modules",
    "@mariozechner",
    "pi-coding-agent",
    "dist",
    "core",
    "session-manager.js",
  );
  if (!fs.existsSync(sessionManager)) {
    say("npm ci --prefix bench/pi (pi 0.73.1)");
    // --ignore-scripts: only pi's session store is loaded; no native add-on or postinstall step is needed.
    npm(["ci", "--ignore-scripts"], dir);
    if (!fs.existsSync(sessionManager)) throw new Error(`npm ci in bench/pi did not install ${sessionManager}`);
  }
  const version = JSON.parse(
    fs.readFileSync(path.join(sessionManager, "..", "..", "..", "package.json"), "utf8"),
  ).version;
  return { version, node: process.execPath, sessionManager };
}

/**
 * True when the packages npm recorded as installed (node_modules/.package-lock.json) are the ones the lock file
 * pins. Compared by content, not by file times: a fresh checkout's lock file is newer than an install it matches
 * (a git worktree whose node_modules links to another checkout's), and `npm ci` there would empty that install.
 */
function sameInstall(lock, stamp) {
  try {
    const want = JSON.parse(fs.readFileSync(lock, "utf8")).packages ?? {};
    const have = JSON.parse(fs.readFileSync(stamp, "utf8")).packages ?? {};
    return Object.entries(want).every(
      ([key, p]) => key === "" || (have[key]?.version === p.version && have[key]?.integrity === p.integrity),
    );
  } catch {
    return false;
  }
}

/** Node 22 and cross-spawn in tools/pi/node_modules (npm ci; the `node` package's install step fetches the binary). */
function node22() {
  const bin = path.join(TOOL_DIR, "node_modules", "node", "bin", "node");
  const stamp = path.join(TOOL_DIR, "node_modules", ".package-lock.json");
  const lock = path.join(TOOL_DIR, "package-lock.json");
  const stale = !fs.existsSync(bin) || !fs.existsSync(stamp) || !sameInstall(lock, stamp);
  if (stale) {
    say("npm ci in tools/pi (Node 22 from the npm package `node`, cross-spawn)");
    npm(["ci"], TOOL_DIR);
    if (!fs.existsSync(bin)) throw new Error(`npm ci in tools/pi did not install the Node binary ${bin}`);
  }
  return bin;
}

/** The sha512 integrity string of a file, as npm writes it. */
function integrityOf(file) {
  return `sha512-${createHash("sha512").update(fs.readFileSync(file)).digest("base64")}`;
}

/** Fetch one pinned tarball with npm pack into `dir`, check it, return its path. */
function fetchTarball(name, dir) {
  const pin = MANIFEST.piPackages[name];
  const out = execFileSync("npm", ["pack", `${name}@${pin.version}`, "--json", "--pack-destination", dir], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [{ filename }] = JSON.parse(out);
  const file = path.join(dir, filename);
  const got = integrityOf(file);
  if (got !== pin.integrity)
    throw new Error(`${name}@${pin.version}: integrity ${got} does not match the pin in tools/pi/package.json`);
  return file;
}

function unpack(tarball, into) {
  fs.mkdirSync(into, { recursive: true });
  execFileSync("tar", ["xzf", tarball, "-C", into, "--strip-components=1"], { stdio: "inherit" });
}

/** The newest pi's (1.6.x) session store under tools/pi/.cache/pi-<version>/, unpacked from the pinned tarballs. */
function latest(node) {
  const pins = MANIFEST.piPackages;
  const version = pins[AGENT].version;
  const dir = path.join(TOOL_DIR, ".cache", `pi-${version}`);
  const agentDir = path.join(dir, "node_modules", ...AGENT.split("/"));
  const sessionManager = path.join(agentDir, "dist", "core", "session-manager.js");
  const ready = path.join(dir, "ready.json");
  const want = JSON.stringify(pins);
  if (!fs.existsSync(ready) || fs.readFileSync(ready, "utf8") !== want || !fs.existsSync(sessionManager)) {
    say(`fetching pi ${version} (${AGENT}, ${AI}) with npm pack into tools/pi/.cache`);
    const tmp = `${dir}.tmp-${process.pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp, { recursive: true });
    try {
      const agentTgz = fetchTarball(AGENT, tmp);
      const aiTgz = fetchTarball(AI, tmp);
      unpack(agentTgz, path.join(tmp, "node_modules", ...AGENT.split("/")));
      // The real pi-ai files, beside (not in) node_modules: only two of its modules are loaded.
      unpack(aiTgz, path.join(tmp, "pi-ai"));
      const shim = path.join(tmp, "node_modules", ...AI.split("/"));
      fs.mkdirSync(shim, { recursive: true });
      fs.writeFileSync(
        path.join(shim, "package.json"),
        JSON.stringify({ name: AI, version: pins[AI].version, type: "module", exports: { ".": "./index.js" } }) + "\n",
      );
      fs.writeFileSync(
        path.join(shim, "index.js"),
        [
          "// The two pi-ai helpers pi's session store imports, from the real pi-ai files (tools/pi/ensure.mjs).",
          'export { getCurrentSystemMessage } from "../../../pi-ai/dist/utils/transcript.js";',
          'export { uuidv7 } from "../../../pi-ai/dist/utils/uuid.js";',
          "",
        ].join("\n"),
      );
      for (const f of fs.readdirSync(tmp)) if (f.endsWith(".tgz")) fs.rmSync(path.join(tmp, f));
      fs.writeFileSync(path.join(tmp, "ready.json"), want);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.renameSync(tmp, dir);
    } catch (e) {
      fs.rmSync(tmp, { recursive: true, force: true });
      throw e;
    }
    // Prove it loads under Node 22 before anyone depends on it.
    execFileSync(node, ["--input-type=module", "-e", `await import(${JSON.stringify(sessionManager)})`], {
      stdio: "inherit",
    });
  }
  return { version, node, sessionManager };
}

const releases = { legacy: legacy(), latest: latest(node22()) };
if (process.argv.includes("--json")) process.stdout.write(JSON.stringify(releases) + "\n");
