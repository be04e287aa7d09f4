/**
 * "One entry view" stays true: what an entry says is decided in src/core/entries/ (docs/architecture.md, "One entry
 * view"), so no other file may grow a switch over entry kinds, or a table or list keyed by them, to word entries its
 * own way. The few files that must tell kinds apart for another reason (what the store extracts, what the model is
 * sent, how the chat lays a message out) are listed below with that reason; a new one fails here until its author
 * either moves the words into the entry view or adds the file with a reason.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import ts from "typescript";
import { ENTRY_KINDS, ENTRY_TYPES, MESSAGE_ROLES } from "../../../src/core/session/entry-kinds.js";

const ROOT = path.resolve(__dirname, "../../..");

/** Files that tell entry kinds apart, and why that is not wording. */
const ALLOWED: Readonly<Record<string, string>> = {
  "src/core/entries/": "the owner: what an entry says",
  "src/core/session/entry-kinds.ts": "the vocabulary: which kinds exist and which are conversation",
  "src/core/session/preview.ts": "the store: what an envelope holds of each entry (the scanner's reference)",
  "src/core/session/entry-scanner.ts": "the store: which roles are read from bytes",
  "src/core/session/entry-meta.ts": "the store: the small fields each entry keeps (model, label target, …)",
  "src/core/session/context.ts": "what the model's context is built from",
  "src/core/messages.ts": "what the model is sent for each message",
  "src/core/compaction/tokens.ts": "how many tokens each message costs",
  "src/core/compare/turns.ts": "which entries make a turn of a comparison",
  "src/core/import/claude-messages.ts": "Claude Code's own record types, converted",
  "src/core/summary/extractive.ts": "the model-free summarizer: which messages are requests, work done, failures",
  "src/host/chat/chat-dto.ts": "which entries are rows of the chat",
  "webview/chat/chat-message.tsx": "how the chat lays each role out (its words come with the message)",
  "webview/chat/chat-window.ts": "how tall each role's row is estimated",
  "webview/chat/chat-announcer.ts": "what a screen reader is told as messages arrive",
};

/** Entry types, message roles and kinds ("message" itself says nothing about which kind). */
const VOCABULARY = new Set<string>([...ENTRY_TYPES, ...MESSAGE_ROLES, ...ENTRY_KINDS].filter((w) => w !== "message"));

function* sources(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (/\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith(".d.ts")) yield p;
  }
}

function literal(n: ts.Node): string | undefined {
  return ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) ? n.text : undefined;
}

function kindsIn(words: (string | undefined)[]): string[] {
  return words.filter((w): w is string => w !== undefined && VOCABULARY.has(w));
}

/**
 * Where a file tells entry kinds apart: a `switch` with two or more kinds among its cases, an object literal with
 * three or more kinds among its keys, an array with three or more kinds among its items.
 */
function kindSwitches(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (n: ts.Node): string => `line ${source.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  const visit = (n: ts.Node): void => {
    if (ts.isSwitchStatement(n)) {
      const cases = n.caseBlock.clauses.map((c) => (ts.isCaseClause(c) ? literal(c.expression) : undefined));
      const kinds = kindsIn(cases);
      if (kinds.length >= 2) found.push(`${at(n)}: switch (${n.expression.getText()}) over ${kinds.join(", ")}`);
    } else if (ts.isObjectLiteralExpression(n)) {
      const keys = n.properties.map((p) =>
        p.name !== undefined && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined,
      );
      const kinds = kindsIn(keys);
      if (kinds.length >= 3) found.push(`${at(n)}: a table keyed by ${kinds.join(", ")}`);
    } else if (ts.isArrayLiteralExpression(n)) {
      const kinds = kindsIn(n.elements.map(literal));
      if (kinds.length >= 3) found.push(`${at(n)}: a list of ${kinds.join(", ")}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

function allowed(rel: string): boolean {
  return Object.keys(ALLOWED).some((a) => (a.endsWith("/") ? rel.startsWith(a) : rel === a));
}

test("no switch over entry kinds outside the entry view and the files allowed one", () => {
  const offenders: string[] = [];
  const used = new Set<string>();
  for (const dir of ["src", "webview"])
    for (const file of sources(path.join(ROOT, dir))) {
      const rel = path.relative(ROOT, file).split(path.sep).join("/");
      const found = kindSwitches(rel, fs.readFileSync(file, "utf8"));
      if (found.length === 0) continue;
      if (allowed(rel)) {
        used.add(Object.keys(ALLOWED).find((a) => (a.endsWith("/") ? rel.startsWith(a) : rel === a)) ?? rel);
        continue;
      }
      offenders.push(...found.map((f) => `${rel} ${f}`));
    }
  assert.deepEqual(
    offenders,
    [],
    "What an entry says belongs to src/core/entries/ (entry-view.ts, kind-words.ts, row-words.ts). Word the kind " +
      "there and read it from the view; or, if this file tells kinds apart for another reason, add it to ALLOWED " +
      "with that reason.",
  );
  const stale = Object.keys(ALLOWED).filter((a) => !used.has(a));
  assert.deepEqual(stale, [], "an allowed file with no switch over kinds left: take it off the list");
});

test("the check sees a second way: a switch over roles, a table of words by kind", () => {
  const found = kindSwitches(
    "x.ts",
    `function title(m: { role: string }) {
       switch (m.role) { case "user": return "You"; case "assistant": return "AI"; default: return ""; }
     }
     const ICONS = { user: "account", toolResult: "tools", compaction: "fold" };
     const PROSE = new Set(["user", "custom_message", "branch_summary"]);
     switch (x.kind) { case "turn": break; case "compaction": break; }`,
  );
  assert.deepEqual(found, [
    "line 2: switch (m.role) over user, assistant",
    "line 4: a table keyed by user, toolResult, compaction",
    "line 5: a list of user, custom_message, branch_summary",
  ]);
});
