import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { claudeProjectDirs } from "../../../src/core/import/claude-paths.js";
import { importClaudeTranscript } from "../../../src/core/import/claude-session.js";
import { CHUNK_BYTES } from "../../../src/core/search/line-scan.js";
import { findSearchTargets } from "../../../src/core/search/search-targets.js";
import { SessionSearch, type SearchOutcome } from "../../../src/core/search/session-search.js";
import type { SearchTarget, SessionSearchHit } from "../../../src/core/search/types.js";
import { defaultSessionDir } from "../../../src/core/session/paths.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { CWD as SUBAGENT_CWD, writeSession as writeSubagentSession } from "../import/claude-subagent-fixtures.js";
import { assistant, jsonl, SessionBuilder, toolResult, user, writeLines } from "../../util/session-builder.js";
import { tempDir } from "../../util/temp-dir.js";

const WORKER_TSX = join(__dirname, "..", "..", "util", "search-worker-tsx.mjs");
const SLOW_STOP_WORKER = join(__dirname, "..", "..", "util", "slow-stop-search-worker.mjs");
const FIXTURES = join(__dirname, "..", "..", "fixtures", "claude");

let tmp: string;
before(() => {
  tmp = tempDir("agent-tree-search-").dir;
});
after(() => rmSync(tmp, { recursive: true, force: true }));

