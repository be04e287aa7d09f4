/** Helpers for the lock tests: read who holds a session's lock, plant locks of other processes. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** What a lock's token file says (the fields the tests look at). */
export interface LockRecordView {
  pid: number;
  hostname: string;
  machine?: string;
  token: string;
  heartbeatMs?: number;
}

/** The lock folder beside a session file (its real path). */
export function lockDirOf(file: string): string {
  return `${fs.realpathSync(file)}.lock`;
}

/**
 * Sets the mtime of the token in the lock beside `file` to `at` (default two minutes ago, long past every stale
 * limit the tests use): the lock looks unrefreshed since then. Returns the token's path.
 */
export function ageLock(file: string, at = new Date(Date.now() - 120_000)): string {
  const token = path.join(lockDirOf(file), fs.readdirSync(lockDirOf(file))[0]);
  fs.utimesSync(token, at, at);
  return token;
}

/** The record in the lock beside `file`, or undefined when there is no lock. */
export function lockHolder(file: string): LockRecordView | undefined {
  const dir = lockDirOf(file);
  if (!fs.existsSync(dir)) return undefined;
  const [entry] = fs.readdirSync(dir);
  return entry ? (JSON.parse(fs.readFileSync(path.join(dir, entry), "utf8")) as LockRecordView) : undefined;
}

/** The pid of a process that has exited (reused only after the pid space wraps). */
export function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
  return Number(r.stdout.trim());
}

/** This machine's key as the store computes it (host name, boot id, pid namespace). */
export function machineKey(): string {
  const parts = [os.hostname()];
  try {
    parts.push(fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim());
    parts.push(fs.readlinkSync("/proc/self/ns/pid"));
  } catch {
    // not Linux
  }
  return parts.join("/");
}

/**
 * Plant a lock beside `file` as another process would have left it. `ageMs` backdates its last refresh.
 * Returns the token.
 */
export function plantLock(
  file: string,
  holder: { pid: number; hostname?: string; machine?: string; heartbeatMs?: number },
  ageMs = 0,
): string {
  const token = randomBytes(8).toString("hex");
  const dir = lockDirOf(file);
  fs.mkdirSync(dir);
  const tokenFile = path.join(dir, `${token}.json`);
  fs.writeFileSync(
    tokenFile,
    JSON.stringify({
      pid: holder.pid,
      hostname: holder.hostname ?? os.hostname(),
      machine: holder.machine ?? (holder.hostname === undefined ? machineKey() : holder.hostname),
      token,
      time: new Date(Date.now() - ageMs).toISOString(),
      heartbeatMs: holder.heartbeatMs ?? 10_000,
      file: fs.realpathSync(file),
    }),
  );
  const t = new Date(Date.now() - ageMs);
  fs.utimesSync(tokenFile, t, t);
  return token;
}

/** An answer of lock-child.ts. */
export interface ChildAnswer {
  ok: boolean;
  name?: string;
  message?: string;
  condition?: string;
  claim?: string;
  canTakeOver?: boolean;
  ids?: string[];
  readOnly?: boolean;
  pid?: number;
}

/** A running lock-child.ts: send a command, get its one-line answer (bounded wait). */
export class LockChild {
  readonly process: ChildProcess;
  private buffer = "";
  private readonly waiting: ((line: string) => void)[] = [];
  private readonly lines: string[] = [];
  private stderr = "";

  private constructor(args: string[]) {
    this.process = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "lock-child.ts"), ...args], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.process.stdout?.on("data", (d: Buffer) => {
      this.buffer += d.toString();
      let nl: number;
      while ((nl = this.buffer.indexOf("\n")) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        const w = this.waiting.shift();
        if (w) w(line);
        else this.lines.push(line);
      }
    });
    this.process.stderr?.on("data", (d: Buffer) => (this.stderr += d.toString()));
  }

  /** Start a child and wait until it is ready. */
  static async start(args: string[] = []): Promise<LockChild> {
    const child = new LockChild(args);
    await child.next();
    return child;
  }

  get pid(): number {
    return this.process.pid as number;
  }

  /** Send one command and wait (at most 60 s) for its answer. */
  async send(cmd: Record<string, unknown>): Promise<ChildAnswer> {
    this.process.stdin?.write(JSON.stringify(cmd) + "\n");
    return JSON.parse(await this.next()) as ChildAnswer;
  }

  /** Send without waiting; collect the answer later with next(). */
  post(cmd: Record<string, unknown>): void {
    this.process.stdin?.write(JSON.stringify(cmd) + "\n");
  }

  /** The next answer line. */
  next(): Promise<string> {
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`lock child gave no answer in 60 s; stderr: ${this.stderr}`)),
        60_000,
      );
      this.waiting.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
    });
  }

  /** SIGKILL and wait for the exit. */
  async kill(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = new Promise<void>((r) => this.process.once("exit", () => r()));
    this.process.kill("SIGKILL");
    await exited;
  }

  /** Close stdin (the child exits, releasing its lock) and wait for the exit. */
  async end(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = new Promise<void>((r) => this.process.once("exit", () => r()));
    this.process.stdin?.end();
    await exited;
  }
}

/** Poll `probe` every 20 ms until it is true; throws `what` after `timeoutMs`. */
export async function waitFor(probe: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A window whose round trips stall (its tab is gone) until `answer()`: `lock` makes a session's heartbeat (every
 * 50 ms) wait on them; `answer()` answers the stalled ones and every later one at once.
 */
export function stalledWindow(): {
  lock: { heartbeatMs: number; alive: () => Promise<void> };
  answer(): void;
} {
  const pending: (() => void)[] = [];
  let answering = false;
  return {
    lock: {
      heartbeatMs: 50,
      alive: () => (answering ? Promise.resolve() : new Promise<void>((r) => pending.push(r))),
    },
    answer: () => {
      answering = true;
      for (const answer of pending) answer();
    },
  };
}
