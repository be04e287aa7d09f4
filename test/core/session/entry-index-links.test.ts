/**
 * The id map and parent links are made while the scan adds entries to the table (EntryTable.push), and
 * EntryIndex.build finishes them (parents later in the file, orphans, cycles, duplicates). On random damaged
 * sessions — repeated ids, parents that come later or nowhere, self-parents, cycles, glued lines, torn last
 * lines, lines that are not JSON, any chunk size, strict or not — the index must equal a reference built the
 * way the index was built before (a second pass over the table, after the scan), written here independently.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { EntryIndex } from "../../../src/core/session/entry-index.js";
import type { EntryTable } from "../../../src/core/session/entry-table.js";
import { scanSessionBytes } from "../../../src/core/session/session-scan.js";
import { compareSiblings, timeOf } from "../../../src/core/session/tree-shape.js";

const ID_POOL = ["a0", "b1", "c2", "d3", "e4", "f5", "g6", "h7", "i8", "j9", "k10", "l11"];

interface Spec {
  id: string;
  /** null, an id of the pool (earlier, later, missing or itself), or a name nobody has. */
  parent: string | null;
  kind: "user" | "assistant" | "label" | "session_info" | "notJson";
  minute: number;
  /** Glue this line onto the next one (no newline between them). */
  glue: boolean;
}

function lineOf(s: Spec): string {
  const base = { id: s.id, parentId: s.parent, timestamp: new Date(Date.UTC(2025, 0, 1, 0, s.minute)).toISOString() };
  switch (s.kind) {
    case "user":
      return JSON.stringify({
        type: "message",
        ...base,
        message: { role: "user", content: `u ${s.id}`, timestamp: 0 },
      });
    case "assistant":
      return JSON.stringify({
        type: "message",
        ...base,
        message: {
          role: "assistant",
          content: [{ type: "text", text: `a ${s.id}` }],
          provider: "p",
          model: "m",
          usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3 },
          stopReason: "stop",
          timestamp: 0,
        },
      });
    case "label":
      return JSON.stringify({ type: "label", ...base, targetId: s.parent ?? "a0", label: `L ${s.id}` });
    case "session_info":
      return JSON.stringify({ type: "session_info", ...base, name: `name ${s.id}` });
    case "notJson":
      return `{"type":"message","id":"${s.id}",`;
  }
}

const specArb: fc.Arbitrary<Spec> = fc.record({
  id: fc.constantFrom(...ID_POOL),
  parent: fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 6, arbitrary: fc.constantFrom(...ID_POOL) },
    { weight: 1, arbitrary: fc.constant("nobody") },
  ),
  kind: fc.constantFrom("user", "user", "assistant", "assistant", "label", "session_info", "notJson"),
  minute: fc.integer({ min: 0, max: 5 }),
  glue: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
});

function fileOf(specs: Spec[], torn: number): Buffer {
  let text = `${JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/" })}\n`;
  specs.forEach((s, k) => {
    text += lineOf(s);
    if (!s.glue || k === specs.length - 1) text += "\n";
  });
  // A torn last write: part of one more entry, no newline.
  if (torn > 0) text += lineOf({ id: "zz", parent: null, kind: "user", minute: 0, glue: false }).slice(0, torn);
  return Buffer.from(text);
}

interface Reference {
  positionOf: Map<string, number>;
  parents: number[];
  roots: number[];
  orphans: Set<number>;
  duplicates: { id: string; line: number }[];
  cycleRoots: number[];
  labels: Map<string, string>;
  sessionName: string | undefined;
}

/** The index as the old build made it: dedupe (first line wins), then one pass for ids and one for parents. */
function reference(table: EntryTable): Reference {
  const keep: number[] = [];
  const seen = new Set<string>();
  const duplicates: { id: string; line: number }[] = [];
  for (let i = 0; i < table.length; i++) {
    const id = table.envs[i].id;
    if (seen.has(id)) duplicates.push({ id, line: table.lines[i] });
    else {
      seen.add(id);
      keep.push(i);
    }
  }
  const envs = keep.map((i) => table.envs[i]);
  const metas = keep.map((i) => table.metas[i]);
  const positionOf = new Map(envs.map((e, i) => [e.id, i]));
  const parents = envs.map((e, i) => {
    const at = e.parentId === null ? undefined : positionOf.get(e.parentId);
    return at === undefined || at === i ? -1 : at;
  });
  const orphans = new Set<number>();
  envs.forEach((e, i) => {
    if (e.parentId !== null && parents[i] < 0) orphans.add(i);
  });
  // Cycles: an entry whose walk up comes back to it; each cycle is broken at its entry first in the file.
  const onCycle = new Set<number>();
  for (let i = 0; i < envs.length; i++) {
    let k = parents[i];
    for (let steps = 0; k >= 0 && k !== i && steps <= envs.length; steps++) k = parents[k];
    if (k === i) onCycle.add(i);
  }
  const cycleRoots: number[] = [];
  for (const i of onCycle) {
    let min = i;
    for (let k = parents[i]; k !== i; k = parents[k]) min = Math.min(min, k);
    if (min === i) cycleRoots.push(i);
  }
  for (const r of cycleRoots) parents[r] = -1;
  const roots = envs.map((_, i) => i).filter((i) => parents[i] < 0);
  const time = (i: number): number => timeOf(envs[i].timestamp);
  roots.sort((a, b) => compareSiblings(time(a), a, time(b), b));
  const labels = new Map<string, string>();
  let sessionName: string | undefined;
  metas.forEach((m, i) => {
    if (m.labelTarget !== undefined) {
      if (m.label !== undefined) labels.set(m.labelTarget, m.label);
      else labels.delete(m.labelTarget);
    }
    if (envs[i].type === "session_info") sessionName = m.name;
  });
  return {
    positionOf,
    parents,
    roots,
    orphans,
    duplicates,
    cycleRoots: cycleRoots.sort((a, b) => a - b),
    labels,
    sessionName,
  };
}

