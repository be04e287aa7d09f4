/** Listing the sessions of a folder (SessionManager.list). */
import * as fs from "node:fs";
import * as path from "node:path";
import { migrateText } from "./migrate.js";
import { scanSessionFile } from "./scan-file.js";
import { fillEnvelopes } from "./envelope-fill.js";
import type { EntryRecord } from "./entry-record.js";
import { normalizePreview, textOfContent } from "./preview.js";
import type { SessionInfo } from "./types.js";

function infoOf(file: string, stat: fs.Stats): SessionInfo | undefined {
  const head = scanSessionFile(file, { headerOnly: true });
  if (!head.header) return undefined;
  const h = head.header;
  const base = {
    path: file,
    id: h.id,
    cwd: typeof h.cwd === "string" ? h.cwd : "",
    parentSessionPath: typeof h.parentSession === "string" ? h.parentSession : undefined,
    created: new Date(Number.isNaN(Date.parse(h.timestamp)) ? stat.birthtime : h.timestamp),
    modified: stat.mtime,
    sizeBytes: stat.size,
  };
  let name: string | undefined;
  let messageCount = 0;
  let firstMessage = "";
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
      const m = e.message as { role?: unknown; content?: unknown } | undefined;
      if (!firstMessage && m?.role === "user") firstMessage = normalizePreview(textOfContent(m.content));
    }
  } else {
    // From the columns: no record is made but the first user message's (its preview is read from its line).
    const { entries } = scanSessionFile(file, { headsOnly: true });
    let firstUser: EntryRecord | undefined;
    for (let i = 0; i < entries.length; i++) {
      const type = entries.types[i];
      if (type === "session_info") name = entries.full[i]?.meta.name;
      if (type !== "message") continue;
      messageCount++;
      if (!firstUser && entries.roles[i] === "user") firstUser = entries.recordAt(i);
    }
    if (firstUser?.pending) {
      const fd = fs.openSync(file, "r");
      try {
        fillEnvelopes(fd, [firstUser]);
      } finally {
        fs.closeSync(fd);
      }
    }
    firstMessage = firstUser?.env.preview ?? "";
  }
  return { ...base, name, messageCount, firstMessage };
}

/** Sessions (`*.jsonl` with a session header) in `dir`, newest first. A missing folder lists nothing. */
export async function listSessions(dir: string): Promise<SessionInfo[]> {
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  const out: SessionInfo[] = [];
  for (const name of names) {
    if (!name.endsWith(".jsonl")) continue;
    const file = path.join(dir, name);
    try {
      const stat = await fs.promises.stat(file);
      if (!stat.isFile()) continue;
      const info = infoOf(file, stat);
      if (info) out.push(info);
    } catch {
      // unreadable or not a session: not listed
    }
  }
  return out.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}
