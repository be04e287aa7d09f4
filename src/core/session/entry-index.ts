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

const NO_KIDS: readonly EntryRecord[] = Object.freeze([]);

/** Mutable index of a session's entries. Parent and children links live on the records (no map lookups). */
export class EntryIndex {
  readonly records: EntryRecord[] = [];
  readonly byId = new Map<string, EntryRecord>();
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
    const { byId } = index;
    for (const rec of records) {
      const before = byId.size;
      byId.set(rec.env.id, byId.get(rec.env.id) ?? rec);
      if (byId.size === before) {
        duplicates.push(rec);
        continue;
      }
      rec.seq = index.records.length;
      index.records.push(rec);
      index.applyMeta(rec);
    }
    const unsorted = new Set<EntryRecord[]>();
    for (const rec of index.records) {
      const p = rec.env.parentId;
      const parent = p === null ? undefined : byId.get(p);
      if (!parent || parent === rec) {
        if (p !== null) rec.env.orphan = true;
        index.rootList.push(rec);
        continue;
      }
      rec.parent = parent;
      if (parent.kids) {
        const kids = parent.kids;
        // File order is usually time order: only lists that went out of order need a sort.
        if (byTime(kids[kids.length - 1], rec) > 0) unsorted.add(kids);
        kids.push(rec);
      } else parent.kids = [rec];
    }
    for (const list of unsorted) list.sort(byTime);
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
    const parent = rec.env.parentId === null ? undefined : this.byId.get(rec.env.parentId);
    if (!parent) {
      insertSorted(this.rootList, rec);
      return;
    }
    rec.parent = parent;
    if (parent.kids) insertSorted(parent.kids, rec);
    else parent.kids = [rec];
  }

  /** Children of `id`, oldest first (do not mutate). */
  childrenOf(id: string): readonly EntryRecord[] {
    return this.byId.get(id)?.kids ?? NO_KIDS;
  }

  /** Entries without a parent in the file: parentId null, or orphans. Oldest first. */
  roots(): readonly EntryRecord[] {
    return this.rootList;
  }

  /** Records from the root to `id` (inclusive); stops at an orphan or a cycle. */
  pathTo(id: string): EntryRecord[] {
    const out: EntryRecord[] = [];
    // A path is at most as long as the file: more steps mean a parentId cycle (a damaged file).
    for (let rec = this.byId.get(id); rec && out.length <= this.records.length; rec = rec.parent) out.push(rec);
    return out.reverse();
  }
}
