/**
 * The parallel scan (parallel-scan.ts: this thread from the start, a worker from the end, piece by piece) must give
 * what the one-thread scan gives, field by field: on random sessions — damaged ones too (repeated ids, parents
 * later or nowhere, glued lines, torn last lines, lines that are not JSON, long lines the scanner stops reading
 * early) — cut into pieces of any size, strict or not; and when the worker cannot start, fails, or stops
 * delivering, the caller scans its pieces and no line is lost.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import * as esbuild from "esbuild";
import fc from "fast-check";
import type { EntryMeta } from "../../../src/core/session/entry-meta.js";
import {
  configureParallelScan,
  ScanHelper,
  type ParallelScanSettings,
} from "../../../src/core/session/parallel-scan.js";
import {
  scanFileWithHelper,
  scanSessionFile,
  type ScanOptions,
  type ScanResult,
} from "../../../src/core/session/session-scan.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import type { LazyTreeNode } from "../../../src/core/session/tree-node.js";
import { tempDir } from "../../util/temp-dir.js";

const ID_POOL = ["a0", "b1", "c2", "d3", "e4", "f5", "g6", "h7", "i8", "j9", "k10", "l11", "m12", "n13"];
const KINDS = [
  "user",
  "assistant",
  "toolCalls",
  "failed",
  "toolResult",
  "longResult",
  "parsedAssistant",
  "compaction",
  "modelChange",
  "label",
  "sessionInfo",
  "leafMarker",
  "notJson",
  "noMessage",
] as const;

interface Spec {
  id: string;
  parent: string | null;
  kind: (typeof KINDS)[number];
  minute: number;
  /** Glue this line onto the next one (no newline between them). */
  glue: boolean;
  /** Text length (long lines go past the scanner's early stop). */
  size: number;
}

const usage = {
  input: 10,
  output: 20,
  cacheRead: 3,
  cacheWrite: 4,
  totalTokens: 37,
  cost: { input: 0.001, total: 0.0036 },
};

function lineOf(s: Spec): string {
  const base = { id: s.id, parentId: s.parent, timestamp: new Date(Date.UTC(2025, 0, 1, 0, s.minute)).toISOString() };
  const text = `${s.kind} ${s.id} ✓ `.padEnd(s.size, "lorem ipsum ");
  const message = (m: Record<string, unknown>): string => JSON.stringify({ type: "message", ...base, message: m });
  switch (s.kind) {
    case "user":
      return message({ role: "user", content: text, timestamp: 1_700_000_000_000 + s.minute });
    case "assistant":
      return message({
        role: "assistant",
        content: [{ type: "text", text }],
        provider: "p",
        model: `m${s.minute % 2}`,
        usage,
        stopReason: "stop",
        timestamp: 0,
      });
    case "toolCalls":
      return message({
        role: "assistant",
        content: [{ type: "toolCall", id: "t", name: "grep", arguments: { q: text } }],
        provider: "p",
        model: "m0",
        stopReason: "toolUse",
        timestamp: 0,
      });
    case "failed":
      return message({ role: "assistant", content: [], stopReason: "error", errorMessage: text, timestamp: 0 });
    case "toolResult":
    case "longResult":
      return message({
        role: "toolResult",
        toolCallId: "t",
        toolName: "read",
        content: [{ type: "text", text: s.kind === "longResult" ? text.repeat(8) : text }],
        isError: false,
        timestamp: 0,
      });
    case "parsedAssistant":
      // A key order the entry scanner leaves to JSON.parse (its meta is then made from the parsed object).
      return JSON.stringify({
        message: { usage: { ...usage, reasoning: 5 }, role: "assistant", content: text, provider: "q", model: "z" },
        type: "message",
        ...base,
      });
    case "compaction":
      return JSON.stringify({ type: "compaction", ...base, summary: text, firstKeptEntryId: "c2", tokensBefore: 999 });
    case "modelChange":
      return JSON.stringify({ type: "model_change", ...base, provider: "p", modelId: "m1" });
    case "label":
      return JSON.stringify({ type: "label", ...base, targetId: s.parent ?? "a0", label: `L ${s.id}` });
    case "sessionInfo":
      return JSON.stringify({ type: "session_info", ...base, name: `name ${s.id}` });
    case "leafMarker":
      return JSON.stringify({ type: "custom", ...base, customType: "agent-tree.leaf", data: { targetId: "b1" } });
    case "notJson":
      return `{"type":"message","id":"${s.id}",`;
    case "noMessage":
      return JSON.stringify({ type: "message", ...base, message: null });
  }
}

