/**
 * Keeps the shadow repository's ignore rules in step with the user's, and answers the questions that depend on
 * them: did any rule outside the folder change (the user's repository's rules, the global excludes file), which
 * recorded files are ignored now, which candidate empty folders are ignored.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { splitNul, type GitRunner } from "./git-runner.js";
import { collectOuterIgnoreRules } from "./ignore-rules.js";
import { writeIfChanged } from "./shadow-repo.js";

/** See the file comment; one per folder engine. */
export class IgnoreSync {
  /** The user's global excludes file and its size/time when last checked ("none" when missing). */
  private globalExcludes: string | undefined;
  private globalStamp: string | undefined;

  /** `ownRules`: the engine's own patterns (restore staging folders, a storage folder inside the folder). */
  constructor(
    private readonly git: GitRunner,
    private readonly folder: string,
    private readonly ownRules: string,
  ) {}

  /**
   * Writes the rules git cannot see on its own into the shadow repository's `info/exclude`; true when a rule
   * source outside the folder changed since the last call (always true for the first call).
   */
  async sync(): Promise<boolean> {
    const rules = (await collectOuterIgnoreRules(this.folder)) + this.ownRules;
    const written = await writeIfChanged(path.join(this.git.location.gitDir, "info", "exclude"), rules);
    this.globalExcludes ??= await this.globalExcludesFile();
    const st = await fs.stat(this.globalExcludes).catch(() => undefined);
    const stamp = st ? `${st.size}:${st.mtimeMs}` : "none";
    const changed = written || stamp !== this.globalStamp;
    this.globalStamp = stamp;
    return changed;
  }

  /** Recorded files that ignore rules now exclude (git keeps recording a file once it is in the index). */
  async recordedButIgnored(signal?: AbortSignal): Promise<string[]> {
    const args = ["ls-files", "-z", "--cached", "--ignored", "--exclude-standard"];
    return splitNul((await this.git.run(args, { signal })).stdout);
  }

  /** `dirs` minus the ignored ones; `known` were checked when recorded (the rules have not changed since). */
  async withoutIgnored(dirs: string[], known: readonly string[]): Promise<string[]> {
    const knownSet = new Set(known);
    const unknown = dirs.filter((d) => !knownSet.has(d));
    if (unknown.length === 0) return dirs;
    const input = unknown.map((d) => d + "\0").join("");
    // check-ignore takes paths, not pathspecs, and refuses the literal-pathspec setting.
    const env = { GIT_LITERAL_PATHSPECS: "0" };
    const out = await this.git.run(["check-ignore", "-z", "--stdin", "--no-index"], { input, env, okCodes: [0, 1] });
    const ignored = new Set(splitNul(out.stdout));
    return dirs.filter((d) => !ignored.has(d));
  }

  /** core.excludesFile, else git's default under XDG_CONFIG_HOME or ~/.config. */
  private async globalExcludesFile(): Promise<string> {
    const configured = await this.git.text(["config", "--path", "core.excludesFile"], { okCodes: [0, 1] });
    if (configured) return configured;
    const env = this.git.environment;
    const xdg = env.XDG_CONFIG_HOME || path.join(env.HOME ?? os.homedir(), ".config");
    return path.join(xdg, "git", "ignore");
  }
}
