/**
 * Loads the project's instructions (docs/system-prompt.md) — context files, SYSTEM.md / APPEND_SYSTEM.md, skills —
 * and keeps the result until invalidate() is called (the host calls it when a watched file changes), so building
 * the prompt before each model call reads nothing from the disk.
 */
import * as os from "node:os";
import * as path from "node:path";
import {
  COPILOT_INSTRUCTIONS,
  CONTEXT_FILE_NAMES,
  DEFAULT_MAX_INSTRUCTION_BYTES,
  PROJECT_CONFIG_DIR,
  agentsSkillDirs,
  contextFolders,
  readInstructionFile,
  type FileScope,
  type InstructionIssue,
} from "./instruction-files.js";
import type { ContextFile, SkillInfo } from "./prompt-options.js";
import { scanSkillsDir } from "./skills.js";

/** Where to look. */
export interface InstructionSources {
  /** The workspace folders; the first is the agent's working folder. */
  workspaceFolders: string[];
  /** pi's agent folder (getAgentDir()). */
  agentDir: string;
  /**
   * Workspace Trust: false leaves out the workspace's `.pi/` files and its skills, and any instruction file of the
   * workspace (or its parents) reached through a link.
   */
  trusted: boolean;
  /** The home folder, where the `.agents/skills` climb stops (default: os.homedir()). */
  homeDir?: string;
  /** Cap per file (default 64 KiB). */
  maxFileBytes?: number;
}

/** What was found. */
export interface LoadedInstructions {
  contextFiles: ContextFile[];
  /** SYSTEM.md's text (the project's wins over the agent folder's). */
  customPrompt?: string;
  /** APPEND_SYSTEM.md's text (the project's wins over the agent folder's). */
  appendSystemPrompt?: string;
  skills: SkillInfo[];
  /** Files skipped: too large, unreadable, a skill without description or with a duplicate name. */
  issues: InstructionIssue[];
  /** True when workspace files were left out because the workspace is not trusted. */
  restrictedByTrust: boolean;
  /** Every file whose change can change this result, present or not (what the host watches). */
  watchFiles: string[];
  /** The skills folders looked into, present or not (the host watches the SKILL.md files below them). */
  skillFolders: string[];
  /** How each listed skill's SKILL.md is read again (`/skill:name`), by its path: as the scan read it. */
  skillScopes: Record<string, FileScope>;
}

/** See the file comment. */
export class InstructionLoader {
  private sources: InstructionSources;
  private cached: Promise<LoadedInstructions> | undefined;
  private generation = 0;

  constructor(sources: InstructionSources) {
    this.sources = { ...sources, workspaceFolders: [...sources.workspaceFolders] };
  }

  /** The sources in use. */
  getSources(): InstructionSources {
    return { ...this.sources, workspaceFolders: [...this.sources.workspaceFolders] };
  }

  /** Changes where to look (trust granted, folders added) and forgets the cached result. */
  setSources(change: Partial<InstructionSources>): void {
    this.sources = { ...this.sources, ...change };
    this.invalidate();
  }

  /** Forgets the cached result: the next load() reads the files again. */
  invalidate(): void {
    this.generation++;
    this.cached = undefined;
  }

  /** The instructions, from the cache when nothing changed since the last load. */
  load(): Promise<LoadedInstructions> {
    if (this.cached) return this.cached;
    const generation = this.generation;
    const loading = loadInstructions(this.sources);
    this.cached = loading;
    // A failure is not cached: the next request tries again.
    loading.catch(() => {
      if (this.generation === generation) this.cached = undefined;
    });
    return loading;
  }
}

