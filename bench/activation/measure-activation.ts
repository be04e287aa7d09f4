/**
 * What the extension costs before it does anything, and what the model library costs when it is first used
 * (issue 35, item 4): a production build of this checkout — and, with a baseline, of that git revision — in a
 * staging folder, then per build
 *
 * - **bundle sizes**: dist/extension.js (what activation reads), dist/pi-ai (the model library, read on first
 *   model use; its SDK chunks on the first request of their API) and dist/tools (the tools' heavy parts, read on
 *   their first use);
 * - **activation**: `require` of dist/extension.js and its `activate()`, `vscode` stood in for
 *   (activate-child.ts), fresh process per run, medians;
 * - **first model use** (builds with dist/pi-ai): the registry built (pi-ai and its catalog loaded, readiness
 *   checked), then a first and a second request to a fake server (the first loads the `openai` SDK's chunk).
 *
 * Runs of the two builds alternate, so drift on a shared machine hits both alike. Printed, never asserted.
 */
import { execFile, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { startFakeOpenAI } from "../../test/util/fake-openai-server.js";
import { REPO_DIR } from "../paths.js";
import { median } from "../stats.js";

/** The figures of one build. */
export interface ActivationFigures {
  /** "this checkout", or the git revision. */
  label: string;
  extensionBytes: number;
  /** Each folder of {@link LAZY_FOLDERS}: all its files' bytes (0 for a build without it), and how many. */
  lazy: Record<string, { bytes: number; files: number }>;
  requireMs: number;
  activateMs: number;
  /** RSS of the child after activation. */
  rssBytes: number;
  firstUse?: { loadMs: number; firstRequestMs: number; secondRequestMs: number; models: number; providers: number };
}

/** Both builds' figures. */
export interface ActivationReport {
  now: ActivationFigures;
  before?: ActivationFigures;
  runs: number;
}

const BUILD_INPUTS = ["src", "webview", "media", "esbuild.mjs", "package.json"];

/** A staging folder holding `ref`'s sources (the working tree's when undefined), built for production. */
function stage(ref: string | undefined, log: (line: string) => void): string {
  const dir = mkdtempSync(join(tmpdir(), "agent-tree-activation-"));
  if (ref) {
    const archive = execFileSync("git", ["archive", ref, ...BUILD_INPUTS], {
      cwd: REPO_DIR,
      maxBuffer: 512 * 1024 * 1024,
    });
    execFileSync("tar", ["-x", "-C", dir], { input: archive });
  } else {
    for (const input of BUILD_INPUTS) cpSync(join(REPO_DIR, input), join(dir, input), { recursive: true });
  }
  // The checkout's dependencies (a baseline built with them differs from its own lockfile only where this one moved).
  symlinkSync(join(REPO_DIR, "node_modules"), join(dir, "node_modules"));
  log(`activation: building ${ref ?? "this checkout"} for production`);
  execFileSync(process.execPath, ["esbuild.mjs", "--production"], { cwd: dir, stdio: "pipe" });
  return dir;
}

function folderBytes(dir: string): { bytes: number; files: number } {
  if (!existsSync(dir)) return { bytes: 0, files: 0 };
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
    files++;
  }
  return { bytes, files };
}

/** The pi-ai runtime import left for Node, as esbuild.mjs leaves it. */
const piAiExternal: esbuild.Plugin = {
  name: "pi-ai-runtime-external",
  setup(build) {
    build.onResolve({ filter: /\/pi-ai-runtime\.mjs$/ }, () => ({ path: "./pi-ai/runtime.mjs", external: true }));
  },
};

/** Bundles the child script `name` (bench/activation/<name>.ts) for Node into `outfile`, with `extra` options. */
async function bundleChild(name: string, outfile: string, extra: esbuild.BuildOptions = {}): Promise<void> {
  await esbuild.build({
    entryPoints: [join(REPO_DIR, "bench", "activation", `${name}.ts`)],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    logLevel: "error",
    ...extra,
  });
}

async function bundleChildren(dir: string): Promise<{ activate: string; firstUse?: string }> {
  const activate = join(dir, "bench-activate.cjs");
  await bundleChild("activate-child", activate);
  if (!existsSync(join(dir, "dist", "pi-ai", "runtime.mjs"))) return { activate };
  // Next to dist/extension.js, so its import of ./pi-ai/runtime.mjs finds the build's own bundle.
  const firstUse = join(dir, "dist", "bench-first-use.cjs");
  await bundleChild("first-use-child", firstUse, {
    plugins: [piAiExternal],
    // As esbuild.mjs: jsonc-parser's UMD build loads its parts with a require() esbuild cannot follow.
    alias: { "jsonc-parser": join(REPO_DIR, "node_modules", "jsonc-parser", "lib", "esm", "main.js") },
  });
  return { activate, firstUse };
}

function runJson<T>(args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, out, err) => {
      if (error) reject(new Error(`${args[0]}: ${error.message}\n${err.slice(-2000)}`));
      else resolve(JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as T);
    });
  });
}

