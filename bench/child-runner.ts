/**
 * Runs measuring children: bundles bench/child into one ESM file (with our store inside, so children start
 * from plain `node` like pi's do, without a TypeScript loader in their memory), spawns one fresh process per
 * measurement and restores the session file afterwards (appends and leaf markers are truncated away).
 */
import { execFile } from "node:child_process";
import { mkdirSync, rmSync, statSync, truncateSync } from "node:fs";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { readFloor } from "./child/floor.js";
import type { ChildConfig, ChildResult, Impl } from "./child/protocol.js";
import { BENCH_DIR, DATA_DIR } from "./paths.js";

/** The bundled child script. */
export const CHILD_BUNDLE = join(DATA_DIR, "child.mjs");
const PROFILE_DIR = join(DATA_DIR, "profiles");
const SCRATCH_DIR = join(DATA_DIR, "scratch");
/** A stuck child is killed after this long. */
const CHILD_TIMEOUT_MS = 5 * 60_000;

/** Bundles bench/child/measure-store.ts (and our session store) into bench/.data/child.mjs. */
export async function buildChild(): Promise<void> {
  await esbuild.build({
    entryPoints: [join(BENCH_DIR, "child", "measure-store.ts")],
    outfile: CHILD_BUNDLE,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    logLevel: "error",
    // Bundled CommonJS dependencies may call require().
    banner: { js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);' },
  });
}

/** One measurement request. */
export interface ChildRun {
  impl: Impl;
  /** The Node binary to run the child with (pi 1.5 and later need Node 22). */
  node: string;
  /** pi's session-manager.js, for the pi implementations. */
  piModule?: string;
  file: string;
  navTargets: string[];
  appends: number;
  cpuProf: boolean;
  /** Name used for the CPU profile file. */
  tag: string;
}

/** Spawns a fresh child, returns its result; the session file is truncated back to its size before the run. */
export async function runChild(run: ChildRun): Promise<ChildResult> {
  mkdirSync(SCRATCH_DIR, { recursive: true });
  const config: ChildConfig = {
    impl: run.impl,
    file: run.file,
    navTargets: run.navTargets,
    appends: run.appends,
    scratchDir: SCRATCH_DIR,
    piModule: run.piModule,
  };
  const nodeArgs: string[] = [];
  if (run.cpuProf && run.impl !== "floor") {
    mkdirSync(PROFILE_DIR, { recursive: true });
    nodeArgs.push("--cpu-prof", "--cpu-prof-dir", PROFILE_DIR, "--cpu-prof-name", `${run.tag}.cpuprofile`);
  }
  const sizeBefore = statSync(run.file).size;
  // This machine reclaims idle page cache (DAMON), so a big file read minutes ago may be on disk again.
  // Read it right before each child so every implementation starts from a warm cache.
  readFloor(run.file);
  try {
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        run.node,
        [...nodeArgs, CHILD_BUNDLE, JSON.stringify(config)],
        { timeout: CHILD_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
        (error, out, err) => {
          if (error) reject(new Error(`${run.tag}: child failed: ${error.message}\n${err.slice(-2000)}`));
          else resolve(out);
        },
      );
    });
    const line = stdout.trim().split("\n").pop() ?? "";
    return JSON.parse(line) as ChildResult;
  } finally {
    // Undo appends and leaf markers so every run opens the same file.
    if (statSync(run.file).size !== sizeBefore) truncateSync(run.file, sizeBefore);
    rmSync(SCRATCH_DIR, { recursive: true, force: true });
  }
}
