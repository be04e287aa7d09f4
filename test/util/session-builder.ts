/**
 * The one way tests build sessions: messages, pi-format entry lines with explicit ids and parents, JSONL files
 * written line by line (so escapes, damage and torn tails are exactly as given), and file-backed SessionManagers.
 * No `vscode` import: plain-Node scripts and the extension tests use it too.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  emptyUsage,
  type AgentMessage,
  type AssistantMessage,
  type ToolResultMessage,
  type UserMessage,
} from "../../src/core/messages.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import type { SessionEntry } from "../../src/core/session/types.js";

/** One line of a session file, parsed (or to be written). */
export type Line = Record<string, unknown>;

/** A tool call of {@link assistant}: a tool name (id `call_<i>`, arguments `{ path: "/tmp/<i>" }`) or all of it. */
export type CallSpec = string | { id: string; name: string; args: Record<string, unknown> };

/**
 * What {@link assistant} takes besides its text and calls. Defaults: provider "anthropic", model "claude-test",
 * an empty usage, timestamp 2, stop reason "toolUse" when there are calls, else "stop".
 */
export type AssistantOptions = Partial<
  Pick<AssistantMessage, "stopReason" | "provider" | "model" | "usage" | "timestamp" | "api">
>;

/** A user message. */
export function user(text: string, timestamp = 1): UserMessage {
  return { role: "user", content: text, timestamp };
}

/** An assistant message with text (none when "") and tool calls; a string as the third argument is the stop reason. */
export function assistant(
  text: string,
  calls: readonly CallSpec[] = [],
  options: AssistantMessage["stopReason"] | AssistantOptions = {},
): AssistantMessage {
  const o = typeof options === "string" ? { stopReason: options } : options;
  return {
    role: "assistant",
    content: [
      ...(text ? [{ type: "text" as const, text }] : []),
      ...calls.map((c, i) =>
        typeof c === "string"
          ? { type: "toolCall" as const, id: `call_${i}`, name: c, arguments: { path: `/tmp/${i}` } }
          : { type: "toolCall" as const, id: c.id, name: c.name, arguments: c.args },
      ),
    ],
    provider: "anthropic",
    model: "claude-test",
    usage: emptyUsage(),
    stopReason: calls.length ? "toolUse" : "stop",
    timestamp: 2,
    ...o,
  };
}

/** A tool result with `text` as output. */
export function toolResult(text: string, toolName = "bash", toolCallId = "call_0", isError = false): ToolResultMessage {
  return { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text }], isError, timestamp: 3 };
}

/** A pi v3 header line. */
export function headerLine(id: string, extra: Line = {}): Line {
  return { type: "session", version: 3, id, timestamp: "2026-01-05T09:00:00.000Z", cwd: "/ws", ...extra };
}

/** An entry line of `type` with its id, parent and ISO timestamp, then `fields`. */
export function entryLine(type: string, id: string, parentId: string | null, timestamp: string, fields: Line): Line {
  return { type, id, parentId, timestamp, ...fields };
}

/** The JSONL text of `lines` (objects are stringified, strings written as they are), newline-ended unless `torn`. */
export function jsonl(lines: readonly (Line | string)[], torn = false): string {
  return lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + (torn ? "" : "\n");
}

/** Writes `lines` (see {@link jsonl}) to `dir/name` (the folder is created); `modified` sets its mtime. */
export function writeLines(
  dir: string,
  name: string,
  lines: readonly (Line | string)[],
  options: { torn?: boolean; modified?: Date } = {},
): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, jsonl(lines, options.torn));
  if (options.modified) fs.utimesSync(file, options.modified, options.modified);
  return file;
}

/** The lines of a file, parsed (empty lines skipped). Throws naming the line when one is not JSON. */
export function readJsonl(file: string): Line[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => l.trim() !== "")
    .map(({ l, i }) => {
      try {
        return JSON.parse(l) as Line;
      } catch {
        throw new Error(`${file}:${i + 1} is not valid JSON: ${l.slice(0, 200)}`);
      }
    });
}

/** Where {@link SessionBuilder} puts an entry: its id (a string alone), and its parent when not the last entry. */
export type Place = string | { id?: string; parentId?: string | null };

/**
 * A session built entry by entry: each entry gets the next id (`e1`, `e2`, … unless given), hangs off the last
 * one (unless `parentId` is given) and is stamped one `stepMs` after the previous line, starting at `start`.
 * `lines()` / `entries()` give it back, `write()` writes it as pi writes files.
 */
