/**
 * Child process for crash.test.ts: opens (or creates) a session and appends forever, acknowledging each entry
 * on stdout only after appendMessage returned. The parent kills it at random points.
 * argv: <sessionDir> <file or "new">
 */
import * as fs from "node:fs";
import { SessionManager } from "../../../src/core/index.js";

async function main(): Promise<void> {
  const [dir, fileArg] = process.argv.slice(2);
  const sm = fileArg === "new" ? await SessionManager.create("/crash", dir) : await SessionManager.open(fileArg);
  // A new session's file is written with its first user message.
  if (fileArg === "new") sm.appendMessage({ role: "user", content: "crash test", timestamp: 0 });
  fs.writeSync(1, `file ${sm.getSessionFile()}\n`);
  // Bounded: the parent kills us long before this ends.
  for (let i = 0; i < 100_000; i++) {
    // Every fourth entry is large (written in many pages), so kills can land mid-write.
    const text = i % 4 === 3 ? `big ${i} `.repeat(200_000) : `entry ${i}`;
    const id = sm.appendMessage({
      role: "toolResult",
      toolCallId: `c${i}`,
      toolName: "bash",
      content: [{ type: "text", text }],
      isError: false,
      timestamp: i,
    });
    fs.writeSync(1, `ack ${id}\n`);
  }
}

void main();
