/**
 * The .vsix of this checkout's current build, for the end-to-end tests to install as users install the extension
 * (`code --install-extension`): vsce packs the bundles already in dist/ (built by `node esbuild.mjs`, with or
 * without `--tests`) the way `npm run package` packs its production build, and .vscodeignore decides what goes in.
 * Packed once per build: cached in .e2e/vsix/ under a hash of what goes in, so the suites of one run share it.
 * Small helper extensions (the demo's) are packed the same way.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

const ROOT = resolve(dirname(__filename), "..", "..");
const CACHE_DIR = join(ROOT, ".e2e", "vsix");
/** vsce on a busy 2-core machine. */
const PACK_TIMEOUT_MS = 3 * 60_000;

/**
 * The files .vscodeignore lets into the package (package.json, the README and its screenshots, CHANGELOG, LICENSE,
 * the top-level bundles of dist/, those loaded on first use in dist/pi-ai/ and dist/tools/, media/): a change to any
 * of them makes a new package.
 */
function packagedFiles(): string[] {
  const files = ["package.json", "README.md", "CHANGELOG.md", "LICENSE", "docs/screenshot.png", "docs/compare.png"];
  const dist = join(ROOT, "dist");
  for (const f of existsSync(dist) ? readdirSync(dist) : []) if (/\.(js|css|ttf)$/.test(f)) files.push(`dist/${f}`);
  const walk = (dir: string): void => {
    for (const f of readdirSync(join(ROOT, dir), { withFileTypes: true }))
      if (f.isDirectory()) walk(`${dir}/${f.name}`);
      else files.push(`${dir}/${f.name}`);
  };
  walk("media");
  // The ES module bundles loaded on first use, their chunks and wasm (.vscodeignore lets them in too), not their maps.
  const lazy = ["dist/pi-ai", "dist/tools"];
  for (const dir of lazy) if (existsSync(join(ROOT, dir))) walk(dir);
  const mapOfLazy = (f: string): boolean => lazy.some((d) => f.startsWith(`${d}/`)) && !/\.(mjs|wasm)$/.test(f);
  return files.filter((f) => existsSync(join(ROOT, f)) && !mapOfLazy(f)).sort();
}

/** Path of the .vsix of the current build, packed now unless an identical one is cached. */
export function currentBuildVsix(): string {
  if (!existsSync(join(ROOT, "dist", "extension.js")))
    throw new Error("dist/extension.js missing: build first (`node esbuild.mjs --tests`)");
  return packCached(ROOT, packagedFiles(), []);
}

/**
 * Path of a .vsix of the small extension in `folder` (every file of it goes in; e.g. the demo's helper extension),
 * packed now unless an identical one is cached.
 */
export function folderVsix(folder: string): string {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const f of readdirSync(join(folder, dir), { withFileTypes: true }))
      if (f.isDirectory()) walk(join(dir, f.name));
      else files.push(join(dir, f.name));
  };
  walk(".");
  // A helper extension has neither a repository nor a license file of its own.
  return packCached(folder, files.sort(), ["--allow-missing-repository", "--skip-license"]);
}

/** Packs the extension in `dir` with vsce unless a package of the same `files` (relative to it) is cached. */
function packCached(dir: string, files: string[], vsceArgs: string[]): string {
  const hash = createHash("sha256");
  for (const f of files)
    hash
      .update(f)
      .update("\0")
      .update(readFileSync(join(dir, f)));
  const key = hash.digest("hex").slice(0, 16);
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string; version: string };
  const name = `${manifest.name}-${manifest.version}-`;
  const vsix = join(CACHE_DIR, `${name}${key}.vsix`);
  if (existsSync(vsix) && statSync(vsix).size > 0) return vsix;

  mkdirSync(CACHE_DIR, { recursive: true });
  // Packed under a name of its own, then renamed: a concurrent run never sees half a file.
  const partial = `${vsix}.${process.pid}.partial.vsix`;
  const vsce = join(ROOT, "node_modules", "@vscode", "vsce", "vsce");
  const packed = spawnSync(
    process.execPath,
    [vsce, "package", "--no-dependencies", "--no-rewrite-relative-links", ...vsceArgs, "--out", partial],
    { cwd: dir, encoding: "utf8", timeout: PACK_TIMEOUT_MS, stdio: ["ignore", "pipe", "pipe"] },
  );
  if (packed.status !== 0 || !existsSync(partial)) {
    rmSync(partial, { force: true });
    throw new Error(`vsce package in ${dir} failed (exit ${packed.status}):\n${packed.stdout}${packed.stderr}`);
  }
  renameSync(partial, vsix);
  // Older packages of the same extension are of no further use.
  for (const f of readdirSync(CACHE_DIR))
    if (f.startsWith(name) && f !== basename(vsix) && !f.endsWith(".partial.vsix")) rmSync(join(CACHE_DIR, f));
  return vsix;
}
