/**
 * The in-memory tree of a session: records in file order, id → record, children per parent (oldest first,
 * file order breaking timestamp ties), roots (parentId null or orphaned), resolved labels.
 */
import type { EntryRecord } from "./entry-record.js";

function byTime(a: EntryRecord, b: EntryRecord): number {
  return a.ts - b.ts || a.seq - b.seq;
}

/** Insert keeping (ts, seq) order; new records usually go last. */
function insertSorted(list: EntryRecord[], rec: EntryRecord): void {
  let i = list.length;
  while (i > 0 && byTime(list[i - 1], rec) > 0) i--;
  list.splice(i, 0, rec);
}

/** Mutable index of a session's entries. */
export class EntryIndex {
  readonly records: EntryRecord[] = [];
  readonly byId = new Map<string, EntryRecord>();
  private readonly children = new Map<string, EntryRecord[]>();
  private readonly rootList: EntryRecord[] = [];
  readonly labels = new Map<string, string>();
  sessionName: string | undefined;

  /**
   * Build from records in file order. Returns the records that were dropped because their id was already
   * taken by an earlier line (the first one wins, as lookups in pi find the first too).
   */
  static build(records: readonly EntryRecord[]): { index: EntryIndex; duplicates: EntryRecord[] } {
    const index = new EntryIndex();
    const duplicates: EntryRecord[] = [];
    for (const rec of records) {
      if (index.byId.has(rec.env.id)) {
        duplicates.push(rec);
        continue;
      }
      rec.seq = index.records.length;
      index.records.push(rec);
      index.byId.set(rec.env.id, rec);
      index.applyMeta(rec);
    }
    for (const rec of index.records) {
      const p = rec.env.parentId;
      if (p === null) index.rootList.push(rec);
      else if (!index.byId.has(p) || p === rec.env.id) {
        rec.env.orphan = true;
        index.rootList.push(rec);
      } else {
        const list = index.children.get(p);
        if (list) list.push(rec);
        else index.children.set(p, [rec]);
      }
    }
    for (const list of index.children.values()) list.sort(byTime);
    index.rootList.sort(byTime);
    return { index, duplicates };
  }

  private applyMeta(rec: EntryRecord): void {
    const { meta } = rec;
    if (meta.labelTarget !== undefined) {
      if (meta.label !== undefined) this.labels.set(meta.labelTarget, meta.label);
      else this.labels.delete(meta.labelTarget);
    }
    if (rec.env.type === "session_info") this.sessionName = meta.name;
  }

  /** Add a new record whose parent (if any) exists. */
  add(rec: EntryRecord): void {
    rec.seq = this.records.length;
    this.records.push(rec);
    this.byId.set(rec.env.id, rec);
    this.applyMeta(rec);
    const p = rec.env.parentId;
    if (p === null) insertSorted(this.rootList, rec);
    else {
      const list = this.children.get(p);
      if (list) insertSorted(list, rec);
      else this.children.set(p, [rec]);
    }
  }

  /** Children of `id`, oldest first (do not mutate). */
  childrenOf(id: string): readonly EntryRecord[] {
    return this.children.get(id) ?? [];
  }

  /** Entries without a parent in the file: parentId null, or orphans. Oldest first. */
  roots(): readonly EntryRecord[] {
    return this.rootList;
  }

  /** Records from the root to `id` (inclusive); stops at an orphan or a cycle. */
  pathTo(id: string): EntryRecord[] {
    const out: EntryRecord[] = [];
    const seen = new Set<string>();
    let rec = this.byId.get(id);
    while (rec && !seen.has(rec.env.id)) {
      seen.add(rec.env.id);
      out.push(rec);
      rec = rec.env.parentId === null ? undefined : this.byId.get(rec.env.parentId);
    }
    return out.reverse();
  }
}
