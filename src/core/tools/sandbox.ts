/**
 * A sandbox for `bash` commands (docs/parallel.md, "The sandbox"): bubblewrap (`bwrap`) on Linux, where the machine
 * has it and it works (user namespaces may be restricted; `findSandbox` tries it once).
 *
 * What a sandboxed command sees: the folders it may write (a branch's copy, or the workspace), read-write; the
 * system folders (`/usr`, `/bin`, `/lib*`, `/etc`, `/opt`, `/nix`…), the folders on its PATH and the folders the
 * user listed, read-only; a private, empty `/tmp` and home folder; fresh `/dev` and `/proc` (its own processes
 * only); nothing else — not the user's home, not the extension's storage (sessions, the checkpoint store, the other
 * copies), not `/run` (the Docker and D-Bus sockets), and not the folders it must not see (the real workspace, for
 * a branch), which are covered by an empty folder where a read-only folder would show them. It has no network
 * (its own network namespace with only a loopback device of its own) unless allowed, and no capabilities.
 *
 * How it runs: the command becomes `exec bwrap … -- <shell> -c <command>` (quoted), given to command-process.ts
 * as the command. So the chain stays command → bwrap → helper `sh` → init: the extension host is never an ancestor
 * (command-process.ts's file comment), and inside, `/proc` shows only the sandbox's own processes. bwrap stays in
 * the helper's process group (no `--new-session`: the helper is in a session of its own without a terminal, so
 * there is no terminal to inject into), so killing the group kills the sandbox; `--die-with-parent` and the pid
 * namespace take down anything that left the group when bwrap dies.
 */
import { spawn } from "node:child_process";
import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { shell, shellQuote } from "./command-process.js";

/** What a sandboxed command may see and do. */
export interface SandboxPolicy {
  /** Folders the command may change (its working folder among them). */
  writable: readonly string[];
  /** Folders it must not see, even where a read-only folder holds them (a branch: the real workspace). */
  hidden?: readonly string[];
  /** More folders it may read (read-only), e.g. a tool chain under the home folder. */
  readOnly?: readonly string[];
  /** True: the machine's network (and its abstract Unix sockets); false: none. */
  network: boolean;
}

/** How a `bash` tool runs its commands: in a sandbox, or not at all (the user asked for one that is missing). */
export type CommandSandbox =
  | { kind: "bubblewrap"; bwrap: string; policy: SandboxPolicy }
  /** Every command is refused with this reason (never run outside the sandbox the user asked for). */
  | { kind: "refused"; reason: string };

/** Whether this machine has a working sandbox. */
export type SandboxProbe = { available: true; bwrap: string } | { available: false; reason: string };

/**
 * System folders a command may read. Fixed absolute places only, as for `bwrap` itself: PATH may hold folders a
 * repository controls.
 */
const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix", "/gnu"];
const BWRAP_PATHS = ["/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"];
/** A probe that does not answer in this time counts as no sandbox. */
const PROBE_TIMEOUT_MS = 10_000;

