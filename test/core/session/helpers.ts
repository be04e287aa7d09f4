/** Shared helpers for the session store tests. */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  emptyUsage,
  type AssistantMessage,
  type ToolResultMessage,
  type UserMessage,
} from "../../../src/core/messages.js";
import { tempDir as sharedTempDir } from "../../util/temp-dir.js";

/** A fresh temp folder, removed by the returned cleanup (the tests' one helper). */
export function tempDir(prefix = "session-test-"): { dir: string; cleanup: () => void } {
  return sharedTempDir(prefix);
}

/** A user message. */
export function user(text: string, timestamp = 1): UserMessage {
  return { role: "user", content: text, timestamp };
}

/** An assistant message with text and optional tool calls. */
export function assistant(
  text: string,
  toolCalls: string[] = [],
  stopReason: AssistantMessage["stopReason"] = "stop",
): AssistantMessage {
  return {
    role: "assistant",
    content: [
      ...(text ? [{ type: "text" as const, text }] : []),
      ...toolCalls.map((name, i) => ({
        type: "toolCall" as const,
        id: `call_${i}`,
        name,
        arguments: { path: `/tmp/${i}` },
      })),
    ],
    provider: "anthropic",
    model: "claude-test",
    usage: emptyUsage(),
    stopReason,
    timestamp: 2,
  };
}

/** A tool result with `text` as output. */
export function toolResult(text: string, toolName = "bash"): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: "call_0",
    toolName,
    content: [{ type: "text", text }],
    isError: false,
    timestamp: 3,
  };
}

/** Copy a pi fixture into `dir`; returns the copy's path (fixtures are read-only and shared). */
export function copyFixture(name: string, dir: string): string {
  const target = path.join(dir, name.replace(/\.v1\.jsonl$/, ".jsonl"));
  fs.copyFileSync(path.join(__dirname, "../../fixtures/pi", name), target);
  fs.chmodSync(target, 0o644);
  return target;
}

/** The lines of a file, parsed. */
export function readJsonl(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/**
 * pi's resume rule, re-implemented for the compatibility tests: the leaf is the LAST line of the file;
 * the path walks parentId up from it; context as pi builds it.
 */
export function piLeafPath(file: string): Record<string, unknown>[] {
  const lines = readJsonl(file).slice(1);
  const byId = new Map(lines.map((e) => [e.id as string, e]));
  const out: Record<string, unknown>[] = [];
  let cur: Record<string, unknown> | undefined = lines[lines.length - 1];
  while (cur) {
    out.push(cur);
    cur = cur.parentId === null ? undefined : byId.get(cur.parentId as string);
  }
  return out.reverse();
}
