/**
 * Starts code-server (the VS Code server + web workbench, installed by scripts/ensure-deps.sh: the newest in
 * e2e-server-newest/, the oldest the extension claims in e2e-server/; `AGENT_TREE_CODE_SERVER` picks, see
 * ./code-server-install.ts) isolated in a temp folder, on 127.0.0.1 and a free port, with this repository's
 * extension installed from the .vsix of the current build, as users install it. Used by the end-to-end tests and
 * by `npm start` (scripts/start.ts). The README section "The end-to-end tests" says how they use it.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { selectedCodeServer, type CodeServerInstall } from "./code-server-install.js";
import { currentBuildVsix, folderVsix } from "./extension-vsix.js";

/** Repository root (this file is test/util/code-server.ts). */
export const REPO_ROOT = resolve(dirname(__filename), "..", "..");

/** The code-server the tests run on (`AGENT_TREE_CODE_SERVER`; the newest by default). */
export const CODE_SERVER: CodeServerInstall = selectedCodeServer();

/** The code-server entry point installed by scripts/ensure-deps.sh (of {@link CODE_SERVER}). */
export const CODE_SERVER_ENTRY = CODE_SERVER.entry;

/** This extension's folder name prefix in an extensions folder (publisher.name-version). */
const EXTENSION_DIR_PREFIX = "agent-tree.agent-tree-";

/** code-server's webview shell, the outer frame of every webview. */
const WEBVIEW_SHELL = join(
  CODE_SERVER.folder,
  "node_modules",
  "code-server",
  "lib",
  "vscode",
  "out",
  "vs",
  "workbench",
  "contrib",
  "webview",
  "browser",
  "pre",
  "index.html",
);

/**
 * Earlier versions of `npm start` patched the webview shell in place and kept the published one beside it as
 * `index.html.orig`. The extension now copes with code-server as published, and the tests must see what
 * users see: put the published shell back. True when it did.
 */
function restorePublishedWebviewShell(): boolean {
  if (!existsSync(`${WEBVIEW_SHELL}.orig`)) return false;
  renameSync(`${WEBVIEW_SHELL}.orig`, WEBVIEW_SHELL);
  return true;
}

/** Options of {@link startCodeServer}. */
export interface CodeServerOptions {
  /** Folder the workbench opens. */
  workspace: string;
  /** Fixed port; default: a free one. */
  port?: number;
  /** Extra environment for the server and its extension host (e.g. PI_CODING_AGENT_DIR). */
  env?: Record<string, string>;
  /**
   * Options for the server's Node (before its entry script). code-server forks its server with them, and the
   * server starts each extension host with its own `execArgv`, so they reach the extension host too — unlike
   * NODE_OPTIONS, which VS Code 1.10x+ servers delete from an extension host's environment.
   */
  nodeArgs?: string[];
  /** Where the isolated config/user data live; default: a new temp folder removed by `stop()`. */
  runDir?: string;
  /**
   * More extensions to install, each from its folder (packed into a .vsix and installed like this repository's;
   * VS Code >= 1.133 does not load a folder merely copied into the extensions folder). `id` is no longer needed.
   */
  installExtensions?: { id?: string; folder: string }[];
  /** Extra user settings (merged over the quiet defaults). */
  userSettings?: Record<string, unknown>;
  /** How long to wait for /healthz (default 60 s: the first start on a busy 2-core machine is slow). */
  startTimeoutMs?: number;
  /**
   * This repository's extension: "installed" (the default) installs the .vsix of the current build (dist/) into
   * the run's extensions folder with `--install-extension` (replacing one a kept `runDir` holds from an earlier
   * build); "none" leaves it as it is (for a caller that installs a .vsix of its own with {@link installVsix}).
   */
  extension?: "installed" | "none";
}

/** A running code-server. */
export interface CodeServer {
  /** Which code-server runs (its folder, version, Node). */
  install: CodeServerInstall;
  /** True when this repository's extension is installed in the run's extensions folder. */
  extensionInstalled: boolean;
  port: number;
  /** http://127.0.0.1:PORT */
  origin: string;
  runDir: string;
  process: ChildProcess;
  /** Everything the server printed so far (for failure messages). */
  output(): string;
  /** Kills the whole process group (the server leaves a file watcher behind otherwise) and removes runDir. */
  stop(): Promise<void>;
}

