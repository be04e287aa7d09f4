/**
 * Assembling the system prompt (printed by `npm run bench`; alone: `node --import tsx bench/prompt/measure-prompt.ts`):
 * a workspace 18 folders deep with an AGENTS.md in each and a Copilot file (20 instruction files) and 50 skills.
 * Times what runs before every model call — the options from the loader's cache and the sections built from them
 * — warm (cached; the target is ≤ 5 ms), cold (the first load) and after the watcher invalidated the cache.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { promptToolOf } from "../../src/core/agent/system-prompt-sync.js";
import { InstructionLoader } from "../../src/core/prompt/instruction-loader.js";
import { buildPromptSections } from "../../src/core/prompt/prompt-sections.js";
import { workspacePromptProvider } from "../../src/core/prompt/workspace-prompt.js";
import { createWorkspaceTools } from "../../src/core/tools/index.js";
import { printAlone } from "../print-alone.js";

/** The warm target (milliseconds). */
export const WARM_TARGET_MS = 5;

/** One measurement. */
export interface PromptMeasurement {
  instructionFiles: number;
  skills: number;
  promptChars: number;
  coldMs: number;
  warmMs: number;
  afterChangeMs: number;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Writes the workspace under `root`; returns the deepest folder (the workspace folder). */
function writeWorkspace(root: string, depth: number, skills: number): string {
  let dir = root;
  for (let i = 0; i < depth; i++) {
    writeFileSync(
      join(dir, "AGENTS.md"),
      `# Level ${i}\n\n${"- Keep functions small and named for what they do.\n".repeat(20)}`,
    );
    dir = join(dir, `level-${i}`);
    mkdirSync(dir);
  }
  writeFileSync(join(dir, "AGENTS.md"), "# The workspace\n\nRun the tests before you commit.\n");
  mkdirSync(join(dir, ".github"));
  writeFileSync(join(dir, ".github", "copilot-instructions.md"), "Prefer small commits.\n");
  for (let i = 0; i < skills; i++) {
    const skillDir = join(dir, ".pi", "skills", `skill-${i}`);
    mkdirSync(skillDir, { recursive: true });
    writeFileSync(
      join(skillDir, "SKILL.md"),
      `---\nname: skill-${i}\ndescription: Does task ${i} of the project's release process. Use when asked for task ${i}.\n---\n\n# Skill ${i}\n\n${"Step.\n".repeat(40)}`,
    );
  }
  return dir;
}

/** Measures `runs` warm assemblies (and a few cold and after-change ones). */
export async function measurePrompt(runs = 200): Promise<PromptMeasurement> {
  const root = join(tmpdir(), `agent-tree-bench-prompt-${process.pid}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  try {
    const ws = writeWorkspace(root, 18, 50);
    const agentDir = join(root, "agent");
    const tools = createWorkspaceTools(ws).map(promptToolOf);
    const loader = new InstructionLoader({ workspaceFolders: [ws], agentDir, trusted: true });
    const provider = workspacePromptProvider({ loader, append: () => "Answer in English." });
    const assemble = async (): Promise<number> =>
      Object.values(buildPromptSections(await provider(tools))).join("\n\n").length;

    const cold: number[] = [];
    const afterChange: number[] = [];
    let promptChars = 0;
    for (let i = 0; i < 5; i++) {
      const fresh = new InstructionLoader({ workspaceFolders: [ws], agentDir, trusted: true });
      const t = performance.now();
      promptChars = Object.values(buildPromptSections(await workspacePromptProvider({ loader: fresh })(tools))).join(
        "\n\n",
      ).length;
      cold.push(performance.now() - t);
    }
    await assemble();
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await assemble();
      warm.push(performance.now() - t);
    }
    for (let i = 0; i < 5; i++) {
      writeFileSync(join(ws, "AGENTS.md"), `# The workspace\n\nRun the tests before you commit (${i}).\n`);
      loader.invalidate(); // what the host's file watcher does
      const t = performance.now();
      await assemble();
      afterChange.push(performance.now() - t);
    }
    const loaded = await loader.load();
    return {
      instructionFiles: loaded.contextFiles.length,
      skills: loaded.skills.length,
      promptChars,
      coldMs: median(cold),
      warmMs: median(warm),
      afterChangeMs: median(afterChange),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The printed line. */
export function promptLine(m: PromptMeasurement): string {
  const verdict = m.warmMs <= WARM_TARGET_MS ? "PASS" : "MISS";
  return (
    `system prompt (${m.instructionFiles} instruction files, ${m.skills} skills, ${Math.round(m.promptChars / 1000)}k chars): ` +
    `warm ${m.warmMs.toFixed(2)} ms (target ≤ ${WARM_TARGET_MS} ms: ${verdict}), ` +
    `after a watched change ${m.afterChangeMs.toFixed(1)} ms, cold ${m.coldMs.toFixed(1)} ms`
  );
}

if (process.argv[1]?.endsWith("measure-prompt.ts")) printAlone(measurePrompt(), (m) => [promptLine(m)]);
