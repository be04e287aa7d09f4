/** The file createBranchedSession writes: a new session holding one root→leaf path. */
import * as fs from "node:fs";
import * as path from "node:path";
import type { EntryRecord } from "./entry-record.js";
import { newEntryId } from "./ids.js";
import { sessionFileName } from "./paths.js";
import type { SessionEntry, SessionHeader } from "./types.js";
import { writeAll } from "./write-all.js";

/** How writeBranchFile reads the source session. */
export interface BranchSource {
  /** The line of an entry as stored. */
  readBytes(rec: EntryRecord): Buffer;
  /** The whole entry. */
  load(rec: EntryRecord): SessionEntry;
  /** The resolved label of an entry. */
  labelOf(id: string): string | undefined;
}

/**
 * Write `header` and the path `recs` (root first, same ids) to a new file in `dir`, then one label entry per
 * labelled path entry (hanging off the last entry, so the leaf stays there for us and for pi). Lines whose
 * parent is unchanged are copied byte for byte; the rest get parentId = the previous path entry. Written to a
 * temp file, fsynced, renamed. Returns the new file's path.
 */
export async function writeBranchFile(
  dir: string,
  header: SessionHeader,
  recs: readonly EntryRecord[],
  src: BranchSource,
): Promise<string> {
  await fs.promises.mkdir(dir, { recursive: true });
  const target = path.join(dir, sessionFileName(header.timestamp, header.id));
  const tmp = `${target}.tmp-${process.pid}`;
  const fd = fs.openSync(tmp, "w");
  let written = false;
  try {
    writeAll(fd, Buffer.from(JSON.stringify(header) + "\n"));
    let prev: string | null = null;
    const ids = new Set<string>();
    for (const rec of recs) {
      ids.add(rec.env.id);
      if (rec.env.parentId === prev && rec.offset >= 0) {
        // Same parent: copy the line's bytes as they are (no parse of big bodies).
        writeAll(fd, Buffer.concat([src.readBytes(rec), Buffer.from("\n")]));
      } else {
        writeAll(fd, Buffer.from(JSON.stringify({ ...src.load(rec), parentId: prev }) + "\n"));
      }
      prev = rec.env.id;
    }
    const last = prev;
    for (const rec of recs) {
      const label = src.labelOf(rec.env.id);
      if (label === undefined) continue;
      const id = newEntryId((c) => ids.has(c));
      ids.add(id);
      const entry = {
        type: "label",
        id,
        parentId: last,
        timestamp: new Date().toISOString(),
        targetId: rec.env.id,
        label,
      };
      writeAll(fd, Buffer.from(JSON.stringify(entry) + "\n"));
    }
    fs.fsyncSync(fd);
    written = true;
  } finally {
    fs.closeSync(fd);
    // A half-written fork is of no use: do not leave it behind.
    if (!written) fs.rmSync(tmp, { force: true });
  }
  fs.renameSync(tmp, target);
  return target;
}