/** Parameters of the workbench URL. */
export interface WorkbenchUrlOptions {
  folder: string;
  /**
   * Load the extension from this folder, like `code --extensionDevelopmentPath`. Left out of the URL when it is
   * this repository and the server has its extension installed already (the default of {@link startCodeServer}):
   * the tests run the installed .vsix on every VS Code. VS Code >= 1.133 ignores this payload in code-server (it
   * wants --enable-smoke-test-driver, which code-server does not offer); extension tests run through an installed
   * runner extension instead (test/extension-runner/).
   */
  extensionDevelopmentPath?: string;
}

/** Finds a free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

/** True when the selected code-server ({@link CODE_SERVER}) is installed. */
export function codeServerInstalled(): boolean {
  return existsSync(CODE_SERVER_ENTRY) && existsSync(CODE_SERVER.node);
}

/** True when the extensions folder `extDir` holds this repository's extension. */
function holdsExtension(extDir: string): boolean {
  return existsSync(extDir) && readdirSync(extDir).some((f) => f.startsWith(EXTENSION_DIR_PREFIX));
}

/** Starts code-server and waits until /healthz answers. Throws with the server's output if it does not. */
export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  if (!codeServerInstalled()) {
    throw new Error(
      `code-server ${CODE_SERVER.version} is not installed (${CODE_SERVER_ENTRY} or ${CODE_SERVER.node} missing). Run: bash scripts/ensure-deps.sh`,
    );
  }
  if (restorePublishedWebviewShell())
    console.log("[code-server] restored the published webview shell (index.html.orig)");
  const ownRunDir = options.runDir === undefined;
  const runDir = options.runDir ?? mkdtempSync(join(tmpdir(), "agent-tree-cs-"));
  for (const sub of ["xdg-config", "xdg-data", "tmp", "ud", "ext"]) mkdirSync(join(runDir, sub), { recursive: true });
  for (const ext of options.installExtensions ?? []) installVsix(runDir, folderVsix(ext.folder));
  if ((options.extension ?? "installed") === "installed") installVsix(runDir, currentBuildVsix());
  const extensionInstalled = holdsExtension(join(runDir, "ext"));
  // Quiet, deterministic workbench: no welcome page, tips, telemetry or update checks.
  mkdirSync(join(runDir, "ud", "User"), { recursive: true });
  writeFileSync(
    join(runDir, "ud", "User", "settings.json"),
    JSON.stringify(
      {
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": false,
        "workbench.welcomePage.walkthroughs.openOnInstall": false,
        "telemetry.telemetryLevel": "off",
        "update.mode": "none",
        "extensions.autoCheckUpdates": false,
        "extensions.autoUpdate": false,
        "security.workspace.trust.enabled": false,
        "chat.commandCenter.enabled": false,
        // The title bar stays empty: the helpers click it to take the focus from a webview (1.139's command center
        // sits there and would open Quick Open).
        "window.commandCenter": false,
        // Newer VS Codes open their own Chat in the secondary side bar of every new window: keep the layout the
        // oldest has (and the machine's CPU) for the extension under test.
        "workbench.secondarySideBar.defaultVisibility": "hidden",
        ...options.userSettings,
      },
      null,
      2,
    ),
  );
  const port = options.port ?? (await freePort());
  const configFile = join(runDir, "config.yaml");
  writeFileSync(configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);

  const env = isolatedEnv(runDir, options.env);

  const args = [
    ...(options.nodeArgs ?? []),
    CODE_SERVER_ENTRY,
    "--config",
    configFile,
    "--bind-addr",
    `127.0.0.1:${port}`,
    "--auth",
    "none",
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-workspace-trust",
    "--disable-getting-started-override",
    "--user-data-dir",
    join(runDir, "ud"),
    "--extensions-dir",
    join(runDir, "ext"),
    options.workspace,
  ];
  const child = spawn(CODE_SERVER.node, args, { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const collect = (chunk: Buffer): void => {
    out += chunk.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  let exited = false;
  child.on("exit", () => {
    exited = true;
  });

  const origin = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    await killGroup(child);
    if (ownRunDir) rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`code-server exited during start-up. Output:\n${out}`);
    }
    try {
      const res = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer ${origin}/healthz in time. Output:\n${out}`);
    }
    await sleep(250);
  }
  return { install: CODE_SERVER, extensionInstalled, port, origin, runDir, process: child, output: () => out, stop };
}

/** The workbench URL that opens `folder` (with a development extension loaded, on VS Code < 1.133). */
export function workbenchUrl(
  server: Pick<CodeServer, "origin" | "port"> & Partial<Pick<CodeServer, "extensionInstalled">>,
  options: WorkbenchUrlOptions,
): string {
  const remote = (p: string): string => `vscode-remote://127.0.0.1:${server.port}${resolve(p)}`;
  const payload: [string, string][] = [];
  const development = options.extensionDevelopmentPath;
  const installedAlready = server.extensionInstalled === true && development && resolve(development) === REPO_ROOT;
  if (development && !installedAlready) payload.push(["extensionDevelopmentPath", remote(development)]);
  const params = new URLSearchParams({ folder: resolve(options.folder) });
  if (payload.length > 0) params.set("payload", JSON.stringify(payload));
  return `${server.origin}/?${params.toString()}`;
}

/**
 * The environment code-server runs in: config, data, sockets and logs inside runDir, no public extension
 * gallery, no password, none of the calling VS Code's variables.
 */
function isolatedEnv(runDir: string, extra?: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Keep config, sockets and logs inside runDir rather than the home folder and /tmp.
    XDG_CONFIG_HOME: join(runDir, "xdg-config"),
    XDG_DATA_HOME: join(runDir, "xdg-data"),
    TMPDIR: join(runDir, "tmp"),
    // The page would otherwise call out to a public extension gallery.
    EXTENSIONS_GALLERY: JSON.stringify({
      serviceUrl: "http://127.0.0.1:9/gallery",
      itemUrl: "http://127.0.0.1:9/item",
    }),
    ...extra,
  };
  // A password in the environment would switch auth back on.
  delete env.PASSWORD;
  delete env.HASHED_PASSWORD;
  // The host's own VS Code variables would confuse the nested server.
  for (const key of Object.keys(env)) if (key.startsWith("VSCODE_")) delete env[key];
  return env;
}

