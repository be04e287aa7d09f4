/**
 * Runs the `git` CLI against one shadow repository as an asynchronous child process (the event loop is never
 * blocked). The environment is built from scratch for every command: every GIT_* variable of the caller is
 * dropped (a GIT_DIR inherited from a hook would point at the user's repository) and GIT_DIR, GIT_WORK_TREE and
 * GIT_INDEX_FILE name the shadow store, so git never discovers, reads or writes the user's own `.git`.
 */
import { spawn } from "node:child_process";
import { CheckpointAbortedError, CheckpointUnavailableError, GitCommandError } from "./errors.js";

/** Where the shadow repository lives and which folder it records. */
export interface GitLocation {
  /** The shadow repository (objects, refs, config). */
  gitDir: string;
  /** The workspace folder (git's work tree). */
  workTree: string;
  /** The shadow index (git's stat cache of the folder). */
  indexFile: string;
}

/** Options of one command. */
export interface GitRunOptions {
  /** Written to the command's stdin. */
  input?: string | Buffer;
  /** Kills the command (SIGTERM: git removes its lock files on that signal) and rejects. */
  signal?: AbortSignal;
  /** Exit codes that are not failures (default: 0). */
  okCodes?: readonly number[];
  /** Extra variables for this command only (e.g. a temporary index). */
  env?: Record<string, string>;
}

/** A finished command. */
export interface GitOutput {
  stdout: Buffer;
  exitCode: number;
}

/** How long to keep retrying while another process holds one of the shadow repository's lock files. */
const LOCK_RETRY_DELAYS_MS = [25, 50, 100, 200, 400, 800, 1600];

/** The variables every command gets, on top of the caller's environment without its GIT_* variables. */
export function isolatedGitEnv(base: NodeJS.ProcessEnv, location: GitLocation): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) if (!key.toUpperCase().startsWith("GIT_")) env[key] = value;
  return {
    ...env,
    GIT_DIR: location.gitDir,
    GIT_WORK_TREE: location.workTree,
    GIT_INDEX_FILE: location.indexFile,
    // The machine's system config could turn on filters, hooks or fsmonitor daemons; the user's global
    // config is still read (for core.excludesFile) and its risky keys are overridden in the shadow config.
    GIT_CONFIG_NOSYSTEM: "1",
    // Paths are passed as they are, never as patterns ("a*b.txt" means that one file).
    GIT_LITERAL_PATHSPECS: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: "Agent Tree",
    GIT_AUTHOR_EMAIL: "checkpoints@agent-tree.invalid",
    GIT_COMMITTER_NAME: "Agent Tree",
    GIT_COMMITTER_EMAIL: "checkpoints@agent-tree.invalid",
    // Messages are parsed (lock contention), so they must not be translated.
    LC_ALL: "C",
    LANGUAGE: "C",
  };
}

function isLockContention(stderr: string): boolean {
  return /\.lock'?: File exists|Unable to create '.*\.lock'/i.test(stderr);
}

/** Runs git commands for one shadow repository. */
export class GitRunner {
  private readonly env: NodeJS.ProcessEnv;

  /** The environment commands run with. */
  get environment(): Readonly<NodeJS.ProcessEnv> {
    return this.env;
  }

  constructor(
    readonly location: GitLocation,
    baseEnv: NodeJS.ProcessEnv = process.env,
    private readonly gitCommand = "git",
  ) {
    this.env = isolatedGitEnv(baseEnv, location);
  }

  /** Runs `git <args>`; rejects with GitCommandError on an unexpected exit code. Retries lock contention. */
  async run(args: readonly string[], options: GitRunOptions = {}): Promise<GitOutput> {
    for (let attempt = 0; ; attempt++) {
      const out = await this.once(args, options);
      const ok = (options.okCodes ?? [0]).includes(out.exitCode);
      if (ok) return { stdout: out.stdout, exitCode: out.exitCode };
      const delay = LOCK_RETRY_DELAYS_MS[attempt];
      if (delay === undefined || !isLockContention(out.stderr) || options.signal?.aborted)
        throw new GitCommandError(args, out.exitCode, out.stderr);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  /** `run` returning stdout as UTF-8 text without the final newline. */
  async text(args: readonly string[], options: GitRunOptions = {}): Promise<string> {
    return (await this.run(args, options)).stdout.toString("utf8").replace(/\n$/, "");
  }

  private once(
    args: readonly string[],
    options: GitRunOptions,
  ): Promise<{ stdout: Buffer; stderr: string; exitCode: number }> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new CheckpointAbortedError(`git ${args[0] ?? ""}`));
    return new Promise((resolve, reject) => {
      const child = spawn(this.gitCommand, [...args], {
        cwd: this.location.workTree,
        env: options.env ? { ...this.env, ...options.env } : this.env,
        stdio: ["pipe", "pipe", "pipe"],
        windowsHide: true,
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let aborted = false;
      const onAbort = (): void => {
        aborted = true;
        child.kill("SIGTERM");
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
      child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
      child.on("error", (error: NodeJS.ErrnoException) => {
        signal?.removeEventListener("abort", onAbort);
        if (error.code === "ENOENT")
          reject(
            new CheckpointUnavailableError(
              "no-git",
              "Files cannot follow the session tree: `git` was not found on this machine's PATH. Install git to turn checkpoints on.",
              this.location.workTree,
              { cause: error },
            ),
          );
        else reject(error);
      });
      child.on("close", (code) => {
        signal?.removeEventListener("abort", onAbort);
        if (aborted) return reject(new CheckpointAbortedError(`git ${args[0] ?? ""}`));
        resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8"), exitCode: code ?? -1 });
      });
      // A command that exits before reading its input must not crash us with EPIPE.
      child.stdin.on("error", () => undefined);
      child.stdin.end(options.input ?? "");
    });
  }
}

/** Splits NUL-terminated output into its records (the last, empty one dropped). */
export function splitNul(output: Buffer | string): string[] {
  const text = typeof output === "string" ? output : output.toString("utf8");
  if (text === "") return [];
  const parts = text.split("\0");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/** The oldest git this engine is known to work with. */
const MIN_GIT: readonly [number, number] = [2, 20];

/** Throws CheckpointUnavailableError "no-git" (from `run`) or "git-too-old". */
export async function checkGitVersion(git: GitRunner, folder: string): Promise<void> {
  const text = await git.text(["--version"]);
  const match = /(\d+)\.(\d+)/.exec(text);
  const major = Number(match?.[1] ?? 0);
  const minor = Number(match?.[2] ?? 0);
  if (major < MIN_GIT[0] || (major === MIN_GIT[0] && minor < MIN_GIT[1]))
    throw new CheckpointUnavailableError(
      "git-too-old",
      `Files cannot follow the session tree: ${text.trim()} is too old (${MIN_GIT.join(".")} or newer is needed).`,
      folder,
    );
}
