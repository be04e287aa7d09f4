/** Session files written line by line for the search tests, so escapes and damage are exactly as given. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

type Entry = Record<string, unknown>;

let clock = Date.UTC(2026, 0, 5, 9, 0, 0);

/** A pi v3 header line. */
export function header(id: string, extra: Entry = {}): string {
  return JSON.stringify({
    type: "session",
    version: 3,
    id,
    timestamp: "2026-01-05T09:00:00.000Z",
    cwd: "/ws",
    ...extra,
  });
}

function stamp(): string {
  clock += 1000;
  return new Date(clock).toISOString();
}

/** A message entry line. */
export function message(id: string, parentId: string | null, msg: Entry): string {
  return JSON.stringify({ type: "message", id, parentId, timestamp: stamp(), message: msg });
}

/** A user message line. */
export function user(id: string, parentId: string | null, text: string): string {
  return message(id, parentId, { role: "user", content: text, timestamp: clock });
}

/** An assistant message line with text and optional tool calls (name → arguments). */
export function assistant(
  id: string,
  parentId: string | null,
  text: string,
  calls: Record<string, Entry> = {},
): string {
  const content: Entry[] = text ? [{ type: "text", text }] : [];
  for (const [name, args] of Object.entries(calls))
    content.push({ type: "toolCall", id: `call_${name}`, name, arguments: args });
  return message(id, parentId, {
    role: "assistant",
    content,
    provider: "anthropic",
    model: "claude-test",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: {} },
    stopReason: Object.keys(calls).length ? "toolUse" : "stop",
    timestamp: clock,
  });
}

/** A tool result line. */
export function toolResult(id: string, parentId: string, toolName: string, text: string): string {
  return message(id, parentId, {
    role: "toolResult",
    toolCallId: `call_${toolName}`,
    toolName,
    content: [{ type: "text", text }],
    isError: false,
    timestamp: clock,
  });
}

/** A label line (hangs off `parentId`, names `targetId`). */
export function label(id: string, parentId: string, targetId: string, text: string | undefined): string {
  return JSON.stringify({ type: "label", id, parentId, timestamp: stamp(), targetId, label: text });
}

/** Writes `lines` (joined by newlines, with a final newline unless `torn`) to `dir/name`; returns the path. */
export function writeLines(dir: string, name: string, lines: readonly string[], torn = false): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, lines.join("\n") + (torn ? "" : "\n"));
  return path;
}