/**
 * Installs a .vsix into `runDir`'s extensions folder with `code-server --install-extension`, as a user of
 * desktop VS Code would with `code --install-extension`. Pass the same runDir to {@link startCodeServer}.
 */
export function installVsix(runDir: string, vsix: string): string {
  if (!codeServerInstalled())
    throw new Error(`code-server ${CODE_SERVER.version} is not installed. Run: bash scripts/ensure-deps.sh`);
  for (const sub of ["xdg-config", "xdg-data", "tmp", "ud", "ext"]) mkdirSync(join(runDir, sub), { recursive: true });
  const result = spawnSync(
    CODE_SERVER.node,
    [
      CODE_SERVER_ENTRY,
      "--user-data-dir",
      join(runDir, "ud"),
      "--extensions-dir",
      join(runDir, "ext"),
      "--install-extension",
      resolve(vsix),
      // Replaces an installed build of the same version (a kept runDir, e.g. `npm start`'s).
      "--force",
    ],
    { env: isolatedEnv(runDir), encoding: "utf8", timeout: 120_000 },
  );
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.status !== 0) throw new Error(`installing ${vsix} failed (exit ${result.status}):\n${output}`);
  return output;
}

/** SIGTERM to the process group, then SIGKILL if it is still there after a few seconds. */
async function killGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const pid = child.pid;
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    return;
  }
  const done = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
  // The group may still hold children (file watcher, extension host) even after the parent exited.
  try {
    process.kill(-pid, done ? "SIGTERM" : "SIGKILL");
  } catch {
    // group gone
  }
}

/** Promise-based delay. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
