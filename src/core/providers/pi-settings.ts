/**
 * The model settings of pi's `settings.json` (pi 1.6 docs/settings.md): `defaultProvider`, `defaultModel`,
 * `defaultThinkingLevel`, `enabledModels` (pi's Ctrl+P cycle) and `compaction` (`enabled`, `reserveTokens`,
 * `keepRecentTokens`). pi reads the agent folder's file and, in a trusted project, `.pi/settings.json` over it;
 * so does `readPiSettings`. A bad field is named (file and field) and left out; the other fields still count.
 * `mergeModelSettings` lays VS Code's settings over them: what the user set in VS Code wins.
 */
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { compactionSettingsOf, type CompactionSettings } from "../compaction/settings.js";
import { getAgentDir } from "../session/paths.js";
import {
  FieldError,
  isRecord,
  optBoolean,
  optCount,
  optString,
  optStringList,
  type ConfigIssue,
} from "./json-check.js";
import { parseJsonWithComments } from "./pi-models-json.js";
import { THINKING_LEVELS, isThinkingLevel } from "./thinking-levels.js";
import type { ThinkingLevel } from "./types.js";
import { errorText } from "../error-text.js";

/** The model settings pi's settings.json may hold (each absent when not set). */
export interface PiModelSettings {
  defaultProvider?: string;
  defaultModel?: string;
  defaultThinkingLevel?: ThinkingLevel;
  /** Model patterns (exact ids, `provider/id`, globs, an optional `:<thinking>` suffix): see model-scope.ts. */
  enabledModels?: string[];
  compaction?: Partial<CompactionSettings>;
}

/** Settings files read, with their problems. */
export interface PiSettingsRead {
  settings: PiModelSettings;
  issues: ConfigIssue[];
  /** The files that exist and were read (for watching). */
  files: string[];
}

/** The model settings of one parsed settings.json. */
export function parsePiSettings(json: unknown, file: string): { settings: PiModelSettings; issues: ConfigIssue[] } {
  const issues: ConfigIssue[] = [];
  const settings: PiModelSettings = {};
  if (!isRecord(json)) return { settings, issues: [{ file, path: "", message: "must be a JSON object" }] };
  const field = (read: () => void): void => {
    try {
      read();
    } catch (e) {
      if (e instanceof FieldError) issues.push({ file, path: e.path, message: e.message });
      else throw e;
    }
  };
  field(() => {
    const v = optString(json, "defaultProvider", "");
    if (v !== undefined) settings.defaultProvider = v;
  });
  field(() => {
    const v = optString(json, "defaultModel", "");
    if (v !== undefined) settings.defaultModel = v;
  });
  field(() => {
    const v = json.defaultThinkingLevel;
    if (v === undefined) return;
    if (!isThinkingLevel(v))
      throw new FieldError("defaultThinkingLevel", `must be one of ${THINKING_LEVELS.join(", ")}`);
    settings.defaultThinkingLevel = v;
  });
  field(() => {
    const v = optStringList(json, "enabledModels", "");
    if (v !== undefined) settings.enabledModels = v;
  });
  if (json.compaction !== undefined) {
    if (!isRecord(json.compaction)) issues.push({ file, path: "compaction", message: "must be an object" });
    else {
      const c = json.compaction;
      const compaction: Partial<CompactionSettings> = {};
      field(() => {
        const v = optBoolean(c, "enabled", "compaction");
        if (v !== undefined) compaction.enabled = v;
      });
      for (const key of ["reserveTokens", "keepRecentTokens"] as const) {
        field(() => {
          const v = optCount(c, key, "compaction");
          if (v !== undefined) compaction[key] = v;
        });
      }
      if (Object.keys(compaction).length > 0) settings.compaction = compaction;
    }
  }
  return { settings, issues };
}

async function readOne(file: string, out: PiSettingsRead): Promise<PiModelSettings | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT")
      out.issues.push({ file, path: "", message: `cannot be read: ${errorText(e)}` });
    return undefined;
  }
  out.files.push(file);
  const parsed = parseJsonWithComments(text);
  if ("error" in parsed) {
    out.issues.push({ file, path: "", message: parsed.error });
    return undefined;
  }
  const { settings, issues } = parsePiSettings(parsed.json, file);
  out.issues.push(...issues);
  return settings;
}

