/**
 * pi's slash commands against the real core (pi-commands.ts; the VS Code side faked): `/copy` puts the path's last
 * reply on the clipboard, `/session` shows pi's figures, `/export <file>.jsonl` writes the branch as pi does,
 * `/import` copies a pi session in (id and cwd kept), `/fork` offers the session's user messages, newest first.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import type { AgentSession } from "../../src/core/agent/agent-session.js";
import type { Usage } from "../../src/core/messages.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { PiCommands, type PiCommandDeps } from "../../src/host/chat-input/pi-commands.js";
import type { CommandId } from "../../src/host/common/command-ids.js";
import { assistant, SessionBuilder, toolResult, user } from "../util/session-builder.js";
import { tempDirPerTest } from "../util/temp-dir.js";

const tmp = tempDirPerTest("agent-tree-pi-commands-");
/** A folder of the test's temp folder. */
const sub = (name: string): string => {
  const dir = path.join(tmp.dir, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
};

function usage(input: number, output: number, cacheRead: number, cacheWrite: number, cost: number): Usage {
  const totalTokens = input + output + cacheRead + cacheWrite;
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost },
  };
}

/** The actions over `sm`, recording what they say, copy, show and run. */
function setup(sm: SessionManager | undefined, over: Partial<PiCommandDeps> = {}) {
  const said: string[] = [];
  const clipboard: string[] = [];
  const shown: { title: string; text: string }[] = [];
  const ran: string[] = [];
  const opened: string[] = [];
  const picks: { id: string; text: string }[][] = [];
  const deps: PiCommandDeps = {
    controller: {
      get sessionManager() {
        return sm;
      },
      requireSession: () => {
        if (!sm) throw new Error("No Agent session is open");
        return { sm, agent: undefined as unknown as AgentSession };
      },
    },
    opener: {
      openPath: async (file) => {
        opened.push(file);
        return true;
      },
      sessionDir: () => path.join(tmp.dir, "sessions"),
    },
    notify: {
      status: (text) => void said.push(text),
      info: (text) => void said.push(text),
      error: (what, e) => void said.push(`${what}: ${e instanceof Error ? e.message : String(e)}`),
    },
    runOperation: async (id: CommandId, entryId: string | undefined, input?: string) =>
      void ran.push(`${id}${entryId ? ` ${entryId}` : ""}${input ? ` ${input}` : ""}`),
    credentials: { logInNamed: async () => true },
    models: { setThinkingLevel: (l) => void ran.push(`thinking ${l}`) },
    instructions: {
      invalidate: () => undefined,
      load: async () => ({
        contextFiles: [],
        skills: [],
        issues: [],
        restrictedByTrust: false,
        watchFiles: [],
        skillFolders: [],
        skillScopes: {},
      }),
    },
    reloadTemplates: async () => [],
    folder: () => tmp.dir,
    extensionId: "agent-tree.agent-tree",
    confirmOverwrite: async () => false,
    showDocument: async (title, text) => void shown.push({ title, text }),
    pickUserMessage: async (items) => {
      picks.push([...items]);
      return items[1]?.id;
    },
    clipboard: { writeText: async (text) => void clipboard.push(text) },
    executeCommand: async (id, ...args) => void ran.push(`${id} ${args.join(" ")}`),
    ...over,
  };
  return { pi: new PiCommands(deps), said, clipboard, shown, ran, opened, picks };
}

test("/copy puts the text of the path's last reply on the clipboard, and says so", async () => {
  const sm = SessionManager.inMemory("/ws");
  sm.appendMessage(user("first"));
  const other = sm.appendMessage(assistant("on the first branch"));
  sm.appendMessage(user("second"));
  sm.appendMessage(assistant("Let me look.", ["bash"]));
  sm.appendMessage(toolResult("ok"));
  sm.appendMessage(assistant("The final answer.\n"));
  // An aborted reply without text is skipped, as pi skips it.
  sm.appendMessage(assistant("", [], "aborted"));
  const { pi, clipboard, said } = setup(sm);
  await pi.copyLastReply();
  assert.deepEqual(clipboard, ["The final answer."]);
  assert.deepEqual(said, ["Copied last agent message to clipboard."]);
  // Another branch's leaf: its own last reply.
  sm.branch(other);
  await pi.copyLastReply();
  assert.deepEqual(clipboard, ["The final answer.", "on the first branch"]);
});

