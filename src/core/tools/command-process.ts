/**
 * Starts a shell command so that neither its environment nor its parent's holds the host's keys.
 *
 * A command can read the *start-up* environment of any ancestor through `/proc/<pid>/environ`, and the
 * extension host's holds whatever VS Code was started with. So the command is not a child of the host: the host
 * starts `setsid -f sh`, whose forked child becomes a new session and process group, loses its parent (it is
 * re-parented to init or the nearest subreaper) and runs the command as its own child. The chain is then
 * command → helper `sh` (started with the key-free environment) → init; the helper starts the command only once
 * `setsid` has exited (see DETACHED_HELPER_SCRIPT), which is at once in the usual case. The helper reports its pid (= the process
 * group to kill) and the command's exit status on file descriptor 3, which the command itself does not inherit.
 * Without `setsid` (not Linux) the helper is a direct child of the host, so only the parent's environment is clean.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import type { Readable } from "node:stream";

/** `$1` is the shell, `$2` the command. `3>&-`: the command cannot write a fake status. */
const HELPER_SCRIPT = 'echo "$$" >&3; "$1" -c "$2" 3>&-; echo "$?" >&3';

/** Wait rounds of 10 ms (about five seconds) for `setsid` to exit before the helper gives up. */
export const DETACH_WAIT_ROUNDS = 500;

/**
 * The helper under `setsid -f` (exported for its tests). `setsid` forks the helper and exits; until it has exited
 * the host is still an ancestor, so the helper waits while its parent (field 4 of /proc/$$/stat) is `setsid`.
 *
 * `setsid`'s pid comes on stdin (the host writes `child.pid`), not from `$PPID`: when `setsid` has exited before
 * the helper's shell starts (the usual case), `$PPID` already is the new parent, and waiting for it to change
 * waited the full bound on every command. A re-parented process never gets `setsid`'s pid back as its parent (it
 * goes to init or a subreaper, both older than `setsid`), so "parent = starter" is exact both ways: no wait once
 * re-parented, no start before. Comparing the grandparent with the host's pid would also work, but reads another
 * process's stat (whose name may contain ") ") and a reused pid can stall it a round. `read` is a builtin, so a
 * check forks nothing; the command's stdin is /dev/null, as before. Without a starter pid, or if `setsid` is
 * still the parent after the bound, the command is not run: a line on stderr and status 126.
 */
export const DETACHED_HELPER_SCRIPT =
  'refuse_() { echo "agent-tree: command not started: $1" >&2; echo "$$" >&3; echo 126 >&3; exit 126; }; ' +
  'read -r starter_; case "$starter_" in ""|*[!0-9]*) refuse_ "no starter pid on stdin";; esac; ' +
  "exec </dev/null; sh_=$1; cmd_=$2; i=0; " +
  "while read -r st < /proc/$$/stat; do st=${st##*) }; set -- $st; " +
  '[ "$2" = "$starter_" ] || break; ' +
  `[ $i -lt ${DETACH_WAIT_ROUNDS} ] || refuse_ "its helper was still a child of the editor after ~5 s"; ` +
  "i=$((i + 1)); sleep 0.01; done; " +
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
    ? spawn(SETSID, ["-f", "/bin/sh", "-c", DETACHED_HELPER_SCRIPT, ...rest], {
        cwd,
        env,
        stdio: ["pipe", "pipe", "pipe", "pipe"],
      })
    : spawn("/bin/sh", ["-c", HELPER_SCRIPT, ...rest], {
        cwd,
        env,
        detached: true,
        stdio: ["ignore", "pipe", "pipe", "pipe"],
      });
  if (child.stdin) {
    // `setsid`'s pid for the helper's wait (see DETACHED_HELPER_SCRIPT); no pid when the spawn failed ("error").
    // A helper gone before reading it (killed) makes this fail with EPIPE, which changes nothing.
    child.stdin.on("error", () => undefined);
    child.stdin.end(child.pid === undefined ? "" : `${child.pid}\n`);
  }
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
