/** A small v3 session file for host tests; no `vscode` import so plain-Node scripts can use it too. */
import * as fs from "node:fs";
import * as path from "node:path";

const ts = (i: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();

/**
 * Write a small v3 session: u1 → a1 → u2 → a2, a second branch a1 → u3 → a3 (the last line, so the
 * leaf), and a label on u1. Returns the file and the ids.
 */
export function writeSession(
  dir: string,
  name = "2026-01-01T00-00-00-000Z_test.jsonl",
): { file: string; ids: string[] } {
  const file = path.join(dir, name);
  const usage = {
    input: 1,
    output: 1,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 2,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  const user = (id: string, parentId: string | null, text: string, i: number) => ({
    type: "message",
    id,
    parentId,
    timestamp: ts(i),
    message: { role: "user", content: text, timestamp: i },
  });
  const assistant = (id: string, parentId: string, text: string, i: number) => ({
    type: "message",
    id,
    parentId,
    timestamp: ts(i),
    message: {
      role: "assistant",
      content: [{ type: "text", text }],
      provider: "openai",
      model: "gpt-4.1",
      usage,
      stopReason: "stop",
      timestamp: i,
    },
  });
  const lines = [
    { type: "session", version: 3, id: "11111111-2222-3333-4444-555555555555", timestamp: ts(0), cwd: dir },
    user("aaaa0001", null, "Write a parser", 1),
    assistant("aaaa0002", "aaaa0001", "Which grammar?", 2),
    user("aaaa0003", "aaaa0002", "Recursive descent", 3),
    assistant("aaaa0004", "aaaa0003", "Done with recursive descent", 4),
    user("aaaa0005", "aaaa0002", "Use a PEG", 5),
    { type: "label", id: "aaaa0006", parentId: "aaaa0005", timestamp: ts(6), targetId: "aaaa0001", label: "start" },
    assistant("aaaa0007", "aaaa0005", "Done with PEG", 7),
  ];
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return { file, ids: ["aaaa0001", "aaaa0002", "aaaa0003", "aaaa0004", "aaaa0005", "aaaa0006", "aaaa0007"] };
}