test("/copy with no reply on the path copies nothing and says so", async () => {
  const sm = SessionManager.inMemory("/ws");
  sm.appendMessage(user("only a question"));
  const { pi, clipboard, said } = setup(sm);
  await pi.copyLastReply();
  assert.deepEqual(clipboard, []);
  assert.deepEqual(said, ["No agent messages to copy yet."]);
});

test("/session shows pi's information and statistics of the whole session", async () => {
  const dir = sub("session-info");
  const b = new SessionBuilder({ id: "sess-info-1", cwd: "/ws" }).header();
  b.message(user("read the notes"));
  b.message(assistant("Reading.", ["read", "grep"], { usage: usage(1000, 200, 3000, 500, 0.0125) }));
  b.message(toolResult("notes", "read", "call_0"));
  b.message(toolResult("hits", "grep", "call_1"));
  const reply = b.message(assistant("Done.", [], { usage: usage(100, 50, 4000, 0, 0.002) }));
  // A second branch from the first reply counts too (pi counts every entry of the file).
  b.message(user("again"), { parentId: reply });
  b.entry("session_info", { name: "Notes review" });
  const file = b.write(dir, "s.jsonl");
  const sm = await SessionManager.open(file, { sessionDir: dir });
  const { pi, shown } = setup(sm);
  await pi.showSessionInfo();
  assert.equal(shown.length, 1);
  assert.equal(
    shown[0].text,
    [
      "Session Info",
      "",
      "Name: Notes review",
      `File: ${file}`,
      "ID: sess-info-1",
      "",
      "Messages",
      "Total: 6",
      "User: 2",
      "Assistant: 2",
      "Tools: 2 calls, 2 results",
      "",
      "Tokens",
      "Input: 8,600",
      "  Cached: 7,000 (81.4%)",
      "  Uncached: 1,600 (500 written to cache)",
      "Output: 250",
      "Total: 8,850",
      "",
      "Cost",
      "Total: $0.015",
    ].join("\n"),
  );
  await sm.close();
});

