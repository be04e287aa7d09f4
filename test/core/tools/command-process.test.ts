/**
 * How a bash command is started away from the extension host (src/core/tools/command-process.ts). The detached
 * helper is run here in the situations `setsid -f` can leave it in: already re-parented (the usual case: it must
 * start the command at once), still a child of the process that started it (it must wait until that one has
 * gone), and never re-parented (it must not run the command). A `sleep` earlier on the PATH counts the helper's
 * wait rounds, so "did not wait" is checked by what the helper did, not by a clock. A server (startServer, for MCP
 * stdio servers) is started the same way and then talked to over its stdin and stdout.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { after, before, beforeEach, describe, it } from "node:test";
import {
  DETACH_WAIT_ROUNDS,
  DETACHED_HELPER_SCRIPT,
  startCommand,
  startServer,
} from "../../../src/core/tools/command-process.js";
import { groupAlive, pidAlive } from "../../../src/core/session/processes.js";
import { tempDir } from "../../util/temp-dir.js";

const REAL_SLEEP = ["/usr/bin/sleep", "/bin/sleep"].find((p) => fs.existsSync(p)) ?? "sleep";
const HAS_SETSID = ["/usr/bin/setsid", "/bin/setsid"].some((p) => fs.existsSync(p));

/**
 * Prints the pid of the command's shell and of every ancestor up to init, one a line (field 4 of
 * /proc/<pid>/stat is the parent; everything after the last ") " is safe to split).
 */
const ANCESTORS =
  'p=$$; for i in $(seq 1 40); do echo "$p"; [ "$p" -gt 1 ] || break; ' +
  "read -r st < /proc/$p/stat || break; st=${st##*) }; set -- $st; p=$2; done";

/** What a helper run printed and reported on fd 3 (its pid, then the command's status). */
interface Run {
  stdout: string;
  stderr: string;
  report: string[];
}

function collect(child: ChildProcess): Promise<Run> {
  let stdout = "";
  let stderr = "";
  let report = "";
  child.stdout?.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  (child.stdio[3] as Readable).on("data", (c: Buffer) => (report += c.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", () => resolve({ stdout, stderr, report: report.split("\n").filter(Boolean) }));
  });
}

/** The shell a server is started with in these tests. */
function shellPath(): string {
  return fs.existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
}

