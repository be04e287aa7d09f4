/**
 * Pure tests of the tree index, filters, search and flattening (no browser).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { TreeFilter } from "../../src/shared/protocol.js";
import { encodeTreeRows } from "../../src/core/rows/row-columns.js";
import type { TreeRow } from "../../src/core/rows/tree-row.js";
import { CONTEXT, SHOWN, computeVisibility, queryTokens } from "../../webview/tree/tree-filter.js";
import {
  FIRST_IN_BRANCH,
  FOLDABLE,
  MAX_INDENT,
  flatten,
  guideText,
  type FlatRows,
} from "../../webview/tree/tree-flatten.js";
import { TreeIndex } from "../../webview/tree/tree-index.js";
import { treeRow } from "./tree-fixtures.js";

/** An index of row objects, as the webview builds it from a snapshot of them. */
function indexOf(rows: readonly TreeRow[], leafId: string | null): TreeIndex {
  return new TreeIndex(encodeTreeRows(rows), leafId);
}

function display(
  index: TreeIndex,
  filter: TreeFilter = "default",
  query = "",
  folded: string[] = [],
): { rows: FlatRows; lines: string[]; ids: string[] } {
  const vis = computeVisibility(index, filter, queryTokens(query));
  const folds = new Set(folded.map((id) => index.idToIdx.get(id) as number));
  const rows = flatten(index, vis, folds, queryTokens(query).length > 0);
  const lines: string[] = [];
  const ids: string[] = [];
  for (let r = 0; r < rows.count; r++) {
    const d = index.node(rows.node[r]);
    const g = guideText(rows, r);
    lines.push(`${g.deep ? "…" : ""}${g.text}${d.id}`);
    ids.push(d.id);
  }
  return { rows, lines, ids };
}

/** The spec's example tree: a branch after the first assistant reply. */
function specTree(): TreeRow[] {
  return [
    treeRow("u1", null, "user"),
    treeRow("a1", "u1", "assistant"),
    treeRow("u2", "a1", "user"),
    treeRow("a2", "u2", "assistant"),
    treeRow("c1", "a2", "compaction", { tokens: 12000 }),
    treeRow("u3", "c1", "user"),
    treeRow("u4", "a1", "user"),
    treeRow("a4", "u4", "assistant"),
  ];
}

test("single-child chains stay flat and only branch points indent, with connectors", () => {
  const idx = indexOf(specTree(), "u3");
  const { lines } = display(idx);
  assert.deepEqual(lines, ["u1", "a1", "├─ u2", "│  a2", "│  c1", "│  u3", "└─ u4", "   a4"]);
});

test("children are ordered oldest first whatever the file order", () => {
  const late = treeRow("late", "root", "user");
  const early = { ...treeRow("early", "root", "user"), timestamp: "2020-01-01T00:00:00.000Z" };
  const idx = indexOf([treeRow("root", null, "user"), late, early], null);
  assert.deepEqual(display(idx).ids, ["root", "early", "late"]);
});

test("several roots sit under a virtual root with connectors; orphans count as roots", () => {
  const idx = indexOf(
    [treeRow("r1", null, "user"), treeRow("r2", null, "user"), treeRow("o", "missing", "user", { orphan: true })],
    null,
  );
  assert.deepEqual(display(idx).lines, ["├─ r1", "├─ r2", "└─ o"]);
});

test("the default filter hides pi's bookkeeping entries; their children attach to the nearest visible ancestor", () => {
  const nodes = [
    treeRow("u1", null, "user"),
    treeRow("m", "u1", "model_change"),
    treeRow("t", "m", "thinking_level_change"),
    treeRow("l", "t", "label"),
    treeRow("c", "l", "custom"),
    treeRow("s", "c", "session_info"),
    treeRow("a1", "s", "assistant"),
  ];
  const idx = indexOf(nodes, "a1");
  assert.deepEqual(display(idx).lines, ["u1", "a1"]);
  assert.deepEqual(display(idx, "all").ids, ["u1", "m", "t", "l", "c", "s", "a1"]);
});

test("pi 1.5's entries: usage rows only in 'all' (even labelled); context edits and system prompts as bookkeeping", () => {
  const nodes = [
    treeRow("s", null, "system"),
    treeRow("u1", "s", "user"),
    treeRow("w", "u1", "usage", { label: "warm-up" }),
    treeRow("e", "w", "context_edit"),
    treeRow("a1", "e", "assistant"),
  ];
  const idx = indexOf(nodes, "a1");
  for (const filter of ["default", "no-tools", "user-only", "labeled-only"] as const)
    assert.equal(display(idx, filter).ids.includes("w"), false, filter);
  assert.deepEqual(display(idx).ids, ["u1", "a1"]);
  assert.deepEqual(display(idx, "all").ids, ["s", "u1", "w", "e", "a1"]);
});

