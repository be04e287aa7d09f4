/**
 * Parsed markdown kept per message, so remounting a row (scrolling it back into the window) or
 * re-rendering it clones a fragment instead of running marked and the sanitizer again.
 */

/** A small least-recently-used cache of values derived from a text, keyed by the message's block. */
export class DerivedTextCache<V> {
  private readonly entries = new Map<string, { text: string; value: V }>();

  /**
   * @param derive turns a text into the cached value (the expensive step)
   * @param limit entries kept; the least recently used go first
   */
  constructor(
    private readonly derive: (text: string) => V,
    private readonly limit: number,
  ) {}

  /** The value for `key` if it was derived from this same `text`, else derive and remember it. */
  get(key: string, text: string): V {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      // A streamed message keeps its key while its text grows: only the newest text is worth keeping.
      if (hit.text === text) {
        this.entries.set(key, hit);
        return hit.value;
      }
    }
    const value = this.derive(text);
    this.remember(key, text, value);
    return value;
  }

  /** The value for `key` if it was derived from this same `text`, else undefined (nothing is derived). */
  peek(key: string, text: string): V | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined || hit.text !== text) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  /** Remember `value` as derived from `text` for `key` (derived elsewhere). */
  remember(key: string, text: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { text, value });
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** Entries held. */
  get size(): number {
    return this.entries.size;
  }
}
