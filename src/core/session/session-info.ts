/**
 * What Open Session… shows of one session file (SessionInfo): its header, message count, name, first user
 * message and newest activity, read from the file in the calling thread. The listing (session-list.ts) calls it
 * here or in a worker thread (list-worker.ts) alike, so both give the same answer.
 */
import * as fs from "node:fs";
import { errorText } from "../error-text.js";
import { activityOf } from "./entry-line.js";
import { migrateText } from "./migrate.js";
import { normalizePreview, textOfContent } from "./preview.js";
import { scanSessionFile } from "./session-scan.js";
import type { SessionInfo } from "./types.js";

/**
 * What the listing's `stat` of the file said (its cache key is made of the same stat): passed to a worker rather
 * than taken there again, so the answer belongs to the stat it is cached under. Dates cross to a worker as they are.
 */
export type FileFacts = Pick<fs.Stats, "size" | "mtime" | "birthtime">;

/**
 * One file's answer: a session, or the reason it is no session (`info` is then a string), or an error reading it
 * (`error`: its message; not kept by the cache, a later listing tries again).
 */
export type InfoOutcome = { info: SessionInfo | string } | { error: string };

/** `modified` as pi reports it: the newest activity, else the header's time, else the file's. */
function modifiedOf(activity: number | undefined, headerTimestamp: unknown, facts: FileFacts): Date {
  if (activity !== undefined && activity > 0) return new Date(activity);
  const header = typeof headerTimestamp === "string" ? Date.parse(headerTimestamp) : NaN;
  return Number.isNaN(header) ? facts.mtime : new Date(header);
}

/** Why a file without a session header is not a session, as the user is told. */
function noHeaderReason(facts: FileFacts, headerError: string | undefined): string {
  if (facts.size === 0) return "the file is empty";
  return headerError ?? "line 1 is not a session header";
}

/** The file's SessionInfo, or the reason it is none. I/O errors throw. */
export function sessionInfoOf(file: string, facts: FileFacts): SessionInfo | string {
  const head = scanSessionFile(file, { headerOnly: true });
  if (!head.header) return noHeaderReason(facts, head.headerError);
  const h = head.header;
  const base = {
    path: file,
    id: h.id,
    cwd: typeof h.cwd === "string" ? h.cwd : "",
    parentSessionPath: typeof h.parentSession === "string" ? h.parentSession : undefined,
    created: new Date(Number.isNaN(Date.parse(h.timestamp)) ? facts.birthtime : h.timestamp),
    sizeBytes: facts.size,
  };
  let name: string | undefined;
  let messageCount = 0;
  let firstMessage = "";
  let activity: number | undefined;
  if ((h.version ?? 1) < 3) {
    // Old files are small; read them whole (they are migrated when opened, not when listed).
    const mig = migrateText(file, fs.readFileSync(file, "utf8"));
    for (const line of mig.lines.slice(1)) {
      let e: Record<string, unknown>;
      try {
        e = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (e.type === "session_info") name = typeof e.name === "string" ? e.name : undefined;
      if (e.type !== "message") continue;
      messageCount++;
      const t = activityOf(e);
      if (t !== undefined) activity = Math.max(activity ?? 0, t);
      const m = e.message as { role?: unknown; content?: unknown } | undefined;
      if (!firstMessage && m?.role === "user") firstMessage = normalizePreview(textOfContent(m.content));
    }
  } else {
    // Every envelope is read by the scan: the count, the name and the first user message are at hand.
    const scan = scanSessionFile(file);
    const { envs, metas } = scan.entries;
    let firstUser: string | undefined;
    for (let i = 0; i < scan.entries.length; i++) {
      const env = envs[i];
      if (env.type === "session_info") name = metas[i].name;
      if (env.type !== "message") continue;
      messageCount++;
      if (firstUser === undefined && env.role === "user") firstUser = env.preview;
    }
    firstMessage = firstUser ?? "";
    activity = scan.activity;
  }
  return { ...base, modified: modifiedOf(activity, h.timestamp, facts), name, messageCount, firstMessage };
}

/** sessionInfoOf with its error caught: what a worker sends back, and the in-thread reading alike. */
export function readSessionInfo(file: string, facts: FileFacts): InfoOutcome {
  try {
    return { info: sessionInfoOf(file, facts) };
  } catch (e) {
    return { error: errorText(e) };
  }
}