const specArb: fc.Arbitrary<Spec> = fc.record({
  id: fc.constantFrom(...ID_POOL),
  parent: fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 6, arbitrary: fc.constantFrom(...ID_POOL) },
    { weight: 1, arbitrary: fc.constant("nobody") },
  ),
  kind: fc.constantFrom(...KINDS, "user", "assistant", "toolResult"),
  minute: fc.integer({ min: 0, max: 5 }),
  glue: fc.integer({ min: 0, max: 6 }).map((n) => n === 0),
  size: fc.constantFrom(10, 300, 5000),
});

function fileText(specs: Spec[], torn: number): string {
  let text = `${JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/" })}\n`;
  specs.forEach((s, k) => {
    text += lineOf(s);
    if (!s.glue || k === specs.length - 1) text += "\n";
  });
  // A torn last write: part of one more entry, no newline.
  if (torn > 0)
    text += lineOf({ id: "zz", parent: null, kind: "user", minute: 0, glue: false, size: 10 }).slice(0, torn);
  return text;
}

/** A linear session of `count` user and assistant messages of `size` characters. */
function chain(count: number, size: number): Spec[] {
  return Array.from({ length: count }, (_, k) => ({
    id: `e${k}`,
    parent: k === 0 ? null : `e${k - 1}`,
    kind: k % 2 === 0 ? "user" : "assistant",
    minute: k % 5,
    glue: false,
    size,
  }));
}

/** EntryMeta's fields, read by name (a meta may be a class). */
function metaFields(m: EntryMeta): Record<string, unknown> {
  return {
    model: m.model,
    usage: m.usage,
    thinkingLevel: m.thinkingLevel,
    labelTarget: m.labelTarget,
    label: m.label,
    markerTarget: m.markerTarget,
    archive: m.archive,
    firstKeptEntryId: m.firstKeptEntryId,
    name: m.name,
  };
}

/** The two scans' results, field by field. */
function assertSameScan(got: ScanResult, want: ScanResult): void {
  for (const key of ["header", "headerError", "issues", "fileSize", "tornOffset", "missingFinalNewline"] as const)
    assert.deepEqual(got[key], want[key], key);
  assert.equal(got.lineCount, want.lineCount, "lineCount");
  assert.equal(got.activity, want.activity, "activity");
  assert.equal(got.bodies, want.bodies, "bodies");
  const g = got.entries;
  const w = want.entries;
  assert.equal(g.length, w.length, "entry count");
  for (let i = 0; i < w.length; i++) {
    assert.deepEqual(g.envs[i], w.envs[i], `envelope ${i}`);
    assert.deepEqual(metaFields(g.metas[i]), metaFields(w.metas[i]), `meta ${i}`);
    assert.equal(g.offsets[i], w.offsets[i], `offset ${i}`);
    assert.equal(g.sizes[i], w.sizes[i], `size ${i}`);
    assert.equal(g.lines[i], w.lines[i], `line ${i}`);
  }
  assert.deepEqual([...g.byId], [...w.byId], "byId");
  for (const key of ["duplicates", "parents", "nullParents", "unlinked", "settings"] as const)
    assert.deepEqual(g[key], w[key], key);
}