/** Reads everything once, without caching (InstructionLoader caches). */
export async function loadInstructions(sources: InstructionSources): Promise<LoadedInstructions> {
  const maxBytes = sources.maxFileBytes ?? DEFAULT_MAX_INSTRUCTION_BYTES;
  const issues: InstructionIssue[] = [];
  const watchFiles: string[] = [];
  const folders = sources.workspaceFolders.map((f) => path.resolve(f));
  const cwd = folders[0];

  const agentDir = path.resolve(sources.agentDir);
  // A file the workspace brings is read through the path guard, rooted at the folder it belongs to (a workspace
  // folder, or the parent whose context file it is); pi's agent folder is the user's own (guarded-files.ts).
  const scopeOf = (root: string): FileScope =>
    root === agentDir ? {} : { root, ...(sources.trusted ? {} : { noLinks: true }) };

  const contextFiles: ContextFile[] = [];
  for (const dir of contextFolders(agentDir, folders)) {
    for (const name of CONTEXT_FILE_NAMES) {
      const file = path.join(dir, name);
      watchFiles.push(file);
      const read = await readInstructionFile(file, maxBytes, scopeOf(dir));
      if (read.kind === "absent") continue;
      if (read.kind === "issue") issues.push(read.issue);
      else contextFiles.push({ path: file, content: read.text });
      // The first file that exists is the folder's, even when it had to be skipped.
      break;
    }
  }
  for (const dir of folders) {
    const file = path.join(dir, COPILOT_INSTRUCTIONS);
    watchFiles.push(file);
    const read = await readInstructionFile(file, maxBytes, scopeOf(dir));
    if (read.kind === "issue") issues.push(read.issue);
    else if (read.kind === "text") contextFiles.push({ path: file, content: read.text });
  }

  /** The project's file when trusted and present, else the agent folder's. */
  const firstOf = async (name: string): Promise<string | undefined> => {
    const candidates = [
      ...(sources.trusted && cwd ? [{ file: path.join(cwd, PROJECT_CONFIG_DIR, name), scope: scopeOf(cwd) }] : []),
      { file: path.join(agentDir, name), scope: {} },
    ];
    for (const { file, scope } of candidates) {
      watchFiles.push(file);
      const read = await readInstructionFile(file, maxBytes, scope);
      if (read.kind === "issue") issues.push(read.issue);
      if (read.kind === "text") return read.text.trim();
    }
    return undefined;
  };
  const customPrompt = await firstOf("SYSTEM.md");
  const appendSystemPrompt = await firstOf("APPEND_SYSTEM.md");

  const skillDirs: { dir: string; scope: FileScope; kind: "user" | "project" }[] = [
    { dir: path.join(agentDir, "skills"), scope: {}, kind: "user" },
  ];
  if (sources.trusted && cwd) {
    const project = (dir: string, root: string): (typeof skillDirs)[number] => ({
      dir,
      scope: scopeOf(root),
      kind: "project",
    });
    skillDirs.push(
      project(path.join(cwd, PROJECT_CONFIG_DIR, "skills"), cwd),
      // Each `.agents/skills` is rooted at the folder holding `.agents`.
      ...(await agentsSkillDirs(cwd, sources.homeDir ?? os.homedir())).map((d) =>
        project(d, path.dirname(path.dirname(d))),
      ),
      project(path.join(cwd, ".claude", "skills"), cwd),
    );
  }
  const skills: SkillInfo[] = [];
  const skillScopes: Record<string, FileScope> = {};
  const byName = new Map<string, SkillInfo>();
  for (const { dir, scope, kind } of skillDirs) {
    const scan = await scanSkillsDir(dir, maxBytes, scope);
    issues.push(...scan.issues);
    for (const found of scan.skills) {
      const skill: SkillInfo = { ...found, scope: kind };
      const first = byName.get(skill.name);
      if (first) {
        issues.push({
          path: skill.filePath,
          message: `Skipped skill ${skill.filePath}: the name "${skill.name}" is taken by ${first.filePath}`,
        });
        continue;
      }
      byName.set(skill.name, skill);
      skills.push(skill);
      skillScopes[skill.filePath] = scope;
    }
  }

  const restrictedByTrust = !sources.trusted;
  return {
    contextFiles,
    ...(customPrompt ? { customPrompt } : {}),
    ...(appendSystemPrompt ? { appendSystemPrompt } : {}),
    skills,
    issues,
    restrictedByTrust,
    watchFiles,
    skillFolders: skillDirs.map((d) => d.dir),
    skillScopes,
  };
}
