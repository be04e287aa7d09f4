/**
 * Starts a shell command, or a server (an MCP stdio server), so that neither its environment nor its parent's holds
 * the host's keys.
 *
 * A command can read the *start-up* environment of any ancestor through `/proc/<pid>/environ`, and the
 * extension host's holds whatever VS Code was started with. So the command is not a child of the host: the host
 * starts `setsid -f sh`, whose forked child becomes a new session and process group, loses its parent (it is
 * re-parented to init or the nearest subreaper) and runs the command as its own child. The chain is then
 * command → helper `sh` (started with the key-free environment) → init; the helper starts the command only once
 * `setsid` has exited (see DETACHED_HELPER_SCRIPT), which is at once in the usual case. The helper reports its pid
 * (= the process group to kill) and the command's exit status on file descriptor 3, which the command itself does
 * not inherit. A server is started the same way, except that the helper keeps its stdin for the server and becomes
 * it (`exec`): the chain is server → init, and the server's pid is its process group's (startServer).
 * Without `setsid` (not Linux) a command's helper is a direct child of the host, so only the parent's environment is
 * clean; a server is not started here at all (its caller starts it as a child, as before).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import type { Readable, Writable } from "node:stream";

/** `$1` is the shell, `$2` the command. `3>&-`: the command cannot write a fake status. */
const HELPER_SCRIPT = 'echo "$$" >&3; "$1" -c "$2" 3>&-; echo "$?" >&3';

/**
 * A server's helper becomes the server (`exec`): the server's pid is the process group's, and its stdin is the
 * helper's (by then the caller's pipe, see DETACHED_HELPER_SCRIPT). No status is reported.
 */
const SERVE_SCRIPT = 'echo "$$" >&3; exec "$1" -c "$2" 3>&-';

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
 * check forks nothing. Without a starter pid, or if `setsid` is still the parent after the bound, the command is
 * not run: a line on stderr and status 126.
 *
 * `$1` is the shell, `$2` the command, `$3` "serve" for a server (startServer): then the command's stdin is the
 * helper's fd 4 (the caller's pipe) and the helper becomes it (SERVE_SCRIPT); otherwise its stdin is /dev/null and its
 * status is reported (HELPER_SCRIPT). Not the helper's own stdin: Node destroys a child's stdin when the child
 * exits, and the child here is `setsid`, which exits at once.
 */
export const DETACHED_HELPER_SCRIPT =
  'refuse_() { echo "agent-tree: command not started: $1" >&2; echo "$$" >&3; echo 126 >&3; exit 126; }; ' +
  'read -r starter_; case "$starter_" in ""|*[!0-9]*) refuse_ "no starter pid on stdin";; esac; ' +
  'sh_=$1; cmd_=$2; mode_=$3; if [ "$mode_" = serve ]; then exec <&4 4<&-; else exec </dev/null; fi; i=0; ' +
  "while read -r st < /proc/$$/stat; do st=${st##*) }; set -- $st; " +
  '[ "$2" = "$starter_" ] || break; ' +
  `[ $i -lt ${DETACH_WAIT_ROUNDS} ] || refuse_ "its helper was still a child of the editor after ~5 s"; ` +
  "i=$((i + 1)); sleep 0.01; done; " +
  'set -- "$sh_" "$cmd_"; ' +
  `if [ "$mode_" = serve ]; then ${SERVE_SCRIPT}; else ${HELPER_SCRIPT}; fi`;

const SETSID = ["/usr/bin/setsid", "/bin/setsid"].find((p) => existsSync(p));

/** The shell the command runs in (also inside the sandbox, sandbox.ts). */
export function shell(): string {
  return existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
}

