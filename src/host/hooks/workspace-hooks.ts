/**
 * Workspace hook files: `.agent-tree/hooks/*.js` in a workspace folder, loaded with require() and
 * called with the hook API (their default export, or module.exports when it is a function). Code
 * from the workspace runs only when the workspace is trusted.
 */
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import type { HookAPI } from "../../core/hooks/types.js";
import { errorText } from "../../core/error-text.js";

/** Where hook files live, relative to a workspace folder. */
export const HOOKS_DIR = path.join(".agent-tree", "hooks");

/** Result of loading one folder's hooks. */
export interface HookLoadReport {
  loaded: string[];
  failed: { file: string; error: string }[];
  /** Set when loading was skipped entirely (untrusted workspace, setting off). */
  skipped?: string;
}

/** The hook files of a folder, sorted so load order is stable. */
export function findHookFiles(folder: string): string[] {
  const dir = path.join(folder, HOOKS_DIR);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith(".js") || n.endsWith(".cjs"))
    .sort()
    .map((n) => path.join(dir, n));
}

/** The function a hook module exports, if any. */
function hookFunction(mod: unknown): ((api: HookAPI) => unknown) | undefined {
  if (typeof mod === "function") return mod as (api: HookAPI) => unknown;
  const def = (mod as { default?: unknown } | null)?.default;
  return typeof def === "function" ? (def as (api: HookAPI) => unknown) : undefined;
}

/**
 * Load every hook file of `folder` if `trusted`. A failing file is reported and the others still
 * load. Async results of the hook functions are awaited so their errors are reported too.
 */
export async function loadWorkspaceHooks(folder: string, api: HookAPI, trusted: boolean): Promise<HookLoadReport> {
  const files = findHookFiles(folder);
  if (!trusted) return { loaded: [], failed: [], skipped: files.length ? "workspace is not trusted" : undefined };
  const report: HookLoadReport = { loaded: [], failed: [] };
  for (const file of files) {
    try {
      const mod: unknown = createRequire(file)(file);
      const fn = hookFunction(mod);
      if (!fn) throw new Error("the file exports no function (export a default function (api) => { … })");
      await fn(api);
      report.loaded.push(file);
    } catch (e) {
      report.failed.push({ file, error: errorText(e) });
    }
  }
  return report;
}
