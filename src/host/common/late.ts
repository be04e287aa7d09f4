/**
 * A part of the host built later in activation than what refers to it (the session controller, the operations
 * table, the webview router: src/host/common/services.ts). Pure: no `vscode` import.
 */

/** A part built later in activation: set once, read when used (an error names it when read too early). */
export class Late<T> {
  private value: T | undefined;

  constructor(private readonly what: string) {}

  /** The part; throws when it is not built yet (a wiring mistake, not a user's). */
  get(): T {
    if (this.value === undefined) throw new Error(`${this.what} is used before it is built`);
    return this.value;
  }

  /** The part, or undefined before it is built (for what may come first: a view's message, an edit's answer). */
  peek(): T | undefined {
    return this.value;
  }

  /** Sets the part; a second time throws (one part per activation). */
  set(value: T): void {
    if (this.value !== undefined) throw new Error(`${this.what} is built twice`);
    this.value = value;
  }
}