test("/export <file>.jsonl writes the current branch as pi does, the header's id and cwd kept; an existing file is asked about", async () => {
  const dir = sub("export");
  const b = new SessionBuilder({ id: "sess-export", cwd: "/project" }).header();
  const q = b.message(user("q"));
  b.message(assistant("a1"));
  b.message(user("q2"));
  b.message(assistant("a2"), { parentId: q });
  b.label(q, "start");
  const sm = await SessionManager.open(b.write(dir, "src.jsonl"), { sessionDir: dir });
  const { pi, said } = setup(sm);
  await pi.exportTo("out/branch.jsonl");
  const target = path.join(tmp.dir, "out", "branch.jsonl");
  assert.deepEqual(said, [`Session exported to: ${target}`]);
  const lines = fs
    .readFileSync(target, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(
    { ...lines[0], timestamp: "t" },
    { type: "session", version: 3, id: "sess-export", timestamp: "t", cwd: "/project" },
  );
  // The path (root → the label, the leaf), each entry re-parented on the one before it: the other branch left out.
  const path1 = sm.getPath();
  assert.deepEqual(
    lines.slice(1).map((l) => [l.id, l.parentId]),
    path1.map((e, i) => [e.id, i === 0 ? null : path1[i - 1].id]),
  );
  assert.ok(!lines.some((l) => (l.message as { content?: unknown } | undefined)?.content === "q2"));
  // Asked before replacing: declined, the file stays.
  fs.writeFileSync(target, "keep");
  await pi.exportTo(target);
  assert.equal(fs.readFileSync(target, "utf8"), "keep");
  // A page goes to the HTML export with the path (no dialog).
  const r = setup(sm);
  await r.pi.exportTo("page.html");
  assert.deepEqual(r.ran, [`agentTree.exportHtml ${path.join(tmp.dir, "page.html")}`]);
  await sm.close();
});

test("/import copies a pi session into the workspace's session folder, id and cwd kept, and opens the copy", async () => {
  const outside = sub("elsewhere");
  const b = new SessionBuilder({ id: "sess-import", cwd: "/other/project" }).header();
  b.message(user("hello"));
  b.message(assistant("hi"));
  const source = b.write(outside, "2026-01-05_sess-import.jsonl");
  const original = fs.readFileSync(source, "utf8");
  const { pi, opened, said } = setup(undefined);
  await pi.importSession(source);
  const copy = path.join(tmp.dir, "sessions", "2026-01-05_sess-import.jsonl");
  assert.deepEqual(opened, [copy]);
  assert.deepEqual(said, [`Session imported from: ${source}`]);
  assert.equal(fs.readFileSync(source, "utf8"), original, "the original stays");
  assert.equal(fs.readFileSync(copy, "utf8"), original, "the copy is the file as it is: its id and cwd kept");
  const sm = await SessionManager.open(copy, { readOnly: true });
  assert.equal(sm.getSessionId(), "sess-import");
  assert.equal(sm.getCwd(), "/other/project");
  await sm.close();
  // Again: the session is there already, it is opened, not copied a second time.
  const again = setup(undefined);
  await again.pi.importSession(source);
  assert.deepEqual(again.opened, [copy]);
  assert.equal(fs.readdirSync(path.join(tmp.dir, "sessions")).length, 1);
});

test("/import of a file that is not a session, or not there, says so and copies nothing", async () => {
  const notes = path.join(sub("notes"), "notes.jsonl");
  fs.writeFileSync(notes, '{"hello":1}\n');
  const { pi, opened, said } = setup(undefined);
  await pi.importSession(notes);
  await pi.importSession(path.join(tmp.dir, "missing.jsonl"));
  assert.deepEqual(opened, []);
  assert.equal(said.length, 2);
  assert.match(said[0], /^Cannot import: .*notes\.jsonl is not a pi session file/);
  assert.match(said[1], /^Cannot import: .*missing\.jsonl does not exist\./);
});

test("/import of a FIFO named like a session is refused at once, never waited on", { timeout: 20_000 }, async (t) => {
  const fifo = path.join(sub("pipes"), "pipe.jsonl");
  if (spawnSync("mkfifo", [fifo]).status !== 0) return t.skip("mkfifo is not available");
  const { pi, opened, said } = setup(undefined);
  // Opening a FIFO for reading blocks until a writer comes: this would never settle if it were opened so.
  await pi.importSession(fifo);
  assert.deepEqual(opened, []);
  assert.match(said[0] ?? "", /^Cannot import: .*pipe\.jsonl .*FIFO/);
});

test("/fork offers every user message of the session newest first, on any branch, and forks at the picked one", async () => {
  const sm = SessionManager.inMemory("/ws");
  const first = sm.appendMessage(user("first question"));
  const a1 = sm.appendMessage(assistant("a1"));
  const second = sm.appendMessage(user("second question"));
  sm.appendMessage(assistant("a2"));
  sm.branch(a1);
  const other = sm.appendMessage(user("other branch"));
  sm.appendMessage(assistant("a3"));
  sm.branch(second);
  const third = sm.appendMessage(assistant("a2b"));
  void third;
  const { pi, picks, ran } = setup(sm);
  await pi.forkFromUserMessage();
  assert.deepEqual(picks, [
    [
      { id: other, text: "other branch", onPath: false },
      { id: second, text: "second question", onPath: true },
      { id: first, text: "first question", onPath: true },
    ],
  ]);
  // The fake picks the second item: the second question. Fork to New Session From Here forks before it (pi's /fork).
  assert.deepEqual(ran, [`agentTree.forkHere ${second}`]);
  // /clone forks at the leaf.
  await pi.clone();
  assert.deepEqual(ran.at(-1), `agentTree.forkHere ${sm.getLeafId()} at`);
});

test("/thinking with a level that is none names the levels", async () => {
  const { pi, said, ran } = setup(SessionManager.inMemory("/ws"));
  await pi.setThinkingLevel("HIGH");
  await pi.setThinkingLevel("hgih");
  assert.deepEqual(ran, ["thinking high"]);
  assert.deepEqual(said, [
    'Cannot set the thinking level: "hgih" is no thinking level. Levels: off, minimal, low, medium, high, xhigh, max.',
  ]);
});
