/** Shared helpers of the extension-host tests. */
import * as vscode from "vscode";
import { emptyUsage, type AssistantMessage } from "../../src/core/messages.js";
import type { AgentTreeApi } from "../../src/host/extension.js";
import { assistant, SessionBuilder, user } from "../util/session-builder.js";

/** publisher.name from package.json. */
export const EXTENSION_ID = "agent-tree.agent-tree";

/** Activate the extension and return its API. */
export async function activateApi(): Promise<AgentTreeApi> {
  const ext = vscode.extensions.getExtension<AgentTreeApi>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed in this VS Code`);
  return ext.activate();
}

/**
 * Write a small v3 session into `dir`: u1 → a1 → u2 → a2, a second branch a1 → u3 → a3 (the last line, so the
 * leaf), and a label on u1. Returns the file and the ids.
 */
export function writeSession(
  dir: string,
  name = "2026-01-01T00-00-00-000Z_test.jsonl",
): { file: string; ids: string[] } {
  const s = new SessionBuilder({
    id: "11111111-2222-3333-4444-555555555555",
    cwd: dir,
    start: Date.UTC(2026, 0, 1) - 1000,
  }).header();
  const usage = { ...emptyUsage(), input: 1, output: 1, totalTokens: 2 };
  const reply = (text: string): AssistantMessage =>
    assistant(text, [], { provider: "openai", model: "gpt-4.1", usage });
  s.message(user("Write a parser"), { id: "aaaa0001", parentId: null });
  s.message(reply("Which grammar?"), { id: "aaaa0002" });
  s.message(user("Recursive descent"), { id: "aaaa0003" });
  s.message(reply("Done with recursive descent"), { id: "aaaa0004" });
  s.message(user("Use a PEG"), { id: "aaaa0005", parentId: "aaaa0002" });
  s.label("aaaa0001", "start", { id: "aaaa0006" });
  s.message(reply("Done with PEG"), { id: "aaaa0007", parentId: "aaaa0005" });
  const ids = s.entries().map((e) => e.id);
  return { file: s.write(dir, name), ids };
}
