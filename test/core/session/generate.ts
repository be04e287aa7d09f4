/**
 * Writes large synthetic pi v3 sessions quickly (for scale tests and measurements).
 * Shape: user → (assistant tool call → tool result)×k → assistant text, repeated; a compaction every
 * `compactEvery` entries keeping the last ~20; every `branchEvery` entries the next turn starts from an
 * earlier user message (a branch). Tool outputs are `toolOutputBytes` of shell-like text with quotes,
 * backslashes and newlines (so escaping is exercised).
 */
import * as fs from "node:fs";

/** Options of writeSyntheticSession. */
export interface SyntheticOptions {
  entries: number;
  toolOutputBytes?: number;
  compactEvery?: number;
  branchEvery?: number;
  toolCallsPerTurn?: number;
}

/** What was written. */
export interface SyntheticResult {
  bytes: number;
  entries: number;
  /** The last entry written (what a reopen resumes at). */
  leafId: string;
  compactions: number;
}

function hexId(n: number): string {
  return (0x10000000 + n).toString(16).slice(-8);
}

/** Write the session to `file` (overwritten). */
export function writeSyntheticSession(file: string, opts: SyntheticOptions): SyntheticResult {
  const outBytes = opts.toolOutputBytes ?? 10_000;
  const compactEvery = opts.compactEvery ?? 80;
  const branchEvery = opts.branchEvery ?? 500;
  const perTurn = opts.toolCallsPerTurn ?? 3;
  const base = Array.from(
    { length: 64 },
    (_, i) => `-rw-r--r-- 1 user staff ${1000 + i} "file ${i}.ts" C:\\path\\${i}\n`,
  ).join("");
  const output = (n: number): string => {
    let s = `output #${n}\n`;
    while (s.length < outBytes) s += base;
    return s.slice(0, outBytes);
  };
  const fd = fs.openSync(file, "w");
  const t0 = Date.UTC(2025, 0, 1);
  let pending: string[] = [];
  let pendingBytes = 0;
  let bytes = 0;
  const emit = (obj: unknown): void => {
    const line = JSON.stringify(obj) + "\n";
    pending.push(line);
    pendingBytes += line.length;
    if (pendingBytes > 4_000_000) flush();
  };
  const flush = (): void => {
    const buf = Buffer.from(pending.join(""));
    fs.writeSync(fd, buf);
    bytes += buf.length;
    pending = [];
    pendingBytes = 0;
  };
  emit({
    type: "session",
    version: 3,
    id: "00000000-0000-4000-8000-000000000000",
    timestamp: new Date(t0).toISOString(),
    cwd: "/bench/project",
  });
  let n = 0;
  let parent: string | null = null;
  const recent: string[] = [];
  const userIds: string[] = [];
  let compactions = 0;
  const add = (fields: Record<string, unknown>): string => {
    const id = hexId(n);
    const ts = new Date(t0 + n * 1000).toISOString();
    emit({ type: fields.type, id, parentId: parent, timestamp: ts, ...fields });
    parent = id;
    recent.push(id);
    if (recent.length > 40) recent.shift();
    n++;
    return id;
  };
  const usage = {
    input: 100,
    output: 50,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 150,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  while (n < opts.entries) {
    if (branchEvery > 0 && userIds.length > 4 && n % branchEvery < perTurn * 2 + 2 && n > branchEvery) {
      parent = userIds[userIds.length - 3];
    }
    userIds.push(
      add({
        type: "message",
        message: {
          role: "user",
          content: [{ type: "text", text: `Please look at step ${n} of the plan` }],
          timestamp: t0 + n,
        },
      }),
    );
    for (let k = 0; k < perTurn && n < opts.entries; k++) {
      const callId = `toolu_${hexId(n)}`;
      add({
        type: "message",
        message: {
          role: "assistant",
          content: [{ type: "toolCall", id: callId, name: "bash", arguments: { command: `ls -la step${n}` } }],
          api: "anthropic-messages",
          provider: "anthropic",
          model: "claude-sonnet-4-5",
          usage,
          stopReason: "toolUse",
          timestamp: t0 + n,
        },
      });
      if (n >= opts.entries) break;
      add({
        type: "message",
        message: {
          role: "toolResult",
          toolCallId: callId,
          toolName: "bash",
          content: [{ type: "text", text: output(n) }],
          isError: false,
          timestamp: t0 + n,
        },
      });
    }
    if (n >= opts.entries) break;
    add({
      type: "message",
      message: {
        role: "assistant",
        content: [{ type: "text", text: `Done with step ${n}.` }],
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage,
        stopReason: "stop",
        timestamp: t0 + n,
      },
    });
    if (compactEvery > 0 && n % compactEvery < perTurn * 2 + 2 && n < opts.entries && recent.length > 20) {
      add({
        type: "compaction",
        summary: `Summary up to entry ${n}`,
        firstKeptEntryId: recent[recent.length - 20],
        tokensBefore: 150_000,
      });
      compactions++;
    }
  }
  flush();
  fs.closeSync(fd);
  return { bytes, entries: n, leafId: parent as unknown as string, compactions };
}
