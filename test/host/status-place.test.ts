/**
 * One place shows a transient status line (issue 33 item 4): the Notifier puts it in one view (the chat, else the
 * tree), and only the feeds listed below make status lines of their own, each for one view.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import ts from "typescript";
import { showStatus, statusView, type StatusView } from "../../src/host/views/status-place.js";
import type { HostToWebview } from "../../src/shared/protocol.js";

const ROOT = path.resolve(__dirname, "../..");

function view(name: string, isVisible: boolean, log: string[]): StatusView & { name: string } {
  return { name, isVisible, post: (m: HostToWebview) => void log.push(`${name} ${JSON.stringify(m)}`) };
}

test("both views on screen: the status line shows in the chat only", () => {
  const log: string[] = [];
  assert.equal(showStatus([view("chat", true, log), view("tree", true, log)], "Moved to u2", "info"), true);
  assert.deepEqual(log, [`chat {"type":"status","text":"Moved to u2","kind":"info"}`]);
});

test("the chat hidden: the tree shows it; neither on screen: no view does", () => {
  const log: string[] = [];
  assert.equal(statusView([view("chat", false, log), view("tree", true, log)])?.name, "tree");
  showStatus([view("chat", false, log), view("tree", true, log)], "Branch archived.", "error");
  assert.deepEqual(log, [`tree {"type":"status","text":"Branch archived.","kind":"error"}`]);
  assert.equal(showStatus([view("chat", false, log), view("tree", false, log)], "x", "info"), false);
  assert.equal(log.length, 1);
});

/** Files that make a `{ type: "status" }` message, and the one view each speaks to. */
const ALLOWED: Readonly<Record<string, string>> = {
  "src/host/views/status-place.ts": "the Notifier's status line: one view, the chat else the tree",
  "src/host/chat/chat-sync.ts": "the chat's own run (compaction, retries, run errors), in the chat that shows it",
  "src/host/chat-input/chat-input-setup.ts": "the chat input's completions, in the chat",
  "src/host/prompt/create-prompt.ts": "the instruction files' notice (skipped, unreadable), in the chat",
  "src/host/compare/compare-feed.ts": "a compare panel's own failure, in that panel",
};

function* sources(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (/\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith(".d.ts")) yield p;
  }
}

/** Lines of `text` with an object literal `{ type: "status", … }` (a message made, not a type or a check). */
function statusMessages(file: string, text: string): number[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const visit = (n: ts.Node): void => {
    if (
      ts.isObjectLiteralExpression(n) &&
      n.properties.some(
        (p) =>
          ts.isPropertyAssignment(p) &&
          p.name.getText() === "type" &&
          ts.isStringLiteral(p.initializer) &&
          p.initializer.text === "status",
      )
    )
      lines.push(source.getLineAndCharacterOfPosition(n.getStart()).line + 1);
    ts.forEachChild(n, visit);
  };
  visit(source);
  return lines;
}

test("status lines are made by the Notifier and the listed one-view feeds only", () => {
  const offenders: string[] = [];
  const used = new Set<string>();
  for (const file of sources(path.join(ROOT, "src"))) {
    const rel = path.relative(ROOT, file).split(path.sep).join("/");
    const lines = statusMessages(rel, fs.readFileSync(file, "utf8"));
    if (lines.length === 0) continue;
    if (rel in ALLOWED) used.add(rel);
    else offenders.push(...lines.map((l) => `${rel}:${l}`));
  }
  assert.deepEqual(
    offenders,
    [],
    "A transient status goes through the Notifier (notify.status), which shows it in one view; a feed of one " +
      "view's own goes into ALLOWED with that view.",
  );
  assert.deepEqual(
    Object.keys(ALLOWED).filter((a) => !used.has(a)),
    [],
    "an allowed file that makes no status line: take it off",
  );
});

test("the check sees a status line made elsewhere", () => {
  assert.deepEqual(
    statusMessages("x.ts", `tree.post({ type: "status", text: "t", kind: "info" });\nconst k: { type: "status" } = x;`),
    [1],
  );
});