/** `s` as one word of a POSIX shell command line. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** True where commands and servers start away from the host (`setsid` exists: Linux); see the file comment. */
export function canDetach(): boolean {
  return SETSID !== undefined;
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

/** A helper started, for a command or a server. */
interface Helper {
  child: ChildProcess;
  /** The helper's pid (= its process group) once it reported it; undefined when it ended or failed without. */
  group: Promise<number | undefined>;
  /** SIGKILL to the process group, now or as soon as the group is known. */
  kill(): void;
  /** The lines the helper reported on fd 3 so far: its pid, then (a command) the command's status. */
  reported(): string[];
}

/** Starts the helper that runs `command` (see the file comment); "serve": DETACHED_HELPER_SCRIPT's server mode. */
function startHelper(command: string, cwd: string, env: NodeJS.ProcessEnv, mode: "command" | "serve"): Helper {
  // A server's command line (every word quoted, startServer) runs under /bin/sh, not bash: bash runs ~/.bashrc when
  // its stdin is a socket (it takes that for rshd), and a server's stdin is one (Node's pipes are socket pairs).
  const rest =
    mode === "serve" ? ["agent-tree-helper", "/bin/sh", command, "serve"] : ["agent-tree-helper", shell(), command];
  const child: ChildProcess = SETSID
    ? spawn(SETSID, ["-f", "/bin/sh", "-c", DETACHED_HELPER_SCRIPT, ...rest], {
        cwd,
        env,
        // fd 4: a server's stdin (see DETACHED_HELPER_SCRIPT).
        stdio: ["pipe", "pipe", "pipe", "pipe", ...(mode === "serve" ? (["pipe"] as const) : [])],
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
  let settleGroup: (g: number | undefined) => void = () => undefined;
  const groupKnown = new Promise<number | undefined>((resolve) => (settleGroup = resolve));
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
      settleGroup(group);
      if (killRequested) killGroup();
    }
  });
  child.on("error", () => settleGroup(undefined));
  child.on("close", () => settleGroup(undefined));
  return {
    child,
    group: groupKnown,
    kill: () => {
      killRequested = true;
      killGroup();
    },
    reported: () => reported.split("\n"),
  };
}

/** Runs `command` in `cwd` with exactly `env` (see the file comment). */
export function startCommand(command: string, cwd: string, env: NodeJS.ProcessEnv): CommandProcess {
  const { child, kill, reported } = startHelper(command, cwd, env, "command");
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", () => {
      const status = reported()[1];
      resolve(status && /^\d+$/.test(status) ? Number(status) : null);
    });
  });
  return { stdout: child.stdout as Readable, stderr: child.stderr as Readable, kill, exited };
}

/** A running server (startServer). */
export interface ServerProcess {
  /** The server's stdin. */
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
  /**
   * The server's pid, which is also its process group's (the helper became the server), once the helper reported
   * it; rejects when the helper could not be started.
   */
  pid: Promise<number>;
  /** Kills the server's process group (SIGKILL); also before the pid is known. */
  kill(): void;
  /** Settles once the server and every process holding its stdout or stderr are gone. */
  closed: Promise<void>;
}

/**
 * Runs the program `argv` in `cwd` with exactly `env` as a server talked to over its stdin and stdout, started as
 * commands are (see the file comment) where `canDetach()`: its parent is init or a subreaper, never this process, and
 * it leads a process group of its own, so `process.kill(-pid, …)` reaches everything it started that stayed in it.
 * Where `setsid` is missing this throws: the caller starts the server its own way (as a child).
 */
export function startServer(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): ServerProcess {
  if (!canDetach()) throw new Error("starting a server away from this process needs setsid (Linux)");
  const { child, group, kill } = startHelper(`exec ${argv.map(shellQuote).join(" ")}`, cwd, env, "serve");
  const pid = new Promise<number>((resolve, reject) => {
    child.on("error", reject);
    void group.then((g) => (g === undefined ? reject(new Error("its helper ended before starting it")) : resolve(g)));
  });
  // Settled by the caller's await; kept from being an unhandled rejection when the caller only reads `closed`.
  pid.catch(() => undefined);
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return {
    stdin: child.stdio[4] as Writable,
    stdout: child.stdout as Readable,
    stderr: child.stderr as Readable,
    pid,
    kill,
    closed,
  };
}
