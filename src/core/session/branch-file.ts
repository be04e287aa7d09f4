/** A new session holding one root→leaf path (createBranchedSession): as a file, or as entries in memory. */
import * as fs from "node:fs";
import * as path from "node:path";
import type { EntryMeta } from "./entry-meta.js";
import { newEntryId } from "./ids.js";
import { sessionFileName } from "./paths.js";
import type { EntryEnvelope, LabelEntry, SessionEntry, SessionHeader } from "./types.js";
import { writeAll } from "./write-all.js";

/** An entry of the source session's path, as the index knows it (`position`: its place in the index). */
export interface PathEntry {
  env: EntryEnvelope;
  meta: EntryMeta;
  position: number;
}

/** How a branch reads the source session. */
export interface BranchSource {
  /** The line of an entry as stored. */
  readBytes(rec: PathEntry): Buffer;
  /** The whole entry. */
  load(rec: PathEntry): SessionEntry;
  /** The resolved label of an entry, and when it was set. */
  labelOf(id: string): BranchLabel | undefined;
}

/** A label the branch re-creates: its text, and the time it was set (kept, as pi keeps it). */
export interface BranchLabel {
  text: string;
  timestamp?: string;
}

/** The entries a branch keeps, and where a compaction's firstKeptEntryId must point instead of a dropped one. */
export interface BranchPlan {
  /** The path without labels and leaf markers, root first. */
  recs: PathEntry[];
  /** Id of a dropped entry → the next kept entry after it on the path. */
  moved: Map<string, string>;
}

/** Labels and leaf markers are left out (labels are re-created); a compaction keeping from one keeps from the next. */
export function branchPath(path: readonly PathEntry[]): BranchPlan {
  const recs: PathEntry[] = [];
  const moved = new Map<string, string>();
  let dropped: string[] = [];
  for (const rec of path) {
    if (rec.env.type === "label" || rec.meta.markerTarget !== undefined) {
      dropped.push(rec.env.id);
      continue;
    }
    for (const id of dropped) moved.set(id, rec.env.id);
    dropped = [];
    recs.push(rec);
  }
  return { recs, moved };
}

/** The entry as the branch stores it: parent re-chained, a compaction's firstKeptEntryId moved off dropped entries. */
function relinked(entry: SessionEntry, parentId: string | null, moved: Map<string, string>): SessionEntry {
  if (entry.type === "compaction") {
    return { ...entry, parentId, firstKeptEntryId: moved.get(entry.firstKeptEntryId) ?? entry.firstKeptEntryId };
  }
  return { ...entry, parentId };
}

/** Label entries re-creating the labels of `recs`, hanging off the last one (the leaf stays there, for pi too). */
function labelEntries(
  recs: readonly PathEntry[],
  labelOf: (id: string) => BranchLabel | undefined,
  ids: Set<string>,
): LabelEntry[] {
  const last = recs.length > 0 ? recs[recs.length - 1].env.id : null;
  const out: LabelEntry[] = [];
  for (const rec of recs) {
    const label = labelOf(rec.env.id);
    if (label === undefined) continue;
    const id = newEntryId((c) => ids.has(c));
    ids.add(id);
    // The label keeps the time it was set: pi shows it in its tree (labelTimestamp).
    const timestamp = label.timestamp ?? new Date().toISOString();
    out.push({ type: "label", id, parentId: last, timestamp, targetId: rec.env.id, label: label.text });
  }
  return out;
}

/** The branch's entries in memory: the path, then the re-created labels. */
export function branchEntries(
  plan: BranchPlan,
  load: (rec: PathEntry) => SessionEntry,
  labelOf: (id: string) => BranchLabel | undefined,
): SessionEntry[] {
  const out: SessionEntry[] = [];
  let prev: string | null = null;
  for (const rec of plan.recs) {
    out.push(relinked(load(rec), prev, plan.moved));
    prev = rec.env.id;
  }
  return [...out, ...labelEntries(plan.recs, labelOf, new Set(plan.recs.map((r) => r.env.id)))];
}

/**
 * Write `header` and `count` entry lines (`line(i)`, as stored) to a new file in `dir` named after the header (pi
 * 1.6's forkFrom): written to a temp file, fsynced, renamed. Returns the new file's path.
 */
export async function writeSessionCopy(
  dir: string,
  header: SessionHeader,
  count: number,
  line: (i: number) => Buffer,
): Promise<string> {
  return writeNewFile(dir, header, (write) => {
    for (let i = 0; i < count; i++) write(Buffer.concat([line(i), Buffer.from("\n")]));
  });
}

/** The new file of `header` in `dir`, its lines after the header written by `body`; temp file, fsync, rename. */
async function writeNewFile(
  dir: string,
  header: SessionHeader,
  body: (write: (bytes: Buffer) => void) => void,
): Promise<string> {
  await fs.promises.mkdir(dir, { recursive: true });
  const target = path.join(dir, sessionFileName(header.timestamp, header.id));
  const tmp = `${target}.tmp-${process.pid}`;
  const fd = fs.openSync(tmp, "w");
  let written = false;
  try {
    writeAll(fd, Buffer.from(JSON.stringify(header) + "\n"));
    body((bytes) => writeAll(fd, bytes));
    fs.fsyncSync(fd);
    written = true;
  } finally {
    fs.closeSync(fd);
    // A half-written file is of no use: do not leave it behind.
    if (!written) fs.rmSync(tmp, { force: true });
  }
  fs.renameSync(tmp, target);
  return target;
}

/**
 * Write `header` and the branch to a new file in `dir`: the path with the same ids, then the re-created labels.
 * Lines whose parent and fields are unchanged are copied byte for byte; the rest are written anew. Written to a
 * temp file, fsynced, renamed. Returns the new file's path.
 */
export async function writeBranchFile(
  dir: string,
  header: SessionHeader,
  plan: BranchPlan,
  src: BranchSource,
): Promise<string> {
  return writeNewFile(dir, header, (write) => {
    let prev: string | null = null;
    for (const rec of plan.recs) {
      const keptFrom = rec.env.type === "compaction" ? rec.meta.firstKeptEntryId : undefined;
      const moves = keptFrom !== undefined && plan.moved.has(keptFrom);
      if (rec.env.parentId === prev && !moves) {
        // Same parent: copy the line's bytes as they are (no parse of big bodies).
        write(Buffer.concat([src.readBytes(rec), Buffer.from("\n")]));
      } else {
        write(Buffer.from(JSON.stringify(relinked(src.load(rec), prev, plan.moved)) + "\n"));
      }
      prev = rec.env.id;
    }
    for (const entry of labelEntries(plan.recs, src.labelOf, new Set(plan.recs.map((r) => r.env.id))))
      write(Buffer.from(JSON.stringify(entry) + "\n"));
  });
}
