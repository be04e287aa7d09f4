/**
 * Helpers of the tests where pi (or another program) appends to a session this extension holds open: pi's line, a
 * written session to start from, the tree's shape in file order.
 */
import { SessionManager } from "../../src/core/index.js";
import { assistant, user } from "./session-builder.js";

/** A line as pi 1.6 appends it (appendFileSync of the JSON and its newline). */
export function piLine(id: string, parentId: string | null, text: string): string {
  return `${JSON.stringify({ type: "message", id, parentId, timestamp: new Date().toISOString(), message: user(text) })}\n`;
}

/** A session written in `dir`: question and answer; its file and leaf. */
export async function writtenSession(dir: string): Promise<{ file: string; leaf: string }> {
  const sm = await SessionManager.create("/p", dir);
  sm.appendMessage(user("question"));
  const leaf = sm.appendMessage(assistant("answer"));
  const file = sm.getSessionFile() as string;
  await sm.close();
  return { file, leaf };
}

/** Ids and parents of every entry, in file order. */
export function treeShape(sm: SessionManager): string[] {
  return sm.getEnvelopes().map((e) => `${e.id}<${e.parentId ?? "-"}`);
}
