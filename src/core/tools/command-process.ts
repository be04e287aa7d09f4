/**
 * Starts a shell command so that neither its environment nor its parent's holds the host's keys.
 *
 * A command can read the *start-up* environment of any ancestor through `/proc/<pid>/environ`, and the
 * extension host's holds whatever VS Code was started with. So the command is not a child of the host: the host
 * starts `setsid -f sh`, whose forked child becomes a new session and process group, loses its parent (it is
 * re-parented to init or the nearest subreaper) and runs the command as its own child. The chain is then
 * command → helper `sh` (started with the key-free environment) → init. The helper reports its pid (= the process
 * group to kill) and the command's exit status on file descriptor 3, which the command itself does not inherit.
 * Without `setsid` (not Linux) the helper is a direct child of the host, so only the parent's environment is clean.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import type { Readable } from "node:stream";

/** `$1` is the shell, `$2` the command. `3>&-`: the command cannot write a fake status. */
const HELPER_SCRIPT = 'echo "$$" >&3; "$1" -c "$2" 3>&-; echo "$?" >&3';

/**
 * Under `setsid -f`, the helper can start before its first parent (`setsid`, a child of the host) has exited;
 * until then the host is still an ancestor of the command. So the helper first waits, without forking (`read`
 * is a builtin), until it has been re-parented (field 4 of /proc/$$/stat is no longer the first parent's pid),
 * for at most about two seconds.
 */
const REPARENTED_HELPER_SCRIPT =
  "first=$PPID; sh_=$1; cmd_=$2; i=0; while [ $i -lt 200 ]; do read -r st < /proc/$$/stat || break; " +
  'st=${st##*) }; set -- $st; [ "$2" != "$first" ] && break; i=$((i + 1)); sleep 0.01; done; ' +
  'set -- "$sh_" "$cmd_"; ' +
  HELPER_SCRIPT;

const SETSID = ["/usr/bin/setsid", "/bin/setsid"].find((p) => existsSync(p));

/** The shell the command runs in (also inside the sandbox, sandbox.ts). */
export function shell(): string {
  return existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
}

/** A running command. */
export interface CommandProcess {
  stdout: Readable;
  stderr: Readable;
  /** Kills the command and everything it started (its process group); also before the group is known. */
  kill(): void;
  /**
   * Settles once the command, the helper and every process holding their output are gone: the exit status
   * (`128 + n` for a signal, as shells report it), or null when none was reported (killed). Rejects when the
   * helper could not be started.
   */
  exited: Promise<number | null>;
}

/** Runs `command` in `cwd` with exactly `env` (see the file comment). */
export function startCommand(command: string, cwd: string, env: NodeJS.ProcessEnv): CommandProcess {
  const rest = ["agent-tree-helper", shell(), command];
  const child: ChildProcess = SETSID
    ? spawn(SETSID, ["-f", "/bin/sh", "-c", REPARENTED_HELPER_SCRIPT, ...rest], {
        cwd,
        env,
        stdio: ["ignore", "pipe", "pipe", "pipe"],
      })
    : spawn("/bin/sh", ["-c", HELPER_SCRIPT, ...rest], {
        cwd,
        env,
        detached: true,
        stdio: ["ignore", "pipe", "pipe", "pipe"],
      });
  const report = child.stdio[3] as Readable;
  let reported = "";
  let group: number | undefined;
  let killRequested = false;
  const killGroup = (): void => {
    if (group === undefined) return;
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // already gone
    }
  };
  report.setEncoding("utf8");
  report.on("data", (s: string) => {
    reported += s;
    if (group === undefined && reported.includes("\n")) {
      group = Number(reported.slice(0, reported.indexOf("\n")));
      if (killRequested) killGroup();
    }
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", () => {
      const status = reported.split("\n")[1];
      resolve(status && /^\d+$/.test(status) ? Number(status) : null);
    });
  });
  return {
    stdout: child.stdout as Readable,
    stderr: child.stderr as Readable,
    kill: () => {
      killRequested = true;
      killGroup();
    },
    exited,
  };
}
