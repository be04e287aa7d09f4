/** getTree() nodes: the envelope at hand, the entry read from disk on first access. */
import type { EntryRecord } from "./entry-record.js";
import type { EntryEnvelope, SessionEntry, SessionTreeNode } from "./types.js";

/** A tree node whose entry is read on first access. */
export class LazyTreeNode implements SessionTreeNode {
  readonly children: SessionTreeNode[] = [];
  readonly envelope: EntryEnvelope;
  label?: string;
  orphan?: boolean;
  constructor(
    private readonly rec: EntryRecord,
    private readonly loader: (rec: EntryRecord) => SessionEntry,
    label: string | undefined,
  ) {
    this.envelope = rec.env;
    if (label !== undefined) this.label = label;
    if (rec.env.orphan) this.orphan = true;
  }
  get entry(): SessionEntry {
    return this.loader(this.rec);
  }
  toJSON(): { entry: SessionEntry; children: SessionTreeNode[]; label?: string; orphan?: boolean } {
    return { entry: this.entry, children: this.children, label: this.label, orphan: this.orphan };
  }
}
