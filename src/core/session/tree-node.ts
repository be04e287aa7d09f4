/** getTree() nodes: the envelope at hand, the entry read from the session's bytes on first access. */
import type { EntryEnvelope, SessionEntry, SessionTreeNode } from "./types.js";

/** A tree node whose entry is read on access. */
export class LazyTreeNode implements SessionTreeNode {
  readonly children: SessionTreeNode[] = [];
  label?: string;
  labelTimestamp?: string;
  orphan?: boolean;
  constructor(
    readonly envelope: EntryEnvelope,
    /** The entry's position in the session's index, and the reader of the entry at a position. */
    private readonly position: number,
    private readonly loader: (position: number) => SessionEntry,
    label: { text: string; timestamp: string | undefined } | undefined,
  ) {
    if (label !== undefined) {
      this.label = label.text;
      if (label.timestamp !== undefined) this.labelTimestamp = label.timestamp;
    }
    if (envelope.orphan) this.orphan = true;
  }
  get entry(): SessionEntry {
    return this.loader(this.position);
  }
  toJSON(): {
    entry: SessionEntry;
    children: SessionTreeNode[];
    label?: string;
    labelTimestamp?: string;
    orphan?: boolean;
  } {
    return {
      entry: this.entry,
      children: this.children,
      label: this.label,
      labelTimestamp: this.labelTimestamp,
      orphan: this.orphan,
    };
  }
}