/** A folder of its own per test. */
function folder(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A pi target for one file. */
function piTarget(path: string, source: SearchTarget["source"] = "workspace"): SearchTarget {
  const st = statSync(path);
  return { source, format: "pi", path, files: [path], bytes: st.size, mtimeMs: st.mtimeMs };
}

async function search(
  query: string,
  targets: readonly SearchTarget[],
  options: {
    workerScript?: string;
    signal?: AbortSignal;
    maxHits?: number;
    onHit?: (h: SessionSearchHit) => void;
  } = {},
): Promise<{ hits: SessionSearchHit[]; outcome: SearchOutcome }> {
  const s = new SessionSearch({ workerScript: options.workerScript, workers: 2 });
  const hits: SessionSearchHit[] = [];
  try {
    const outcome = await s.search(
      query,
      targets,
      (h) => {
        hits.push(h);
        options.onHit?.(h);
      },
      { signal: options.signal, maxHits: options.maxHits },
    );
    return { hits, outcome };
  } finally {
    await s.dispose();
  }
}

/** Each query of `cases` finds exactly its entry ids, in order, in one pi file. */
async function expectHits(file: string, cases: [query: string, ids: string[]][]): Promise<void> {
  for (const [query, ids] of cases)
    assert.deepEqual(
      (await search(query, [piTarget(file)])).hits.map((h) => h.entryId),
      ids,
      query,
    );
}

/**
 * u1 → a1 → u2 (zanzibar, abandoned) → a2
 *         ↘ u3 (labelled "plan B") → a3 (the leaf: the file's last entry)
 */
function branchedSession(dir: string): string {
  const s = new SessionBuilder({ id: "s-branched" }).header();
  s.message(user("How should the sync work?"), "u1");
  s.message(assistant("Two options: a relay or a queue."), "a1");
  s.message(user("Route it through the zanzibar relay."), "u2");
  s.message(assistant("Relay wired up."), "a2");
  s.message(user("Use the queue instead."), { id: "u3", parentId: "a1" });
  s.label("u3", "plan B", "l1");
  s.message(assistant("Queue wired up; the relay is gone."), "a3");
  return s.write(dir, "branched.jsonl");
}

describe("searching one pi session", () => {
  test("finds a word only an abandoned branch holds, and names the branch it is on", async () => {
    const file = branchedSession(folder("abandoned"));
    const { hits } = await search("ZANZIBAR", [piTarget(file)]);
    assert.equal(hits.length, 1);
    const [hit] = hits;
    assert.equal(hit.entryId, "u2");
    assert.equal(hit.path, file);
    assert.equal(hit.kind, "user");
    assert.equal(hit.sessionTitle, "How should the sync work?");
    assert.deepEqual(hit.branch, {
      active: false,
      firstUserMessageId: "u2",
      firstUserMessage: "Route it through the zanzibar relay.",
    });
    assert.equal(hit.snippet.text, "Route it through the zanzibar relay.");
    assert.deepEqual(hit.snippet.ranges, [[21, 29]]);

    // The active branch: named by its label; an assistant reply is on its user message's branch.
    const relay = (await search("relay", [piTarget(file)])).hits.map((h) => [
      h.entryId,
      h.branch.active,
      h.branch.label,
    ]);
    assert.deepEqual(relay, [
      ["a1", true, undefined],
      ["u2", false, undefined],
      ["a2", false, undefined],
      ["a3", true, "plan B"],
    ]);
  });

  test("every word must match, in the entry's text, label, kind words or tool names", async () => {
    const s = new SessionBuilder({ id: "s-words" }).header();
    s.message(user("Deploy the frontend to staging"), "u1");
    s.message(
      assistant("", [{ id: "call_bash", name: "bash", args: { command: "npm run deploy -- --env staging" } }]),
      "a1",
    );
    s.message(toolResult("deployed build 42 to staging", "bash", "call_bash"), "t1");
    s.message(assistant("Deployed."), "a2");
    s.label("u1", "milestone", "l1");
    const file = s.write(folder("words"), "words.jsonl");
    await expectHits(file, [
      ["deploy staging", ["u1", "a1", "t1"]],
      ["deploy frontend", ["u1"]],
      ["deploy nowhere", []],
      // Tool names and argument values; the kind's own words ("tool", "user").
      ["bash staging", ["a1", "t1"]],
      ["tool deployed", ["t1"]],
      ["user staging", ["u1"]],
      // A label supplies words too, whichever word the scan anchors on.
      ["milestone frontend", ["u1"]],
      ["frontend milestone", ["u1"]],
    ]);
    const [hit] = (await search("milestone", [piTarget(file)])).hits;
    assert.equal(hit.label, "milestone");
    assert.equal(hit.branch.label, "milestone");
  });

  test("escaped text matches: newlines, quotes, \\u escapes of any case, HTML, non-ASCII case", async () => {
    const dir = folder("escapes");
    const stamp = '"timestamp":"2026-01-05T09:00:00.000Z"';
    // Written by other JSON encoders: non-ASCII and HTML characters as \u escapes (Python, Go).
    const escaped = (id: string, text: string): string =>
      `{"type":"message","id":"${id}","parentId":null,${stamp},"message":{"role":"user","content":"${text}","timestamp":1}}`;
    const s = new SessionBuilder({ id: "s-escapes" }).header();
    s.message(user("first line\nsecond line with zanzibar"), { id: "n1", parentId: null });
    s.message(user('she said "zanzibar" twice'), { id: "q1", parentId: null });
    s.raw(escaped("e1", "CAF\\u00C9 zanzibar"));
    s.raw(escaped("e2", "caf\\u00e9 au lait"));
    s.message(user("<script>alert(1)</script> & <b>zanzibar</b>"), { id: "h1", parentId: null });
    s.raw(escaped("h2", "\\u003cb\\u003ebold zanzibar\\u003c/b\\u003e"));
    s.message(user("\u212Aelvin scale"), { id: "k1", parentId: null });
    const file = s.write(dir, "escapes.jsonl");
    await expectHits(file, [
      ["line zanzibar", ["n1"]],
      ['"zanzibar"', ["q1"]],
      ["café", ["e1", "e2"]],
      ["CAFÉ zanzibar", ["e1"]],
      ["<b>zanzibar</b>", ["h1"]],
      ["<b>bold", ["h2"]],
      ["kelvin", ["k1"]],
    ]);
    const [html] = (await search("<script>", [piTarget(file)])).hits;
    assert.equal(html.snippet.text, "<script>alert(1)</script> & <b>zanzibar</b>");
    assert.deepEqual(html.snippet.ranges, [[0, 8]]);
  });

  test("huge lines: a word at the end of a 10 MB line, across a chunk boundary, and after a huge line", async () => {
    const dir = folder("huge");
    const big = "x".repeat(10 * 1024 * 1024);
    const huge = (u2: string): SessionBuilder => {
      const s = new SessionBuilder({ id: "s-huge" }).header();
      s.message(user("start"), "u1");
      s.message(user(u2), "u2");
      s.message(toolResult(`${big} zanzibar`, "bash"), "t1");
      s.message(toolResult(big, "bash"), "t2");
      s.message(user("zanzibar after the huge lines"), "u3");
      return s;
    };
    // Pad the text so that the word starts 3 bytes before the end of the first chunk.
    const textAt = jsonl(huge("P").lines()).indexOf('"P"') + 1;
    const pad = "p".repeat(CHUNK_BYTES - 3 - textAt - 1);
    const file = huge(`${pad} zanzibar tail`).write(dir, "huge.jsonl");
    const text = (await import("node:fs")).readFileSync(file, "latin1");
    const at = text.indexOf("zanzibar");
    assert.ok(at < CHUNK_BYTES && at + "zanzibar".length > CHUNK_BYTES, "the first word straddles the chunk end");
    const { hits, outcome } = await search("zanzibar", [piTarget(file)]);
    assert.deepEqual(
      hits.map((h) => h.entryId),
      ["u2", "t1", "u3"],
    );
    assert.equal(outcome.stats.bytes, statSync(file).size);
    assert.match(hits[1].snippet.text, /^…x+ zanzibar$/);
  });

  test("a corrupt line is skipped and counted; a torn last line too; the rest is found", async () => {
    const dir = folder("damaged");
    const s = new SessionBuilder({ id: "s-damaged" }).header();
    s.message(user("zanzibar one"), "u1");
    s.raw('{"type":"message","id":"bad","parentId":"u1","message":{"role":"user","content":"zanzibar'); // cut short
    s.message(user("zanzibar two"), "u2");
    s.raw('{"type":"message","id":"torn","parentId":"u2","message":{"role":"user","content":"zanzibar thr');
    const file = s.write(dir, "damaged.jsonl", { torn: true });
    const { hits, outcome } = await search("zanzibar", [piTarget(file)]);
    assert.deepEqual(
      hits.map((h) => h.entryId),
      ["u1", "u2"],
    );
    assert.equal(outcome.stats.corruptLines, 2);
  });

  test("files before version 3 are searched too", async () => {
    const dir = folder("v1");
    const file = writeLines(dir, "old.jsonl", [
      { type: "session", id: "s-old", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/ws" },
      { type: "message", timestamp: "2025-01-01T00:00:01.000Z", message: user("zanzibar old") },
    ]);
    const { hits } = await search("zanzibar", [piTarget(file)]);
    assert.equal(hits.length, 1);
    assert.equal(hits[0].snippet.text, "zanzibar old");
  });
});

describe("searching a workspace", () => {
  let cwd: string;
  let sessionDir: string;
  let agentDir: string;
  let claudeDir: string;
  let ours: string;
  let pis: string;
  let claude: string;

  before(async () => {
    const root = folder("workspace");
    cwd = SUBAGENT_CWD;
    sessionDir = join(root, "ours");
    agentDir = join(root, "pi-agent");
    claudeDir = join(root, "claude");
    const one = (id: string, entryId: string, text: string): SessionBuilder => {
      const s = new SessionBuilder({ id }).header();
      s.message(user(text), entryId);
      return s;
    };
    ours = one("s-ours", "o1", "overdue zanzibar in ours").write(sessionDir, "ours.jsonl");
    pis = one("s-pi", "p1", "overdue zanzibar in pi's folder").write(defaultSessionDir(cwd, agentDir), "pis.jsonl");
    const project = claudeProjectDirs(cwd, claudeDir)[0];
    mkdirSync(project, { recursive: true });
    claude = join(project, "3f6b2c1e-8d4a-4f0b-9c2e-5a7d1e9b0c44.jsonl");
    copyFileSync(join(FIXTURES, "branching-tools.jsonl"), claude);
    const withSubagents = await writeSubagentSession(project);
    // Newest first: ours, then pi's, then Claude Code's.
    const t = Date.now() / 1000;
    utimesSync(ours, t, t);
    utimesSync(pis, t - 10, t - 10);
    utimesSync(claude, t - 20, t - 20);
    utimesSync(withSubagents, t - 30, t - 30);
  });

  test("lists our folder, pi's folder and Claude Code's transcripts with their subagents' files", async () => {
    const targets = await findSearchTargets(cwd, { sessionDir, agentDir, claudeDir });
    assert.deepEqual(
      targets.slice(0, 3).map((t) => [t.path, t.source, t.format]),
      [
        [ours, "workspace", "pi"],
        [pis, "pi", "pi"],
        [claude, "claude", "claude"],
      ],
    );
    const withSubagents = targets.find((t) => t.files.length > 1);
    assert.ok(withSubagents, "the subagent session's files are searched with it");
    assert.equal(withSubagents.files.filter((f) => f.includes("subagents")).length, 4);
  });

  test("finds words in every source; a Claude Code hit carries the id its opened view has", async () => {
    const targets = await findSearchTargets(cwd, { sessionDir, agentDir, claudeDir });
    const { hits } = await search("overdue", targets);
    assert.deepEqual(
      hits.slice(0, 2).map((h) => [h.entryId, h.source]),
      [
        ["o1", "workspace"],
        ["p1", "pi"],
      ],
    );
    const fromClaude = hits.filter((h) => h.source === "claude" && h.kind === "user");
    assert.equal(fromClaude.length, 1);
    const [hit] = fromClaude;
    assert.equal(hit.sessionTitle, "Fix due-date sorting in todo list");
    assert.equal(hit.branch.active, false, "the overdue request is on a branch Claude Code left");
    const view = await importClaudeTranscript(claude, { tempDir: join(tmp, "views") });
    try {
      assert.equal(hit.entryId, view.idByUuid.get("u0000000-0000-4000-8000-000000000007"));
      assert.equal(view.session.getEntry(hit.entryId)?.type, "message");
    } finally {
      await view.session.close();
    }
  });

  test("a word only a Claude Code subagent's own file holds is found, on the subagent's branch", async () => {
    const targets = await findSearchTargets(cwd, { sessionDir, agentDir, claudeDir });
    const { hits } = await search("down steps", targets);
    assert.equal(hits.length, 1);
    assert.equal(hits[0].snippet.text, "Check the migrations for down steps.");
    assert.match(hits[0].branch.label ?? "", /^subagent/);
    assert.equal(hits[0].branch.active, false);
  });

  test("the same hits come through worker threads", async () => {
    const targets = await findSearchTargets(cwd, { sessionDir, agentDir, claudeDir });
    const here = (await search("overdue", targets)).hits;
    const { hits, outcome } = await search("overdue", targets, { workerScript: WORKER_TSX });
    const key = (h: SessionSearchHit): string => `${h.path}#${h.entryId}`;
    assert.deepEqual(hits.map(key).sort(), here.map(key).sort());
    assert.equal(outcome.workers, 2);
    assert.equal(
      outcome.stats.files,
      targets.reduce((n, t) => n + t.files.length, 0),
    );
  });

  test("a worker script that cannot start leaves the search to the caller's thread", async () => {
    const targets = await findSearchTargets(cwd, { sessionDir, agentDir, claudeDir });
    const { hits, outcome } = await search("overdue", targets, { workerScript: join(tmp, "missing-worker.js") });
    assert.equal(outcome.workers, 0);
    assert.deepEqual(
      hits.slice(0, 2).map((h) => h.entryId),
      ["o1", "p1"],
    );
  });
});

describe("streaming, limits and cancelling", () => {
  /** Files f0 (newest) … f{n-1}, each with one hit and `padding` bytes of other text. */
  function manyFiles(name: string, n: number, padding = 0): SearchTarget[] {
    const dir = folder(name);
    const targets: SearchTarget[] = [];
    for (let i = 0; i < n; i++) {
      const s = new SessionBuilder({ id: `s-${i}` }).header();
      s.message(user(`zanzibar in file ${i}`), `u${i}`);
      if (padding > 0) s.message(toolResult("y".repeat(padding), "read"), `t${i}`);
      const path = s.write(dir, `f${i}.jsonl`);
      targets.push(piTarget(path));
    }
    return targets;
  }

  for (const workerScript of [undefined, WORKER_TSX]) {
    const where = workerScript ? "in workers" : "in this thread";
    test(`hits arrive while later files are still unread (${where})`, async () => {
      const targets = manyFiles(`stream-${workerScript ? "w" : "t"}`, 6);
      const last = targets[targets.length - 1].path;
      let removedEarly = false;
      const { hits, outcome } = await search("zanzibar", targets, {
        workerScript,
        onHit: () => {
          if (removedEarly) return;
          // Had hits waited for the end, the last file would have been read by now.
          unlinkSync(last);
          removedEarly = true;
        },
      });
      assert.ok(removedEarly);
      assert.equal(outcome.workers, workerScript ? 2 : 0);
      assert.equal(hits.length, targets.length - 1);
      assert.equal(outcome.stats.skippedFiles, 1);
    });

    test(`cancelling stops reading (${where})`, async () => {
      const targets = manyFiles(`cancel-${workerScript ? "w" : "t"}`, 8, 2 * 1024 * 1024);
      const total = targets.reduce((n, t) => n + t.bytes, 0);
      const stop = new AbortController();
      const { hits, outcome } = await search("zanzibar", targets, {
        workerScript,
        signal: stop.signal,
        onHit: () => stop.abort(),
      });
      assert.equal(hits.length, 1);
      assert.equal(outcome.cancelled, true);
      assert.ok(outcome.stats.bytes < total / 2, `read ${outcome.stats.bytes} of ${total} bytes`);
    });
  }

  // The worker's `done` crosses the cancel and, when it is taken after dispose() has terminated the worker (most
  // runs: the worker posts it right after the hit), the worker still takes a while to stop. Nothing else keeps
  // this process's event loop alive meanwhile: were the worker unreferenced, node's test runner would cancel the
  // test ("Promise resolution is still pending but the event loop has already resolved").
  for (const how of ["cancelled from its hit", "stopped at maxHits"] as const) {
    test(`dispose() settles while a worker stops after a search ${how}`, async () => {
      const [target] = manyFiles(`slow-stop-${how.replace(/ /g, "-")}`, 1);
      const s = new SessionSearch({ workerScript: SLOW_STOP_WORKER, workers: 1 });
      const stop = new AbortController();
      const outcome = await s.search("zanzibar", [target], () => stop.abort(), {
        signal: how === "cancelled from its hit" ? stop.signal : undefined,
        maxHits: how === "stopped at maxHits" ? 1 : undefined,
      });
      await s.dispose();
      assert.equal(outcome.workers, 1);
      assert.equal(outcome.stats.hits, 1);
      assert.equal(outcome.cancelled, how === "cancelled from its hit");
      assert.equal(outcome.truncated, how === "stopped at maxHits");
    });
  }

  test("a search stops at maxHits and says so", async () => {
    const targets = manyFiles("limit", 5);
    const { hits, outcome } = await search("zanzibar", targets, { maxHits: 2 });
    assert.equal(hits.length, 2);
    assert.equal(outcome.truncated, true);
    assert.equal(outcome.stats.hits, 2);
  });

  test("cancelling mid-file stops the scan before the file's end", async () => {
    const { scanLines } = await import("../../../src/core/search/line-scan.js");
    const { chunkMatcher } = await import("../../../src/core/search/chunk-matcher.js");
    const dir = folder("midfile");
    const s = new SessionBuilder({ id: "s-mid" }).header();
    for (let i = 0; i < 6; i++)
      s.message(toolResult(`zanzibar ${"z".repeat(CHUNK_BYTES / 2)}`, "read"), { id: `t${i}`, parentId: "x" });
    const file = s.write(dir, "mid.jsonl");
    const stop = new AbortController();
    const counter = { bytes: 0 };
    await assert.rejects(
      scanLines(file, chunkMatcher("zanzibar"), 7, () => stop.abort(), counter, stop.signal),
      (e: unknown) => e instanceof Error && e.name === "AbortError",
    );
    assert.ok(counter.bytes <= CHUNK_BYTES * 2, `read ${counter.bytes} of ${statSync(file).size} bytes`);
  });
});

test("opening a session found by the search shows the same entry", async () => {
  const dir = folder("open");
  const file = branchedSession(dir);
  const [hit] = (await search("zanzibar", [piTarget(file)])).hits;
  const sm = await SessionManager.open(file, { readOnly: true });
  try {
    assert.equal(sm.getEntry(hit.entryId)?.type, "message");
  } finally {
    await sm.close();
  }
  writeFileSync(join(dir, "not-a-session.jsonl"), "hello\n");
  const { outcome } = await search("zanzibar", [piTarget(join(dir, "not-a-session.jsonl"))]);
  assert.equal(outcome.stats.skippedFiles, 1);
});
