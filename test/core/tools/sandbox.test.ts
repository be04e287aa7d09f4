/**
 * The bash tool in the bubblewrap sandbox (src/core/tools/sandbox.ts), with the real bwrap where it works on this
 * machine: only the writable folder can be changed, the hidden folder and the home folder are not there, the
 * network (a server on 127.0.0.1) is unreachable unless allowed, the command sees none of the host's processes, and
 * a timeout kills everything it started. Where bwrap does not work the sandbox tests are skipped with the reason;
 * the refusal (a sandbox asked for, none there) is tested everywhere.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, before, describe, it, type TestContext } from "node:test";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { createBashTool } from "../../../src/core/tools/bash-tool.js";
import { findSandbox, type SandboxPolicy, type SandboxProbe } from "../../../src/core/tools/sandbox.js";
import type { ToolResult } from "../../../src/core/tools/types.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { newAgent } from "../agent/helpers.js";

const tmp = tempDirPerTest("agent-tree-sandbox-");
let probe: SandboxProbe = { available: false, reason: "not probed" };
before(async () => {
  probe = await findSandbox();
});

/** False (and the test skipped with the reason) where bwrap does not work on this machine. */
function sandboxHere(t: TestContext): boolean {
  if (!probe.available) t.skip(`no working sandbox here: ${probe.reason}`);
  return probe.available;
}