describe("entry links made during the scan", () => {
  test("the index equals the two-pass reference on random damaged sessions", () => {
    let withDuplicates = 0;
    let withCycles = 0;
    let withOrphans = 0;
    let withForward = 0;
    fc.assert(
      fc.property(
        fc.array(specArb, { maxLength: 30 }),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom(64, 200, 4096),
        fc.boolean(),
        (specs, torn, chunkBytes, strict) => {
          const scan = scanSessionBytes(fileOf(specs, torn), { chunkBytes, strict });
          const ref = reference(scan.entries);
          const { index, duplicates, cycles } = EntryIndex.build(scan.entries);
          if (ref.duplicates.length > 0) withDuplicates++;
          if (ref.cycleRoots.length > 0) withCycles++;
          if (ref.orphans.size > 0) withOrphans++;
          if (ref.parents.some((p, i) => p > i)) withForward++;

          assert.deepEqual(duplicates, ref.duplicates);
          assert.equal(index.count, ref.parents.length);
          for (const [id, at] of ref.positionOf) assert.equal(index.positionOf(id), at, `position of ${id}`);
          assert.deepEqual([...index.rootPositions()], ref.roots);
          assert.equal(index.hasOrphans(), ref.orphans.size > 0);
          assert.deepEqual(
            cycles.map((c) => index.positionOf(c.ids[0])),
            ref.cycleRoots,
          );
          for (let i = 0; i < index.count; i++) {
            const env = index.env(i);
            assert.equal(env.orphan === true, ref.orphans.has(i) || ref.cycleRoots.includes(i), `orphan flag of ${i}`);
            // The path names each parent: it equals the reference's walk up.
            const want: number[] = [];
            for (let k = i; k >= 0; k = ref.parents[k]) want.push(k);
            assert.deepEqual(index.pathTo(env.id), want.reverse(), `path to ${env.id}`);
            const kids = ref.parents.map((p, k) => (p === i ? k : -1)).filter((k) => k >= 0);
            assert.deepEqual(
              [...index.kidsAt(i)].sort((a, b) => a - b),
              kids,
              `children of ${i}`,
            );
          }
          assert.deepEqual([...index.labels], [...ref.labels]);
          assert.equal(index.sessionName, ref.sessionName);
        },
      ),
      { numRuns: 400, seed: 35 },
    );
    // The damage the test is about did happen.
    assert.ok(withDuplicates > 20, `duplicates in ${withDuplicates} runs`);
    assert.ok(withCycles > 5, `cycles in ${withCycles} runs`);
    assert.ok(withOrphans > 20, `orphans in ${withOrphans} runs`);
    assert.ok(withForward > 20, `forward parents in ${withForward} runs`);
  });

  test("entries added after the build link to their parents and keep the map", () => {
    const specs: Spec[] = [
      { id: "a0", parent: null, kind: "user", minute: 0, glue: false },
      { id: "b1", parent: "a0", kind: "assistant", minute: 1, glue: false },
    ];
    const { index } = EntryIndex.build(scanSessionBytes(fileOf(specs, 0)).entries);
    const env = { ...index.env(1), id: "c2", parentId: "a0" };
    const i = index.add(env, index.meta(1), 0, 0, 0);
    assert.equal(index.positionOf("c2"), i);
    assert.deepEqual(index.pathTo("c2"), [0, i]);
    assert.deepEqual([...index.kidsAt(0)], [1, i]);
    const root = index.add({ ...env, id: "d3", parentId: null }, index.meta(0), 0, 0, 0);
    assert.deepEqual([...index.rootPositions()], [0, root]);
  });
});
