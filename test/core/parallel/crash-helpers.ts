/** Runs crash-child.ts over a session and kills it (SIGKILL) once it acknowledged enough entries. */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { readBranchRuns } from "../../../src/core/parallel/branch-run-lines.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import type { FakeReply, FakeRequestBody } from "../../util/fake-provider-common.js";
import { assistant, user } from "../../util/session-builder.js";

/**
 * Replies that keep the branches busy: a first call writes a file, the next streams a long answer slowly, so a
 * kill lands while the branches stream.
 */
export function crashReplies(body: FakeRequestBody): FakeReply {
  const last = (body.messages as { role: string }[]).at(-1);
  if (last?.role === "tool") return { text: "a long answer ".repeat(200), chunks: 200, chunkDelayMs: 50 };
  return { text: "writing", toolCalls: [{ name: "write", args: { path: "out.txt", content: "x" } }] };
}

/** A session file with one exchange; returns its path and leaf. */
export async function crashSession(dir: string): Promise<{ file: string; leaf: string }> {
  const sm = await SessionManager.create(dir, dir);
  sm.appendMessage(user("main"));
  const leaf = sm.appendMessage(assistant("main answer", [], { provider: "fake-openai", model: "fake-model" }));
  const file = sm.getSessionFile() as string;
  await sm.close();
  return { file, leaf };
}

/**
 * Runs the child (`child`: a script taking the same arguments and printing `ack <id>` lines; default crash-child.ts)
 * until it acknowledged `acks` entries, then SIGKILLs it; resolves the acknowledged ids.
 */
export function runBranchesAndKill(
  file: string,
  baseURL: string,
  folder: string,
  acks: number,
  child: string = path.join(__dirname, "crash-child.ts"),
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", child, file, baseURL, folder], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const acked: string[] = [];
    let buf = "";
    let stderr = "";
    // Bounded: a child that never acknowledges enough is killed anyway.
    const timer = setTimeout(() => proc.kill("SIGKILL"), 30_000);
    proc.stdout.on("data", (d: Buffer) => {
      buf += d.toString();
      for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith("ack ")) {
          acked.push(line.slice(4));
          if (acked.length === acks) proc.kill("SIGKILL");
        }
      }
    });
    proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    proc.on("error", reject);
    proc.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (signal !== "SIGKILL") reject(new Error(`the child ended before the kill (${code}): ${stderr}`));
      else if (acked.length < acks) reject(new Error(`the child acknowledged only ${acked.length} entries: ${stderr}`));
      else resolve(acked);
    });
  });
}

/**
 * Opens the file a killed child left and asserts what every crash must keep: no damaged line, each acknowledged entry,
 * the leaf where the user was. Resolves the session, the user entries that start branches at the leaf, and the runs.
 */
export async function reopenAfterKill(file: string, acked: readonly string[], leaf: string) {
  const sm = await SessionManager.open(file);
  assert.deepEqual(sm.getLoadIssues(), [], "no damaged line");
  for (const id of acked) assert.ok(sm.hasEntry(id), `acknowledged entry ${id} is there`);
  assert.equal(sm.getLeafId(), leaf, "the leaf is where the user was");
  const branches = sm.getChildIds(leaf).filter((id) => sm.getEnvelope(id)?.role === "user");
  return { sm, branches, runs: readBranchRuns(sm) };
}