describe("parallel scan", () => {
  const tmp = tempDir("agent-tree-parallel-scan-");
  const worker = join(tmp.dir, "scan-worker.mjs");
  let before_: ParallelScanSettings;
  before(async () => {
    // A bundle, as the extension and the bench load it (a TypeScript loader in every worker would take seconds).
    await esbuild.build({
      entryPoints: [join(__dirname, "..", "..", "..", "src", "core", "session", "scan-worker.ts")],
      outfile: worker,
      bundle: true,
      platform: "node",
      format: "esm",
      logLevel: "error",
    });
    before_ = configureParallelScan({});
  });
  after(() => {
    configureParallelScan(before_);
    tmp.cleanup();
  });

  /**
   * Scan `file` with one thread, then with the worker; both results. `hold`: the worker scans all it can before
   * this thread starts (every piece but the first; else this thread, quicker on a small file, may take them all).
   */
  function bothWays(
    file: string,
    opts: ScanOptions,
    settings: Partial<ParallelScanSettings>,
    hold = false,
  ): { one: ScanResult; two: ScanResult; workerPieces: number } {
    const o = { ...opts, parseShort: false };
    configureParallelScan({ workerScript: undefined });
    const one = scanSessionFile(file, o);
    configureParallelScan({ workerScript: worker, minBytes: 0, stallMs: 10_000, ...settings });
    try {
      if (!hold) return { one, two: scanSessionFile(file, o), workerPieces: 0 };
      const fd = fs.openSync(file, "r");
      try {
        const size = fs.fstatSync(fd).size;
        const helper = ScanHelper.start(fd, size, o);
        if (!helper) return { one, two: scanSessionFile(file, o), workerPieces: 0 };
        assert.ok(helper.settle(10_000), "the worker finished");
        return { one, two: scanFileWithHelper(fd, size, o, helper), workerPieces: helper.bounds.length - 2 };
      } finally {
        fs.closeSync(fd);
      }
    } finally {
      configureParallelScan({ workerScript: undefined });
    }
  }

  test("equals the one-thread scan on random damaged sessions, any piece size", () => {
    const file = join(tmp.dir, "random.jsonl");
    let glued = 0;
    let torn = 0;
    let failures = 0;
    let byWorker = 0;
    fc.assert(
      fc.property(
        fc.array(specArb, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 40, max: 6000 }),
        fc.constantFrom(64, 1000, 4096),
        fc.boolean(),
        fc.boolean(),
        (specs, tornBytes, pieceBytes, chunkBytes, strict, hold) => {
          fs.writeFileSync(file, fileText(specs, tornBytes));
          const { one, two, workerPieces } = bothWays(file, { chunkBytes, strict }, { pieceBytes }, hold);
          if (workerPieces > 0) byWorker++;
          if (one.issues.some((i) => i.reason.includes("on the same line"))) glued++;
          if (one.tornOffset !== undefined) torn++;
          if (one.issues.length > 0) failures++;
          assertSameScan(two, one);
        },
      ),
      { numRuns: 80, seed: 36 },
    );
    // The damage the test is about did happen.
    assert.ok(glued > 5, `glued lines in ${glued} runs`);
    assert.ok(torn > 5, `torn last lines in ${torn} runs`);
    assert.ok(failures > 20, `issues in ${failures} runs`);
    assert.ok(byWorker > 20, `pieces scanned by the worker in ${byWorker} runs`);
  });

  test("an old file stops after its header either way (minVersion), and an empty or header-only file scans", () => {
    const file = join(tmp.dir, "old.jsonl");
    const specs: Spec[] = ID_POOL.map((id, k) => ({
      id,
      parent: k === 0 ? null : ID_POOL[k - 1],
      kind: "user",
      minute: k % 5,
      glue: false,
      size: 300,
    }));
    fs.writeFileSync(file, fileText(specs, 0).replace('"version":3', '"version":1'));
    const { one, two } = bothWays(file, { minVersion: 3 }, { pieceBytes: 100 });
    assert.equal(one.entries.length, 0);
    assertSameScan(two, one);
    for (const text of ["", fileText([], 0)]) {
      fs.writeFileSync(file, text);
      const r = bothWays(file, {}, { pieceBytes: 10 });
      assertSameScan(r.two, r.one);
    }
  });

  test("a worker that cannot start or fails: its pieces are scanned here, nothing is lost", () => {
    const file = join(tmp.dir, "session.jsonl");
    fs.writeFileSync(file, fileText(chain(2000, 5000), 0));
    const throwing = join(tmp.dir, "throwing-worker.mjs");
    fs.writeFileSync(throwing, 'throw new Error("no scan here");\n');
    configureParallelScan({ workerScript: undefined });
    const one = scanSessionFile(file, { parseShort: false });
    assert.equal(one.entries.length, 2000);
    for (const script of [join(tmp.dir, "missing.mjs"), throwing]) {
      configureParallelScan({ workerScript: script, minBytes: 0, pieceBytes: 100_000 });
      try {
        assertSameScan(scanSessionFile(file, { parseShort: false }), one);
      } finally {
        configureParallelScan({ workerScript: undefined });
      }
    }
  });

  test("a worker that claims pieces and goes silent is given up on: its pieces are scanned here", () => {
    const file = join(tmp.dir, "session.jsonl");
    fs.writeFileSync(file, fileText(chain(400, 2000), 0));
    const claimed = join(tmp.dir, "claimed");
    // Claims the last piece (shared slot 2 + piece; 2: the worker's), says so, then stays without a word.
    const silent = join(tmp.dir, "silent-worker.mjs");
    fs.writeFileSync(
      silent,
      [
        'import { writeFileSync } from "node:fs";',
        'import { workerData } from "node:worker_threads";',
        "Atomics.compareExchange(workerData.shared, 2 + workerData.bounds.length - 2, 0, 2);",
        `writeFileSync(${JSON.stringify(claimed)}, "");`,
        "await new Promise((resolve) => setTimeout(resolve, 60_000).unref());",
      ].join("\n"),
    );
    configureParallelScan({ workerScript: undefined });
    const one = scanSessionFile(file, { parseShort: false });
    configureParallelScan({ workerScript: silent, minBytes: 0, pieceBytes: 50_000, stallMs: 200 });
    const fd = fs.openSync(file, "r");
    try {
      const size = fs.fstatSync(fd).size;
      const helper = ScanHelper.start(fd, size, { parseShort: false });
      assert.ok(helper);
      // The race held still: the worker has its piece before this thread starts.
      const wait = new Int32Array(new SharedArrayBuffer(4));
      for (let k = 0; k < 500 && !fs.existsSync(claimed); k++) Atomics.wait(wait, 0, 0, 10);
      assert.ok(fs.existsSync(claimed), "the worker claimed its piece");
      assertSameScan(scanFileWithHelper(fd, size, { parseShort: false }, helper), one);
    } finally {
      fs.closeSync(fd);
      configureParallelScan({ workerScript: undefined });
    }
  });

  test("a session opened with the worker is the session opened without it (orphans: the strict scan)", async () => {
    // Bigger than PARSE_FILE_MAX_BYTES: a file an open scans with the entry scanner only, as it does the big ones.
    const file = join(tmp.dir, "open.jsonl");
    const count = 3600;
    const ids = Array.from({ length: count }, (_, k) => `e${k}`);
    // A glued line the scanner stops reading early hides its second entry: the later entries are orphans, and the
    // open scans again with strict (through the parallel path too).
    const specs: Spec[] = ids.map((id, k) => ({
      id,
      parent: k === 0 ? null : ids[k - 1],
      kind: k === 3000 ? "longResult" : k % 2 === 0 ? "user" : "toolResult",
      minute: k % 5,
      glue: k === 3000,
      size: 5000,
    }));
    fs.writeFileSync(file, fileText(specs, 0));
    const opened = async (): Promise<unknown> => {
      const sm = await SessionManager.open(file, { readOnly: true });
      try {
        // The tree as rows (3,600 levels are too deep for a recursive comparison).
        const rows: unknown[] = [];
        const stack = [...sm.getTree()].reverse();
        for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
          const { envelope, label, orphan } = node as LazyTreeNode;
          rows.push({ envelope, label, orphan, kids: node.children.length });
          stack.push(...[...node.children].reverse());
        }
        return { rows, issues: sm.getLoadIssues(), context: sm.buildSessionContext() };
      } finally {
        await sm.close();
      }
    };
    configureParallelScan({ workerScript: undefined });
    const want = await opened();
    assert.ok(JSON.stringify(want).includes("on the same line"), "the glued line is reported");
    assert.ok(JSON.stringify(want).includes('"orphan":true') === false, "the strict scan found the hidden entry");
    configureParallelScan({ workerScript: worker, minBytes: 0, pieceBytes: 1_000_000 });
    try {
      assert.deepEqual(await opened(), want);
    } finally {
      configureParallelScan({ workerScript: undefined });
    }
  });
});