/** True when `child` is `parent` or inside it. */
function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The real path of an existing folder, else undefined. */
function realDir(p: string): string | undefined {
  try {
    const real = realpathSync(p);
    return statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** One mount of the sandbox; applied parents first (see `bubblewrapArgs`). */
interface Mount {
  /** Where it appears in the sandbox. */
  at: string;
  args: string[];
  /** Order among mounts at the same depth: private folders, read-only, hidden, writable. */
  rank: number;
}

/**
 * The bwrap arguments (before `--`) for `policy`; `env` is the command's environment (its PATH and HOME), `cwd` its
 * working folder. Mounts are applied parents first, so a folder inside another always shows on top of it.
 */
export function bubblewrapArgs(policy: SandboxPolicy, env: NodeJS.ProcessEnv, cwd: string): string[] {
  const writable = policy.writable.map((w) => realDir(w)).filter((w): w is string => w !== undefined);
  const hidden = (policy.hidden ?? []).map((h) => realDir(h) ?? path.resolve(h));
  const home = typeof env.HOME === "string" && path.isAbsolute(env.HOME) ? path.resolve(env.HOME) : undefined;
  const mounts: Mount[] = [{ at: "/tmp", args: ["--tmpfs", "/tmp"], rank: 0 }];
  const system: string[] = [];
  for (const dir of SYSTEM_DIRS) {
    let st;
    try {
      st = lstatSync(dir);
    } catch {
      continue;
    }
    system.push(dir);
    if (st.isSymbolicLink()) mounts.push({ at: dir, args: ["--symlink", readlinkSync(dir), dir], rank: 0 });
    else if (st.isDirectory()) mounts.push({ at: dir, args: ["--ro-bind", dir, dir], rank: 1 });
  }
  // The home folder: private and empty (a folder inside a system folder is covered after it; one holding them is not).
  if (home && !system.some((s) => isInside(home, s))) mounts.push({ at: home, args: ["--tmpfs", home], rank: 0 });
  // A read-only folder never shows a writable or hidden one, or the home folder, from above.
  const readOnly: { real: string; at: string }[] = [];
  const offer = (entry: string): void => {
    if (!path.isAbsolute(entry)) return;
    const at = path.resolve(entry);
    const real = realDir(at);
    if (!real || system.some((s) => isInside(s, at) || isInside(s, real))) return;
    if (readOnly.some((r) => isInside(r.real, real))) return;
    const above = [...writable, ...hidden, ...(home ? [home] : [])];
    if (above.some((p) => isInside(real, p) || isInside(at, p))) return;
    if ([...writable, ...hidden].some((p) => isInside(p, real))) return;
    readOnly.push({ real, at });
  };
  for (const entry of (env.PATH ?? "").split(path.delimiter)) offer(entry);
  for (const entry of policy.readOnly ?? []) offer(entry);
  for (const r of readOnly) mounts.push({ at: r.at, args: ["--ro-bind", r.real, r.at], rank: 1 });
  if (policy.network) {
    // Name resolution: /etc/resolv.conf often links into /run, which is not shown.
    const resolv = (() => {
      try {
        return realpathSync("/etc/resolv.conf");
      } catch {
        return undefined;
      }
    })();
    if (resolv && !system.some((s) => isInside(s, resolv)))
      mounts.push({ at: resolv, args: ["--ro-bind", resolv, resolv], rank: 1 });
  }
  // A folder that must not be seen is covered by an empty one wherever a read-only folder holds it.
  for (const h of hidden)
    for (const src of [...system.map((s) => ({ real: s, at: s })), ...readOnly])
      if (isInside(src.real, h)) {
        const at = path.join(src.at, path.relative(src.real, h));
        mounts.push({ at, args: ["--tmpfs", at, "--remount-ro", at], rank: 2 });
      }
  for (const w of writable) mounts.push({ at: w, args: ["--bind", w, w], rank: 3 });
  const depth = (p: string): number => p.split("/").filter(Boolean).length;
  mounts.sort((a, b) => depth(a.at) - depth(b.at) || a.rank - b.rank);
  const args = ["--die-with-parent", "--unshare-all", ...(policy.network ? ["--share-net"] : [])];
  for (const m of mounts) args.push(...m.args);
  args.push("--dev", "/dev", "--proc", "/proc", "--setenv", "TMPDIR", "/tmp", "--chdir", path.resolve(cwd));
  return args;
}

/**
 * The command line that runs `command` in the sandbox: `exec bwrap <args> -- <shell> -c <command>`, every word
 * quoted. Given to command-process.ts in place of the command (see the file comment).
 */
export function sandboxedCommandLine(
  bwrap: string,
  policy: SandboxPolicy,
  env: NodeJS.ProcessEnv,
  cwd: string,
  command: string,
): string {
  const argv = [bwrap, ...bubblewrapArgs(policy, env, cwd), "--", shell(), "-c", command];
  return `exec ${argv.map(shellQuote).join(" ")}`;
}

let probe: Promise<SandboxProbe> | undefined;

/**
 * Whether this machine has a working sandbox: bwrap at a fixed system place, and a trial run of it (user namespaces
 * may be restricted, as Ubuntu's AppArmor does for unprivileged users). Tried once per process.
 */
export function findSandbox(): Promise<SandboxProbe> {
  probe ??= tryBubblewrap();
  return probe;
}

async function tryBubblewrap(): Promise<SandboxProbe> {
  if (process.platform !== "linux") return { available: false, reason: "a sandbox is only available on Linux" };
  const bwrap = BWRAP_PATHS.find((p) => existsSync(p));
  if (!bwrap) return { available: false, reason: "bubblewrap (bwrap) is not installed" };
  const env = { PATH: "/usr/bin:/bin" };
  const args = [...bubblewrapArgs({ writable: [], network: false }, env, "/"), "--", "/bin/sh", "-c", ":"];
  return new Promise((resolve) => {
    let stderr = "";
    let settled = false;
    const done = (result: SandboxProbe): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const child = spawn(bwrap, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      done({ available: false, reason: `${bwrap} did not answer within ${PROBE_TIMEOUT_MS / 1000} s` });
    }, PROBE_TIMEOUT_MS);
    child.stderr.on("data", (d: Buffer) => {
      if (stderr.length < 2000) stderr += d.toString("utf8");
    });
    child.on("error", (e) => done({ available: false, reason: `${bwrap} could not be started: ${e.message}` }));
    child.on("close", (code) =>
      done(
        code === 0
          ? { available: true, bwrap }
          : { available: false, reason: `${bwrap} does not work here: ${stderr.trim() || `exit code ${code}`}` },
      ),
    );
  });
}