/** Project settings over the agent folder's, as pi merges them (objects field by field, lists replaced). */
export function layerPiSettings(base: PiModelSettings, over: PiModelSettings): PiModelSettings {
  const out: PiModelSettings = { ...base, ...over };
  if (base.compaction || over.compaction) out.compaction = { ...base.compaction, ...over.compaction };
  return out;
}

/** Where pi's settings are. */
export interface PiSettingsPlaces {
  /** pi's agent folder (default `$PI_CODING_AGENT_DIR`, else `~/.pi/agent`). */
  agentDir?: string;
  /** The workspace folder: its `.pi/settings.json` is read over the agent folder's when `trusted`. */
  projectDir?: string;
  trusted?: boolean;
}

/** pi's model settings: the agent folder's settings.json, then (trusted) the project's `.pi/settings.json`. */
export async function readPiSettings(places: PiSettingsPlaces = {}): Promise<PiSettingsRead> {
  const out: PiSettingsRead = { settings: {}, issues: [], files: [] };
  const user = await readOne(path.join(places.agentDir ?? getAgentDir(), "settings.json"), out);
  let settings = user ?? {};
  if (places.projectDir && places.trusted) {
    const project = await readOne(path.join(places.projectDir, ".pi", "settings.json"), out);
    if (project) settings = layerPiSettings(settings, project);
  }
  out.settings = settings;
  return out;
}

/** The model settings VS Code holds; empty or absent values leave pi's in force. */
export interface VsCodeModelSettings {
  /** `agentTree.model`: `provider/id`. */
  model?: string;
  thinkingLevel?: ThinkingLevel;
  enabledModels?: readonly string[];
  compaction?: Partial<CompactionSettings>;
}

/** Where an effective value came from. */
export type SettingSource = "vscode" | "pi" | "default";

/** The settings in force, each with where it came from. */
export interface EffectiveModelSettings {
  /** The model to start with (`provider`/`id`), if any is configured. */
  defaultModel?: { provider: string; id: string; source: Exclude<SettingSource, "default"> };
  defaultThinkingLevel?: { level: ThinkingLevel; source: Exclude<SettingSource, "default"> };
  /** Patterns of the short list ("Agent: Next Model"), if any is configured. */
  enabledModels?: { patterns: string[]; source: Exclude<SettingSource, "default"> };
  compaction: CompactionSettings;
}

/** `provider/id` split at the first "/" (ids may hold slashes, providers do not). */
function splitModelKey(key: string): { provider: string; id: string } | undefined {
  const i = key.indexOf("/");
  if (i <= 0 || i === key.length - 1) return undefined;
  return { provider: key.slice(0, i), id: key.slice(i + 1) };
}

/**
 * VS Code's values over pi's: a value set in VS Code wins, pi's settings.json fills in the rest, pi's defaults
 * the remainder (compaction). `defaultProvider`/`defaultModel` count only together, as in pi.
 */
export function mergeModelSettings(pi: PiModelSettings, vscode: VsCodeModelSettings = {}): EffectiveModelSettings {
  const out: EffectiveModelSettings = {
    compaction: compactionSettingsOf(pi.compaction, vscode.compaction),
  };
  const fromVsCode = vscode.model?.trim() ? splitModelKey(vscode.model.trim()) : undefined;
  if (fromVsCode) out.defaultModel = { ...fromVsCode, source: "vscode" };
  else if (pi.defaultProvider && pi.defaultModel)
    out.defaultModel = { provider: pi.defaultProvider, id: pi.defaultModel, source: "pi" };
  if (vscode.thinkingLevel) out.defaultThinkingLevel = { level: vscode.thinkingLevel, source: "vscode" };
  else if (pi.defaultThinkingLevel) out.defaultThinkingLevel = { level: pi.defaultThinkingLevel, source: "pi" };
  if (vscode.enabledModels && vscode.enabledModels.length > 0)
    out.enabledModels = { patterns: [...vscode.enabledModels], source: "vscode" };
  else if (pi.enabledModels && pi.enabledModels.length > 0)
    out.enabledModels = { patterns: [...pi.enabledModels], source: "pi" };
  return out;
}
