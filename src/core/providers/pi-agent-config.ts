/**
 * pi's model setup in its agent folder (`$PI_CODING_AGENT_DIR`, else `~/.pi/agent`): `models.json` (custom
 * providers and models) and `settings.json` (default model and thinking level, the short list, compaction), read
 * together so the host can load, watch and report them in one place.
 */
import * as path from "node:path";
import { getAgentDir } from "../session/paths.js";
import type { ConfigIssue } from "./json-check.js";
import { readPiModelsJson, type PiModelsConfig } from "./pi-models-json.js";
import { readPiSettings, type PiModelSettings } from "./pi-settings.js";

/** What pi's files say, with their problems and the files to watch. */
export interface PiAgentConfig {
  /** models.json, for `ModelRegistry.create({ piModels })` / `setPiModels`. */
  models: { config: PiModelsConfig; file: string };
  settings: PiModelSettings;
  /** Every problem, each naming its file and field; what is not named loaded. */
  issues: ConfigIssue[];
  /** models.json and the settings files (whether or not they exist yet). */
  watch: string[];
}

/** Where to read. */
export interface PiAgentPlaces {
  agentDir?: string;
  /** The workspace folder, for its `.pi/settings.json` (read only when `trusted`). */
  projectDir?: string;
  trusted?: boolean;
}

/** Reads models.json and settings.json (see the file comment). Never throws for a missing or broken file. */
export async function readPiAgentConfig(places: PiAgentPlaces = {}): Promise<PiAgentConfig> {
  const agentDir = places.agentDir ?? getAgentDir();
  const modelsFile = path.join(agentDir, "models.json");
  const [models, settings] = await Promise.all([
    readPiModelsJson(modelsFile),
    readPiSettings({ agentDir, projectDir: places.projectDir, trusted: places.trusted }),
  ]);
  const watch = [modelsFile, path.join(agentDir, "settings.json")];
  if (places.projectDir && places.trusted) watch.push(path.join(places.projectDir, ".pi", "settings.json"));
  return {
    models: { config: models.config, file: modelsFile },
    settings: settings.settings,
    issues: [...models.issues, ...settings.issues],
    watch,
  };
}
