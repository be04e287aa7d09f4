/**
 * The interop tests' side of pi-driver.mjs: run steps on the real pi's SessionManager in a child process (under
 * the Node its release needs) and compare what it sees with what this extension's SessionManager sees.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { ensurePiReleases, type PiRelease } from "../../tools/pi/index.js";
import type { AgentMessage, SessionEntry, Usage } from "../../src/core/index.js";
import { ARCHIVE_MARKER_TYPE, LEAF_MARKER_TYPE, SessionManager, emptyUsage } from "../../src/core/index.js";
import { assistant, user } from "../util/session-builder.js";

export type { PiRelease };

/** The two releases, installed on first use. */
export function releases(): PiRelease[] {
  const { legacy, latest } = ensurePiReleases();
  return [legacy, latest];
}

/** The newest pi only (1.6.0; the entry types and fields pi 1.5 added). */
export function latestRelease(): PiRelease {
  return ensurePiReleases().latest;
}

/** One step of pi-driver.mjs (see there). */
export type PiStep = { op: string } & Record<string, unknown>;

/** What a SessionManager shows: the tree in file order, the leaf, the context, every label. */
export interface View {
  entries: SessionEntry[];
  leafId: string | null;
  labels: Record<string, string>;
  context: { messages: AgentMessage[]; thinkingLevel: string; model?: { provider: string; modelId: string } };
}

/** A pi snapshot (the driver's "snapshot" step). */
export interface PiSnapshot extends View {
  file?: string;
  sessionId: string;
  /** pi's getSessionName() (null: none). */
  name: string | null;
}

const DRIVER = path.join(__dirname, "pi-driver.mjs");

/** Run `steps` on pi; returns each step's result. A failing step throws pi's message. */
export function runPi(release: PiRelease, steps: PiStep[]): unknown[] {
  const out = execFileSync(release.node, [DRIVER, release.sessionManager], {
    input: JSON.stringify(steps),
    encoding: "utf8",
    stdio: ["pipe", "pipe", "inherit"],
    timeout: 60_000,
  });
  const results = JSON.parse(out) as unknown[];
  const last = results.at(-1) as { error?: string } | null | undefined;
  if (last && typeof last === "object" && typeof last.error === "string")
    throw new Error(`pi ${release.version}: step ${results.length} (${steps[results.length - 1].op}): ${last.error}`);
  return results;
}

/**
 * pi opens `file`, appends `messages`, runs `more` steps and takes its snapshot: every step's result (the ids of
 * the messages first) and the snapshot.
 */
export function piContinues(
  release: PiRelease,
  file: string,
  messages: AgentMessage[],
  more: PiStep[] = [],
): { results: unknown[]; snapshot: PiSnapshot } {
  const results = runPi(release, [
    { op: "open", file },
    ...messages.map((message) => ({ op: "message", message })),
    ...more,
    { op: "snapshot" },
  ]).slice(1);
  return { results, snapshot: results.at(-1) as PiSnapshot };
}

/** Open `file` in pi and take its snapshot. */
export function piOpen(release: PiRelease, file: string): PiSnapshot {
  return runPi(release, [{ op: "open", file }, { op: "snapshot" }])[1] as PiSnapshot;
}

/** The same view from this extension's SessionManager. */
export function ourView(sm: SessionManager): View {
  const entries = sm.getEntries();
  const labels: Record<string, string> = {};
  for (const e of entries) {
    const label = sm.getLabel(e.id);
    if (label !== undefined) labels[e.id] = label;
  }
  const ctx = sm.buildSessionContext();
  return {
    entries,
    leafId: sm.getLeafId(),
    labels,
    context: { messages: ctx.messages, thinkingLevel: ctx.thinkingLevel, model: ctx.model },
  };
}

/**
 * pi resumes at the last entry of the file; the content entry that stands for is where this extension resumes:
 * labels and archive lines hang off the entry the user was at, and this extension's leaf markers name the entry
 * moved to.
 */
export function resolvedLeaf(view: View): string | null {
  const byId = new Map(view.entries.map((e) => [e.id, e]));
  let id = view.leafId;
  for (let guard = 0; id !== null && guard <= view.entries.length; guard++) {
    const e = byId.get(id);
    if (!e) return id;
    if (e.type === "label" || (e.type === "custom" && e.customType === ARCHIVE_MARKER_TYPE)) id = e.parentId;
    else if (e.type === "custom" && e.customType === LEAF_MARKER_TYPE)
      id = (e.data as { targetId: string | null }).targetId;
    else return id;
  }
  return id;
}

/** Same tree (every entry, field for field), same leaf, same context, same labels. */
export function assertSameView(pi: View, ours: View, what: string): void {
  assert.deepEqual(ours.entries, pi.entries, `${what}: the entries`);
  assert.equal(ours.leafId, resolvedLeaf(pi), `${what}: the leaf`);
  assert.deepEqual(ours.labels, pi.labels, `${what}: the labels`);
  assert.deepEqual(jsonView(ours.context), jsonView(pi.context), `${what}: the context`);
}

/**
 * Opens `file` read-only as this extension does and asserts it reads what pi's view `pi` says (`what` names the
 * moment); returns the session for more checks (the caller closes it).
 */
export async function openSameAsPi(file: string, pi: View, what: string): Promise<SessionManager> {
  const ours = await SessionManager.open(file, { readOnly: true });
  assertSameView(pi, ourView(ours), what);
  return ours;
}

/** Same context (messages, thinking level, model). */
export function assertSameContext(pi: View, ours: View, what: string): void {
  assert.deepEqual(jsonView(ours.context), jsonView(pi.context), `${what}: the context`);
}

/** JSON's view (pi's answers went through JSON; undefined fields vanish there), to compare ours with them. */
export function jsonView(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v)) as unknown;
}

/** The model that answers in a test session, as its assistant messages record it. */
export interface RecordedModel {
  api?: string;
  provider: string;
  model: string;
  /** Token counts on every reply (the rest zero). */
  usage?: Partial<Usage>;
}

/**
 * Builders of the user and (plain text) assistant messages of a test session; message `n` is stamped `t0 + n` ms,
 * so the order of a session is the order of its numbers.
 */
export function timedMessages(
  t0: number,
  from: RecordedModel,
): { user(text: string, n: number): AgentMessage; assistant(text: string, n: number): AgentMessage } {
  const { provider, model, api } = from;
  const usage = { ...emptyUsage(), ...from.usage };
  return {
    user: (text, n) => user(text, t0 + n),
    assistant: (text, n) => assistant(text, [], { provider, model, usage, timestamp: t0 + n, ...(api ? { api } : {}) }),
  };
}