/** Waits (bounded) until `cond` holds. */
async function until(cond: () => boolean, what: () => string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The pid of a process that has already exited (as `setsid` has, in the usual case, when the helper starts). */
async function exitedPid(): Promise<number> {
  const child = spawn("/bin/sh", ["-c", "exit 0"], { stdio: "ignore" });
  await new Promise((resolve) => child.on("exit", resolve));
  assert.ok(child.pid);
  return child.pid;
}

describe("the detached command helper", { skip: !HAS_SETSID && "needs setsid (Linux)" }, () => {
  let tmp: ReturnType<typeof tempDir>;
  let sleepLog: string;
  let env: NodeJS.ProcessEnv;
  const rounds = (): number =>
    fs.existsSync(sleepLog) ? fs.readFileSync(sleepLog, "utf8").split("\n").filter(Boolean).length : 0;

  before(() => {
    tmp = tempDir("agent-tree-command-");
    const bin = path.join(tmp.dir, "bin");
    fs.mkdirSync(bin);
    // One line per wait round; AT_KILL_ON_SLEEP: end that process (the starter) at the first round;
    // AT_SLEEP_FAST: do not really sleep (to run out the rounds quickly).
    fs.writeFileSync(
      path.join(bin, "sleep"),
      "#!/bin/sh\n" +
        'echo round >> "$AT_SLEEP_LOG"\n' +
        'if [ -n "$AT_KILL_ON_SLEEP" ]; then kill "$AT_KILL_ON_SLEEP" 2>/dev/null; fi\n' +
        'if [ -n "$AT_SLEEP_FAST" ]; then exit 0; fi\n' +
        `exec ${REAL_SLEEP} "$@"\n`,
      { mode: 0o755 },
    );
    sleepLog = path.join(tmp.dir, "rounds.log");
    env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`, AT_SLEEP_LOG: sleepLog };
  });
  beforeEach(() => fs.rmSync(sleepLog, { force: true }));
  after(() => tmp.cleanup());

  /** Runs the helper as a direct child of this process, told that `starter` started it. */
  async function runHelper(command: string, starter: number | "", extraEnv: NodeJS.ProcessEnv = {}): Promise<Run> {
    const child = spawn("/bin/sh", ["-c", DETACHED_HELPER_SCRIPT, "agent-tree-helper", "/bin/sh", command], {
      env: { ...env, ...extraEnv },
      stdio: ["pipe", "pipe", "pipe", "pipe"],
    });
    // A helper that exits without reading must not fail the test with EPIPE; what it did is asserted.
    child.stdin?.on("error", () => undefined).end(starter === "" ? "" : `${starter}\n`);
    return collect(child);
  }

  it("starts the command without waiting when it has already left the process that started it", async () => {
    // Its parent is this process; the one that started it (standing in for setsid) has exited.
    const r = await runHelper('echo "ran with stdin from $(readlink /proc/$$/fd/0)"', await exitedPid());
    assert.equal(rounds(), 0, "the helper slept while already re-parented");
    assert.equal(r.stdout, "ran with stdin from /dev/null\n");
    assert.equal(r.report[1], "0", `report: ${r.report.join(",")}`);
  });

  it("waits while the process that started it is alive, then runs the command outside it", async () => {
    // The starter keeps running (as setsid might, on a busy machine) until the helper's first wait round ends it.
    const starterScript =
      'export AT_KILL_ON_SLEEP=$$; "$0" -c "$1" agent-tree-helper /bin/sh "$2" <&4 4<&- & ' +
      `exec ${REAL_SLEEP} 20 4<&-`;
    const starter = spawn("/bin/sh", ["-c", starterScript, "/bin/sh", DETACHED_HELPER_SCRIPT, ANCESTORS], {
      env,
      stdio: ["ignore", "pipe", "pipe", "pipe", "pipe"],
    });
    (starter.stdio[4] as Writable).on("error", () => undefined).end(`${starter.pid}\n`);
    const r = await collect(starter);
    const chain = r.stdout.trim().split("\n").map(Number);
    assert.ok(chain.length >= 2, r.stdout + r.stderr);
    assert.ok(!chain.includes(starter.pid as number), `the starter is an ancestor: ${chain.join(" ← ")}`);
    assert.ok(!chain.includes(process.pid), `this process is an ancestor: ${chain.join(" ← ")}`);
    assert.ok(rounds() >= 1, "the helper did not wait for its starter");
    assert.equal(r.report[1], "0");
  });

  it("does not run the command when it is never re-parented", async () => {
    // This process, its parent, claims to be the one that started it and never exits.
    const marker = path.join(tmp.dir, "ran");
    const r = await runHelper(`touch ${marker}`, process.pid, { AT_SLEEP_FAST: "1" });
    assert.equal(rounds(), DETACH_WAIT_ROUNDS);
    assert.ok(!fs.existsSync(marker), "the command ran under its starter");
    assert.match(r.stderr, /not started/);
    assert.equal(r.report[1], "126");
  });

  it("does not run the command when it is not told who started it", async () => {
    const marker = path.join(tmp.dir, "ran-unknown");
    const r = await runHelper(`touch ${marker}`, "");
    assert.ok(!fs.existsSync(marker), "the command ran without the check");
    assert.match(r.stderr, /not started: no starter pid/);
    assert.equal(r.report[1], "126");
  });

  it("through startCommand, no command ever has this process among its ancestors", async () => {
    for (let i = 0; i < 40; i++) {
      const proc = startCommand(ANCESTORS, tmp.dir, process.env);
      let out = "";
      proc.stdout.on("data", (c: Buffer) => (out += c.toString()));
      proc.stderr.resume();
      assert.equal(await proc.exited, 0);
      const chain = out.trim().split("\n").map(Number);
      assert.ok(chain.length >= 2, out);
      assert.ok(!chain.includes(process.pid), `run ${i}: this process is an ancestor: ${chain.join(" ← ")}`);
    }
  });

  it("through startServer, a server is not below this process, leads its own group, and keeps its stdin", async () => {
    // A line-echoing server that first says who it is and where it stands (its ancestors, its group and session).
    const script =
      'p=$$; chain=""; for i in $(seq 1 40); do [ "$p" -gt 1 ] || break; read -r st < /proc/$p/stat || break; ' +
      'st=${st##*) }; set -- $st; [ "$p" = "$$" ] && echo "group $3 session $4"; p=$2; chain="$chain $p"; done; ' +
      'echo "pid $$ ancestors$chain"; while read -r line; do echo "echo: $line"; done';
    const server = startServer([shellPath(), "-c", script], tmp.dir, process.env);
    let out = "";
    server.stdout.setEncoding("utf8");
    server.stdout.on("data", (s: string) => (out += s));
    server.stderr.resume();
    const pid = await server.pid;
    await until(
      () => /ancestors/.test(out),
      () => `the server's first lines (${out})`,
    );
    assert.match(out, new RegExp(`^group ${pid} session ${pid}$`, "m"), "its own session and process group");
    const chain = (/^pid (\d+) ancestors(.*)$/m.exec(out) ?? []).slice(1);
    assert.equal(Number(chain[0]), pid, "the pid reported is the server's own (the helper became it)");
    assert.ok(!chain[1].split(" ").map(Number).includes(process.pid), `this process is an ancestor:${chain[1]}`);
    // setsid has long exited (Node closes a child's stdin when the child exits): the server still gets its input.
    await new Promise((r) => setTimeout(r, 200));
    server.stdin.write("one\n");
    await until(
      () => out.includes("echo: one\n"),
      () => `the echo (${out})`,
    );
    server.stdin.end();
    await server.closed;
    // Its parent (init or a subreaper) reaps it a moment after its output closed.
    await until(
      () => !pidAlive(pid),
      () => "the server to end at the end of its input",
    );
  });

  it("startServer's kill ends the server's group, also when asked before its pid is known", async () => {
    const server = startServer([shellPath(), "-c", "sleep 300 & sleep 300"], tmp.dir, process.env);
    server.stdout.resume();
    server.stderr.resume();
    server.kill();
    const pid = await server.pid;
    let closed = false;
    void server.closed.then(() => (closed = true));
    await until(
      () => closed,
      () => "the server's output to close after the kill",
    );
    await until(
      () => !groupAlive(pid),
      () => "every process of the server's group to end",
    );
  });

  it("a server's command line does not run ~/.bashrc (bash would, its stdin being a socket)", async () => {
    const home = path.join(tmp.dir, "home");
    fs.mkdirSync(home, { recursive: true });
    const marker = path.join(home, "bashrc-ran");
    fs.writeFileSync(path.join(home, ".bashrc"), `echo ran > ${JSON.stringify(marker)}\n`);
    // No SHLVL: a top-level shell, the case bash sources ~/.bashrc in.
    const server = startServer(["/bin/echo", "started"], tmp.dir, { PATH: process.env.PATH, HOME: home });
    let out = "";
    server.stdout.on("data", (c: Buffer) => (out += c.toString()));
    server.stderr.resume();
    server.stdin.end();
    await server.closed;
    assert.equal(out, "started\n");
    assert.equal(fs.existsSync(marker), false, "~/.bashrc ran before the server");
  });
});