test("no-tools hides tool results; tool-call-only assistant turns are hidden unless they are the leaf", () => {
  const nodes = [
    treeRow("u1", null, "user"),
    treeRow("a1", "u1", "assistant", { toolCallsOnly: true, toolName: "read" }),
    treeRow("t1", "a1", "toolResult", { toolName: "read" }),
    treeRow("a2", "t1", "assistant"),
    treeRow("a3", "a2", "assistant", { toolCallsOnly: true }),
  ];
  const idx = indexOf(nodes, "a3");
  assert.deepEqual(display(idx).ids, ["u1", "t1", "a2", "a3"]);
  assert.deepEqual(display(idx, "no-tools").ids, ["u1", "a2", "a3"]);
  idx.setLeaf("a2");
  assert.deepEqual(display(idx).ids, ["u1", "t1", "a2"]);
  assert.deepEqual(display(idx, "all").ids, ["u1", "a1", "t1", "a2", "a3"]);
});

test("user-only and labeled-only filters", () => {
  const nodes = [
    treeRow("u1", null, "user"),
    treeRow("a1", "u1", "assistant", { label: "checkpoint" }),
    treeRow("u2", "a1", "user"),
  ];
  const idx = indexOf(nodes, "u2");
  assert.deepEqual(display(idx, "user-only").ids, ["u1", "u2"]);
  assert.deepEqual(display(idx, "labeled-only").ids, ["a1"]);
  idx.setLabels([{ id: "a1" }, { id: "u2", label: "x" }]);
  assert.deepEqual(display(idx, "labeled-only").ids, ["u2"]);
});

test("search needs every token (case-insensitive) in role, label, preview or tool name; hits keep their path", () => {
  const nodes = [
    treeRow("u1", null, "user", { preview: "Refactor the parser" }),
    treeRow("a1", "u1", "assistant", { preview: "Sure, reading files" }),
    treeRow("t1", "a1", "toolResult", { toolName: "grep", preview: "parser.ts:12" }),
    treeRow("u2", "t1", "user", { preview: "now the LEXER please", label: "lexer-work" }),
    treeRow("u3", "a1", "user", { preview: "unrelated" }),
  ];
  const idx = indexOf(nodes, "u2");
  assert.deepEqual(display(idx, "default", "grep parser").ids, ["u1", "a1", "t1"]);
  const vis = computeVisibility(idx, "default", queryTokens("GREP Parser"));
  assert.equal(vis[idx.idToIdx.get("t1") as number], SHOWN);
  assert.equal(vis[idx.idToIdx.get("a1") as number], CONTEXT);
  assert.deepEqual(display(idx, "default", "user lexer-work").ids, ["u1", "a1", "t1", "u2"]);
  assert.deepEqual(display(idx, "default", "parser nomatch").ids, []);
  // Folds are opened for display while searching.
  assert.deepEqual(display(idx, "default", "unrelated", ["a1"]).ids, ["u1", "a1", "u3"]);
});

test("folding hides a branch's descendants and marks rows foldable", () => {
  const idx = indexOf(specTree(), "u3");
  const open = display(idx);
  const a1Row = open.ids.indexOf("a1");
  assert.ok((open.rows.flags[a1Row] & FOLDABLE) !== 0, "branch point is foldable");
  const u2Row = open.ids.indexOf("u2");
  assert.ok((open.rows.flags[u2Row] & FIRST_IN_BRANCH) !== 0);
  assert.deepEqual(display(idx, "default", "", ["u2"]).ids, ["u1", "a1", "u2", "u4", "a4"]);
  assert.deepEqual(display(idx, "default", "", ["a1"]).ids, ["u1", "a1"]);
});

test("indentation is capped; deeper rows carry a depth marker", () => {
  // A ladder: every level branches into a short side leaf and the continuing chain.
  const nodes: TreeRow[] = [treeRow("d0", null, "user")];
  for (let i = 1; i <= MAX_INDENT + 4; i++) {
    nodes.push(treeRow(`d${i}`, `d${i - 1}`, "user"));
    nodes.push(treeRow(`s${i}`, `d${i - 1}`, "user"));
  }
  const idx = indexOf(nodes, null);
  const { rows, ids } = display(idx);
  const deepest = ids.indexOf(`d${MAX_INDENT + 4}`);
  const g = guideText(rows, deepest);
  assert.equal(rows.level[deepest], MAX_INDENT + 4);
  assert.ok(g.deep);
  assert.equal(g.text.length, MAX_INDENT * 3);
  assert.equal(g.levels, MAX_INDENT);
  assert.ok(!guideText(rows, ids.indexOf("d2")).deep);
});

test("appends extend the index in place and keep timestamp order", () => {
  const idx = indexOf(specTree(), "u3");
  idx.append(
    encodeTreeRows([
      treeRow("a3", "u3", "assistant"),
      { ...treeRow("old", "a1", "user"), timestamp: "2000-01-01T00:00:00.000Z" },
    ]),
  );
  idx.setLeaf("a3");
  const { lines } = display(idx);
  assert.deepEqual(lines, ["u1", "a1", "├─ old", "├─ u2", "│  a2", "│  c1", "│  u3", "│  a3", "└─ u4", "   a4"]);
  assert.equal(idx.onPath[idx.idToIdx.get("u1") as number], 1);
  assert.equal(idx.onPath[idx.idToIdx.get("u4") as number], 0);
});