function textOf(r: ToolResult): string {
  return r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

/** Runs `command` in `cwd` sandboxed by `policy` (the real bwrap), with `env` added to the host's. */
async function sandboxed(
  cwd: string,
  policy: SandboxPolicy,
  command: string,
  options: { env?: NodeJS.ProcessEnv; timeout?: number } = {},
): Promise<ToolResult> {
  if (!probe.available) throw new Error("no sandbox");
  const bwrap = probe.bwrap;
  const tool = createBashTool(
    cwd,
    () => ({ ...process.env, ...options.env }),
    () => ({ kind: "bubblewrap", bwrap, policy }),
  );
  return tool.execute({ command, ...(options.timeout ? { timeout: options.timeout } : {}) }, { cwd });
}

/** `copy/` writable, `ws/` hidden, `home/` as HOME holding a secret. */
function folders(): { copy: string; ws: string; home: string } {
  const copy = path.join(tmp.dir, "copy");
  const ws = path.join(tmp.dir, "ws");
  const home = path.join(tmp.dir, "home");
  for (const d of [copy, ws, home]) fs.mkdirSync(d);
  fs.writeFileSync(path.join(ws, "app.txt"), "original\n");
  fs.writeFileSync(path.join(home, "secret.txt"), "home secret\n");
  return { copy, ws, home };
}

describe("the bash tool in the sandbox", { timeout: 60_000 }, () => {
  let server: http.Server;
  let port: number;
  let hits = 0;
  before(async () => {
    server = http.createServer((_req, res) => {
      hits++;
      res.end("reached\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("writes only its writable folder: the hidden folder and the home folder are not there", async (t) => {
    if (!sandboxHere(t)) return;
    const { copy, ws, home } = folders();
    const policy: SandboxPolicy = { writable: [copy], hidden: [ws], network: false };
    const r = await sandboxed(
      copy,
      policy,
      `echo pwned > ${ws}/app.txt; echo "ws: $?"; cat ${home}/secret.txt; echo "home: $?"; ` +
        `echo made > ${copy}/made.txt; echo inside > rel.txt; touch /usr/pwned 2>&1; echo "usr: $?"; pwd`,
      { env: { HOME: home } },
    );
    const out = textOf(r);
    assert.equal(fs.readFileSync(path.join(ws, "app.txt"), "utf8"), "original\n", "the hidden folder is untouched");
    assert.match(out, /ws: [1-9]/);
    assert.match(out, /home: [1-9]/);
    assert.ok(!out.includes("home secret"), "the home folder's files are not there");
    assert.match(out, /usr: [1-9]/);
    assert.equal(fs.existsSync("/usr/pwned"), false);
    assert.equal(fs.readFileSync(path.join(copy, "made.txt"), "utf8"), "made\n");
    assert.equal(fs.readFileSync(path.join(copy, "rel.txt"), "utf8"), "inside\n");
    assert.ok(out.includes(copy), "it runs in its folder");
  });

  it("a hidden folder inside a folder it may read is covered by an empty, read-only one", async (t) => {
    if (!sandboxHere(t)) return;
    const { copy, ws } = folders();
    const policy: SandboxPolicy = { writable: [copy], hidden: [ws], readOnly: [tmp.dir], network: false };
    const r = await sandboxed(copy, policy, `ls -A ${ws}; echo x > ${ws}/new.txt; echo "write: $?"`);
    const out = textOf(r);
    assert.ok(!out.includes("app.txt"), out);
    assert.match(out, /write: [1-9]/);
    assert.equal(fs.existsSync(path.join(ws, "new.txt")), false);
  });

  it("has no network unless allowed: a server on 127.0.0.1 is unreachable, then reachable", async (t) => {
    if (!sandboxHere(t)) return;
    const { copy } = folders();
    const connect = `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`;
    hits = 0;
    const off = await sandboxed(copy, { writable: [copy], network: false }, connect);
    assert.equal(hits, 0);
    assert.ok(!textOf(off).includes("reached"), textOf(off));
    assert.equal(off.isError, true);
    const on = await sandboxed(copy, { writable: [copy], network: true }, connect);
    assert.equal(hits, 1, textOf(on));
    assert.match(textOf(on), /reached/);
  });

  it("sees none of the host's processes, so no ancestor's environment", async (t) => {
    if (!sandboxHere(t)) return;
    const { copy } = folders();
    const r = await sandboxed(
      copy,
      { writable: [copy], network: false },
      `ls /proc | grep -E '^[0-9]+$' | sort -n | tr '\\n' ' '; echo; cat /proc/${process.pid}/environ; echo "host: $?"`,
    );
    const out = textOf(r);
    const pids = out.split("\n")[0].trim().split(" ").map(Number);
    assert.ok(
      pids.every((p) => p < 50),
      `only the sandbox's own processes: ${pids.join(" ")}`,
    );
    assert.match(out, /host: [1-9]/);
  });

  it("a timeout kills everything the command started, also what left its process group", async (t) => {
    if (!sandboxHere(t)) return;
    const { copy } = folders();
    const marker = path.join(copy, "late.txt");
    const r = await sandboxed(
      copy,
      { writable: [copy], network: false },
      `(setsid sh -c 'sleep 2; touch ${marker}' &) ; sleep 30`,
      { timeout: 1 },
    );
    assert.match(textOf(r), /timed out/);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.equal(fs.existsSync(marker), false, "the command that left the group was killed with the sandbox");
  });

  it("the main agent's bash runs where its session's commandSandbox says: sandboxed, with its workspace writable", async (t) => {
    if (!sandboxHere(t) || !probe.available) return;
    const { copy: ws, home } = folders();
    const bwrap = probe.bwrap;
    const sm = SessionManager.inMemory(ws);
    const { agent } = newAgent(sm, {
      cwd: ws,
      tools: undefined,
      commandSandbox: () => ({ kind: "bubblewrap", bwrap, policy: { writable: [ws], network: false } }),
    });
    const bash = agent.getTools().find((tool) => tool.name === "bash");
    assert.ok(bash);
    const r = await bash.execute(
      { command: `echo ok > here.txt; cat ${home}/secret.txt; echo "home: $?"` },
      { cwd: ws },
    );
    assert.equal(fs.readFileSync(path.join(ws, "here.txt"), "utf8"), "ok\n");
    assert.match(textOf(r), /home: [1-9]/);
    agent.dispose();
  });

  it("a sandbox asked for but not there refuses the command, and runs nothing", async () => {
    const { copy } = folders();
    const tool = createBashTool(copy, undefined, () => ({ kind: "refused", reason: "bubblewrap is not installed" }));
    const r = await tool.execute({ command: "touch ran.txt" }, { cwd: copy });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /Command not run: bubblewrap is not installed/);
    assert.equal(fs.existsSync(path.join(copy, "ran.txt")), false);
  });
});
