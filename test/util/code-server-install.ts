/**
 * The code-servers the end-to-end tests and `npm start` run on, each installed by scripts/ensure-deps.sh into a
 * folder of its own (own package.json + lock): the oldest VS Code the extension claims in `engines.vscode`, on the
 * project's Node, and the newest, on the Node it requires (the npm package `node`, pinned beside it).
 * `AGENT_TREE_CODE_SERVER` picks one: `newest` (the default), `oldest`, or the code-server version of either.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** Repository root (this file is test/util/code-server-install.ts). */
const ROOT = resolve(dirname(__filename), "..", "..");

/** The two code-servers the tests know, by name. */
export type CodeServerName = "oldest" | "newest";

/** Where each one is installed (scripts/ensure-deps.sh installs into the same folders). */
const FOLDERS: Record<CodeServerName, string> = { oldest: "e2e-server", newest: "e2e-server-newest" };

/** The environment variable that picks the code-server, and its default. */
export const CODE_SERVER_ENV = "AGENT_TREE_CODE_SERVER";
const DEFAULT_NAME: CodeServerName = "newest";

/** One installed (or to-be-installed) code-server. */
export interface CodeServerInstall {
  name: CodeServerName;
  /** Its folder (e2e-server/ or e2e-server-newest/). */
  folder: string;
  /** The code-server version its package.json pins, e.g. "4.139.1". */
  version: string;
  /** The Node binary that runs it: the one its package.json pins, else the Node running this process. */
  node: string;
  /** code-server's entry point. */
  entry: string;
}

function pinnedDependencies(folder: string): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
  };
  return manifest.dependencies ?? {};
}

/** The code-server installed (or to be installed) as `name`. */
export function codeServerInstall(name: CodeServerName): CodeServerInstall {
  const folder = join(ROOT, FOLDERS[name]);
  const pins = pinnedDependencies(folder);
  const version = pins["code-server"];
  if (!version) throw new Error(`${FOLDERS[name]}/package.json pins no code-server`);
  const node = pins.node ? join(folder, "node_modules", "node", "bin", "node") : process.execPath;
  const entry = join(folder, "node_modules", "code-server", "out", "node", "entry.js");
  return { name, folder, version, node, entry };
}

/** The code-server `AGENT_TREE_CODE_SERVER` picks (newest unless it says otherwise). Throws on an unknown value. */
export function selectedCodeServer(env: NodeJS.ProcessEnv = process.env): CodeServerInstall {
  const wanted = env[CODE_SERVER_ENV]?.trim() || DEFAULT_NAME;
  const all = (Object.keys(FOLDERS) as CodeServerName[]).map(codeServerInstall);
  const found = all.find((c) => c.name === wanted || c.version === wanted);
  if (!found) {
    const known = all.flatMap((c) => [c.name, c.version]).join(", ");
    throw new Error(`${CODE_SERVER_ENV}=${wanted} is not one of: ${known}`);
  }
  return found;
}

/** The VS Code version inside an installed code-server (e.g. "1.139.1"); undefined when it is not installed. */
export function vscodeVersion(install: CodeServerInstall): string | undefined {
  const manifest = join(install.folder, "node_modules", "code-server", "lib", "vscode", "package.json");
  if (!existsSync(manifest)) return undefined;
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version?: string }).version;
}