test("parent cycles and self-parents do not hang and still show every node", () => {
  const nodes = [treeRow("x", "y", "user"), treeRow("y", "x", "user"), treeRow("z", "z", "user")];
  const idx = indexOf(nodes, "x");
  assert.equal(display(idx).ids.length, 3);
});

test("a duplicated id keeps its first occurrence and is shown once", () => {
  const nodes = [
    treeRow("u1", null, "user"),
    treeRow("a1", "u1", "assistant"),
    { ...treeRow("a1", "u1", "assistant"), preview: "dup" },
  ];
  const idx = indexOf(nodes, "a1");
  const { ids } = display(idx, "all");
  assert.deepEqual(ids, ["u1", "a1"]);
  assert.equal(idx.node(idx.idToIdx.get("a1") as number).preview, "assistant a1");
});

test("children are sorted by timestamp when the columns say file order is not their order", () => {
  const late = { ...treeRow("late", "root", "user"), timestamp: "2026-01-01T00:00:09.000Z" };
  const early = { ...treeRow("early", "root", "user"), timestamp: "2026-01-01T00:00:01.000Z" };
  const cols = encodeTreeRows([treeRow("root", null, "user"), late, early]);
  assert.notEqual(cols.order, undefined);
  assert.deepEqual(display(new TreeIndex(cols, null), "all").ids, ["root", "early", "late"]);
});

test("labels, filters and search read the columns; many appends grow the arrays", () => {
  const idx = indexOf(specTree(), "u3");
  idx.setLabels([{ id: "a1", label: "Checkpoint" }]);
  assert.deepEqual(display(idx, "labeled-only").ids, ["a1"]);
  assert.ok(idx.search(idx.idToIdx.get("a1") as number).includes("checkpoint"));
  assert.equal(idx.node(idx.idToIdx.get("a1") as number).label, "Checkpoint");
  idx.setLabels([{ id: "a1" }]);
  assert.deepEqual(display(idx, "labeled-only").ids, []);
  let parent = "u3";
  const added = Array.from({ length: 100 }, (_, k) => {
    const d = {
      ...treeRow(`x${k}`, parent, "user"),
      timestamp: `2026-01-02T00:00:${String(k % 60).padStart(2, "0")}.${String(k).padStart(3, "0")}Z`,
    };
    parent = d.id;
    return d;
  });
  idx.append(encodeTreeRows(added));
  idx.setLeaf("x99");
  assert.equal(idx.size, specTree().length + 100);
  assert.equal(idx.onPath[idx.idToIdx.get("x50") as number], 1);
  assert.deepEqual(
    display(idx, "user-only").ids.filter((id) => id.startsWith("x")),
    added.map((d) => d.id),
  );
});

test("column search finds exactly what per-node search text finds", () => {
  let seed = 7;
  const rand = (k: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % k;
  };
  const words = ["alpha", "Beta", "gamma", "TOOL", "read", "bash", "ünï", "x", "🌲", "<b>&amp;"];
  const kinds: TreeRow["kind"][] = ["user", "assistant", "toolResult", "branch_summary", "model_change"];
  const nodes: TreeRow[] = [];
  for (let i = 0; i < 300; i++) {
    const len = rand(60);
    const text = Array.from({ length: len }, () => words[rand(words.length)]).join(rand(2) ? " " : "");
    nodes.push(
      treeRow(`m${i}`, i === 0 ? null : `m${rand(i)}`, kinds[rand(kinds.length)], {
        preview: text,
        ...(rand(3) === 0 ? { toolName: words[rand(words.length)] } : {}),
        ...(rand(10) === 0 ? { label: words[rand(words.length)] } : {}),
      }),
    );
  }
  const idx = indexOf(nodes, "m5");
  idx.append(encodeTreeRows([treeRow("late", "m3", "user", { preview: "gamma late" })]));
  idx.setLabels([{ id: "m7", label: "Special" }]);
  const queries = [
    "alpha",
    "beta gamma",
    "tool",
    "ead",
    "aalpha",
    "summary",
    "model",
    "special",
    "ünï x",
    "🌲 gamma",
    "<b>",
    "gamma late",
    "zz",
  ];
  for (const q of queries) {
    const tokens = queryTokens(q);
    const fast = idx.matchAll(tokens);
    for (let i = 0; i < idx.size; i++) {
      const slow = tokens.every((t) => idx.search(i).includes(t)) ? 1 : 0;
      assert.equal(fast[i], slow, `${q} at ${idx.id(i)}`);
    }
  }
});

test("an id holding a lone surrogate is found, linked and made the leaf like any other", () => {
  const odd = "n\ud800";
  const idx = indexOf([treeRow("r", null, "user"), treeRow(odd, "r", "assistant"), treeRow("c", odd, "user")], odd);
  assert.equal(idx.id(1), odd);
  assert.equal(idx.idToIdx.get(odd), 1);
  assert.equal(idx.leaf, 1);
  assert.equal(idx.parent[2], 1);
  idx.append(encodeTreeRows([treeRow("d", odd, "user")]));
  assert.equal(idx.parent[idx.idToIdx.get("d") as number], 1);
});