/** The ES module bundles under dist/ that activation does not read (esbuild.mjs), and when they are read. */
const LAZY_FOLDERS: Record<string, string> = {
  "pi-ai": "read on first model use, SDK chunks per API",
  tools: "read on first web_fetch or bash rule check",
};

interface Build {
  label: string;
  dir: string;
  children: { activate: string; firstUse?: string };
  activations: { requireMs: number; activateMs: number; rss: number }[];
  firstUses: NonNullable<ActivationFigures["firstUse"]>[];
}

function figures(b: Build): ActivationFigures {
  const out: ActivationFigures = {
    label: b.label,
    extensionBytes: statSync(join(b.dir, "dist", "extension.js")).size,
    lazy: Object.fromEntries(Object.keys(LAZY_FOLDERS).map((f) => [f, folderBytes(join(b.dir, "dist", f))])),
    requireMs: median(b.activations.map((a) => a.requireMs)),
    activateMs: median(b.activations.map((a) => a.activateMs)),
    rssBytes: median(b.activations.map((a) => a.rss)),
  };
  if (b.firstUses.length > 0)
    out.firstUse = {
      loadMs: median(b.firstUses.map((f) => f.loadMs)),
      firstRequestMs: median(b.firstUses.map((f) => f.firstRequestMs)),
      secondRequestMs: median(b.firstUses.map((f) => f.secondRequestMs)),
      models: b.firstUses[0].models,
      providers: b.firstUses[0].providers,
    };
  return out;
}

/** Measures this checkout and, when `baseline` names a git revision, that one too (see the file comment). */
export async function measureActivation(
  runs: number,
  baseline: string | undefined,
  log: (line: string) => void,
): Promise<ActivationReport> {
  const scratch = mkdtempSync(join(tmpdir(), "agent-tree-activation-ws-"));
  const fake = await startFakeOpenAI();
  const builds: Build[] = [];
  try {
    for (const ref of baseline ? [undefined, baseline] : [undefined]) {
      const dir = stage(ref, log);
      builds.push({
        label: ref ?? "this checkout",
        dir,
        children: await bundleChildren(dir),
        activations: [],
        firstUses: [],
      });
    }
    const workspace = join(scratch, "workspace");
    mkdirSync(workspace, { recursive: true });
    for (let run = 0; run < runs; run++) {
      // Alternate which build goes first, so neither always runs on a cache the other warmed.
      for (const b of run % 2 === 0 ? builds : [...builds].reverse()) {
        const storage = mkdtempSync(join(scratch, "storage-"));
        b.activations.push(
          await runJson([b.children.activate, join(b.dir, "dist", "extension.js"), workspace, storage]),
        );
        if (b.children.firstUse) b.firstUses.push(await runJson([b.children.firstUse, fake.baseURL]));
      }
    }
    const [now, before] = builds.map(figures);
    return { now, ...(before ? { before } : {}), runs };
  } finally {
    await fake.close();
    for (const b of builds) rmSync(b.dir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}

const kb = (bytes: number): string => `${Math.round(bytes / 1024).toLocaleString("en")} KiB`;
const ms = (v: number): string => `${v.toFixed(1)} ms`;
const change = (now: number, before: number): string =>
  before > 0 ? ` (${now >= before ? "+" : ""}${(((now - before) / before) * 100).toFixed(0)} %)` : "";

/** The figures as lines for the bench's log (before → after when there is a baseline). */
export function activationLines(r: ActivationReport): string[] {
  const { now, before } = r;
  const pair = (f: (x: ActivationFigures) => number, fmt: (v: number) => string): string =>
    before ? `${fmt(f(before))} → ${fmt(f(now))}${change(f(now), f(before))}` : fmt(f(now));
  const lines = [
    `activation (${before ? `${before.label} → ${now.label}` : now.label}, medians of ${r.runs} fresh processes): ` +
      `require of dist/extension.js ${pair((x) => x.requireMs, ms)}, activate() ${pair((x) => x.activateMs, ms)}, ` +
      `together ${pair((x) => x.requireMs + x.activateMs, ms)}; RSS after ${pair((x) => x.rssBytes, kb)}`,
    `bundle: dist/extension.js (read at activation) ${pair((x) => x.extensionBytes, kb)}; ` +
      Object.entries(LAZY_FOLDERS)
        .map(
          ([folder, when]) =>
            `dist/${folder} (${when}) ${pair((x) => x.lazy[folder]?.bytes ?? 0, kb)} in ` +
            `${pair((x) => x.lazy[folder]?.files ?? 0, String)} files`,
        )
        .join("; "),
  ];
  if (now.firstUse)
    lines.push(
      `first model use: registry built (pi-ai and its catalog of ${now.firstUse.models} models of ` +
        `${now.firstUse.providers} providers loaded, readiness checked) ${ms(now.firstUse.loadMs)}; first request to ` +
        `a local server (the openai SDK chunk loaded) ${ms(now.firstUse.firstRequestMs)}, second ${ms(now.firstUse.secondRequestMs)}`,
    );
  return lines;
}
