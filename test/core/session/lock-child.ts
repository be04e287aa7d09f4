/**
 * Child process for the lock tests: a session store driven by commands on stdin, one JSON object per line,
 * each answered by one JSON line on stdout:
 *   {"op":"open","file":…,"options":{…}}  → {"ok":true,"readOnly":…} | error
 *   {"op":"append","count":n}             → {"ok":true,"ids":[…]} | error (after some appends: "ids" too)
 *   {"op":"close"}                        → {"ok":true}
 * An error answer is {"ok":false,"name","message","condition","claim","canTakeOver"}.
 * argv: `--stall <judgedFile> <goFile>` stalls the first lock removal (the lock hook beforeRemove): it
 * writes judgedFile, then waits (bounded) until goFile exists. `--jitter` sleeps 0–20 ms there instead.
 * `--gate-never` refreshes the lock never (an `alive` round trip that does not settle).
 */
import * as fs from "node:fs";
import * as readline from "node:readline";
import { SessionManager, type LockHooks, type LockOptions } from "../../../src/core/index.js";

const args = process.argv.slice(2);
const pause = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number): void => void Atomics.wait(pause, 0, 0, ms);

const hooks: LockHooks = {};
const stall = args.indexOf("--stall");
if (stall >= 0) {
  const [judged, go] = [args[stall + 1], args[stall + 2]];
  let stalled = false;
  hooks.beforeRemove = () => {
    if (stalled) return;
    stalled = true;
    fs.writeFileSync(judged, String(process.pid));
    for (let i = 0; i < 6000 && !fs.existsSync(go); i++) sleep(10);
  };
}
if (args.includes("--jitter")) hooks.beforeRemove = () => sleep(Math.floor(Math.random() * 20));
const gate: Pick<LockOptions, "alive"> = args.includes("--gate-never") ? { alive: () => new Promise(() => {}) } : {};

let sm: SessionManager | undefined;

function answer(v: unknown): void {
  fs.writeSync(1, JSON.stringify(v) + "\n");
}

function failure(e: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const err = e as Error & { condition?: string; claim?: string; canTakeOver?: boolean };
  return {
    ok: false,
    name: err.name,
    message: err.message,
    condition: err.condition,
    claim: err.claim,
    canTakeOver: err.canTakeOver,
    ...extra,
  };
}

async function handle(cmd: { op: string; file?: string; options?: Record<string, unknown>; count?: number }) {
  switch (cmd.op) {
    case "open": {
      const options = (cmd.options ?? {}) as { lock?: LockOptions; readOnly?: boolean };
      sm = await SessionManager.open(cmd.file as string, { ...options, lock: { ...options.lock, ...gate, hooks } });
      return { ok: true, readOnly: sm.isReadOnly(), pid: process.pid };
    }
    case "append": {
      const ids: string[] = [];
      try {
        for (let i = 0; i < (cmd.count ?? 1); i++)
          ids.push(
            (sm as SessionManager).appendMessage({ role: "user", content: `child ${process.pid} #${i}`, timestamp: i }),
          );
      } catch (e) {
        return failure(e, { ids });
      }
      return { ok: true, ids };
    }
    case "close":
      await sm?.close();
      sm = undefined;
      return { ok: true };
    default:
      return { ok: false, name: "Error", message: `unknown op ${cmd.op}` };
  }
}

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  void (async () => {
    try {
      answer(await handle(JSON.parse(line) as { op: string }));
    } catch (e) {
      answer(failure(e));
    }
  })();
});
rl.on("close", () => process.exit(0));
answer({ ready: true, pid: process.pid });
