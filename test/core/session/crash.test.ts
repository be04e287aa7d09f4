import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import { SessionManager } from "../../../src/core/index.js";
import { tempDir } from "../../util/temp-dir.js";

let dir: string;
let cleanup: () => void;
before(() => ({ dir, cleanup } = tempDir("session-crash-")));
after(() => cleanup());

/** Run the writer until it has acknowledged `acks` more entries (or wrote for `ms`), then SIGKILL it. */
function runAndKill(fileArg: string, acks: number, ms: number): Promise<{ file: string; acked: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "crash-writer.ts"), dir, fileArg], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let file = "";
    const acked: string[] = [];
    let buf = "";
    let stderr = "";
    let timer: NodeJS.Timeout | undefined;
    const kill = (): void => {
      child.kill("SIGKILL");
    };
    child.stdout.on("data", (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith("file ")) {
          file = line.slice(5);
          timer = setTimeout(kill, ms);
        } else if (line.startsWith("ack ")) {
          acked.push(line.slice(4));
          if (acked.length >= acks) kill();
        }
      }
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (timer) clearTimeout(timer);
      if (signal !== "SIGKILL") reject(new Error(`writer exited early (${code}): ${stderr}`));
      else resolve({ file, acked });
    });
  });
}

describe("crash safety", () => {
  test("killing the writer mid-append many times loses nothing it acknowledged", { timeout: 240_000 }, async (t) => {
    let file = "new";
    let torn = 0;
    const allAcked: string[] = [];
    for (let round = 0; round < 8; round++) {
      const r = await runAndKill(file, 3 + ((round * 7) % 17), 150 + round * 40);
      file = r.file;
      allAcked.push(...r.acked);
      // Reopen in this process: the dead writer's lock is stale, every acknowledged entry is there.
      const sm = await SessionManager.open(file);
      const ids = new Set(sm.getEnvelopes().map((e) => e.id));
      for (const id of allAcked) assert.ok(ids.has(id), `acknowledged entry ${id} lost in round ${round}`);
      // Only a torn last line may be reported; entries stay chained.
      for (const issue of sm.getLoadIssues()) assert.equal(issue.torn, true, issue.reason);
      torn += sm.getLoadIssues().length;
      for (const e of sm.getEnvelopes()) if (e.parentId !== null) assert.ok(ids.has(e.parentId));
      // The next append repairs a torn tail; the file then reopens clean.
      sm.appendMessage({ role: "user", content: `round ${round}`, timestamp: round });
      await sm.close();
      const clean = await SessionManager.open(file, { readOnly: true });
      assert.deepEqual(clean.getLoadIssues(), []);
      assert.ok(clean.getEntryCount() >= allAcked.length + round + 1);
      await clean.close();
    }
    assert.ok(allAcked.length >= 8, "the writer made progress");
    t.diagnostic(`${allAcked.length} acknowledged entries, ${torn} torn tails repaired`);
  });
});
