/**
 * API keys per provider in SecretStorage. Keys are cached in memory so the chat can tell synchronously
 * whether a model is usable; they are never logged, posted to a webview, or written to a session.
 */
import * as vscode from "vscode";

const PREFIX = "agentTree.apiKey.";

/** SecretStorage-backed keys with an in-memory mirror. */
export class ApiKeys implements vscode.Disposable {
  private readonly cache = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** A key was set or removed (here or in another window). */
  readonly onDidChange = this.changed.event;
  private readonly sub: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.sub = secrets.onDidChange(async (e) => {
      if (!e.key.startsWith(PREFIX)) return;
      await this.reload(e.key.slice(PREFIX.length));
      this.changed.fire();
    });
  }

  /** Load the keys of these providers into the cache. */
  async load(providers: Iterable<string>): Promise<void> {
    await Promise.all([...new Set(providers)].map((p) => this.reload(p)));
  }

  /** The stored key of a provider. */
  async get(provider: string): Promise<string | undefined> {
    if (!this.cache.has(provider)) await this.reload(provider);
    return this.cache.get(provider);
  }

  /** Store (or with an empty value, delete) a provider's key. */
  async set(provider: string, key: string): Promise<void> {
    const trimmed = key.trim();
    if (trimmed) await this.secrets.store(PREFIX + provider, trimmed);
    else await this.secrets.delete(PREFIX + provider);
    await this.reload(provider);
    this.changed.fire();
  }

  /** True when a key of this provider is stored here (the provider's own credentials are the registry's to know). */
  has(provider: string): boolean {
    return this.cache.has(provider);
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }

  private async reload(provider: string): Promise<void> {
    const v = await this.secrets.get(PREFIX + provider);
    if (v) this.cache.set(provider, v);
    else this.cache.delete(provider);
  }
}