export class SessionBuilder {
  private readonly out: (Line | string)[] = [];
  private clock: number;
  private n = 0;
  private last: string | null = null;

  constructor(
    private readonly options: { id?: string; cwd?: string; start?: number; stepMs?: number; header?: Line } = {},
  ) {
    this.clock = options.start ?? Date.UTC(2026, 0, 5, 9, 0, 0);
  }

  /** The header line (pi v3), stamped now; call before any entry to have one. */
  header(extra: Line = {}): this {
    this.out.push(
      headerLine(this.options.id ?? "test-session", {
        timestamp: this.stamp().iso,
        ...(this.options.cwd ? { cwd: this.options.cwd } : {}),
        ...this.options.header,
        ...extra,
      }),
    );
    return this;
  }

  /** Appends an entry of `type` with `fields`; returns its id. */
  entry(type: string, fields: Line = {}, place: Place = {}): string {
    const at = typeof place === "string" ? { id: place } : place;
    const id = at.id ?? `e${++this.n}`;
    const parentId = at.parentId === undefined ? this.last : at.parentId;
    this.out.push(entryLine(type, id, parentId, this.stamp().iso, fields));
    this.last = id;
    return id;
  }

  /** Appends a message entry; the message is stamped with the entry's time (ms), as pi writes them. */
  message(message: AgentMessage, place: Place = {}): string {
    return this.entry("message", { message: { ...message, timestamp: this.peek().ms } }, place);
  }

  /** Appends a label entry naming `targetId` (undefined clears it). */
  label(targetId: string, label: string | undefined, place: Place = {}): string {
    return this.entry("label", { targetId, label }, place);
  }

  /** Appends a raw line as it is (a damaged or foreign one); it does not become the parent of what follows. */
  raw(line: string | Line): this {
    this.out.push(line);
    return this;
  }

  /** The id of the last entry appended (the default parent of the next). */
  lastId(): string | null {
    return this.last;
  }

  /** Every line, header first. */
  lines(): (Line | string)[] {
    return [...this.out];
  }

  /** The entries (the header and raw lines left out), typed. */
  entries(): SessionEntry[] {
    return this.out.filter(
      (l): l is Line => typeof l !== "string" && l.type !== "session",
    ) as unknown as SessionEntry[];
  }

  /** Writes the session to `dir/name`; returns the file. */
  write(dir: string, name: string, options: { torn?: boolean; modified?: Date } = {}): string {
    return writeLines(dir, name, this.lines(), options);
  }

  private peek(): { iso: string; ms: number } {
    const ms = this.clock + (this.options.stepMs ?? 1000);
    return { iso: new Date(ms).toISOString(), ms };
  }

  private stamp(): { iso: string; ms: number } {
    const next = this.peek();
    this.clock = next.ms;
    return next;
  }
}

/** A new file-backed session for `cwd` (default `dir`) whose file goes into `dir` (written with its first entry). */
export function fileSession(dir: string, cwd = dir): Promise<SessionManager> {
  return SessionManager.create(cwd, dir);
}

/**
 * An in-memory session for `cwd` holding a conversation whose entries have names: each step is `"<name>: <text>"`,
 * the messages alternating user and assistant (the first a user's); a step `"from <name>"` goes back to that entry
 * to start a branch there, whose first message is a user's again. The leaf is the last message. Returns the session
 * and the entry ids by name.
 */
export function namedSession(
  cwd: string,
  steps: readonly string[],
): { sm: SessionManager; ids: Record<string, string> } {
  const sm = SessionManager.inMemory(cwd);
  const ids: Record<string, string> = {};
  let userNext = true;
  for (const step of steps) {
    const from = /^from (\S+)$/.exec(step);
    if (from) {
      sm.branch(ids[from[1]] ?? fail(`no entry named ${from[1]} before "${step}"`));
      userNext = true;
      continue;
    }
    const named = /^(\S+): (.*)$/s.exec(step) ?? fail(`a step is "<name>: <text>" or "from <name>", not "${step}"`);
    ids[named[1]] = sm.appendMessage(userNext ? user(named[2]) : assistant(named[2]));
    userNext = !userNext;
  }
  return { sm, ids };
}

function fail(message: string): never {
  throw new Error(message);
}
