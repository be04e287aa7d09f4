/**
 * The extension's own stored credentials — keys entered with "Agent: Set API Key", logins made with "Agent: Log In…"
 * — as a pi-ai `CredentialStore` on VS Code's SecretStorage: one secret per provider (`agentTree.credential.<id>`,
 * the credential as JSON, in pi's `auth.json` shape). `modify` is a serialized read-modify-write per provider within
 * the window (pi-ai runs OAuth refreshes inside it); SecretStorage has no lock across windows, so another window's
 * write is picked up through `onDidChange`. Values are cached in memory after the first read (readiness checks read
 * every provider) and never logged.
 *
 * Keys stored by earlier versions (`agentTree.apiKey.<id>`, the raw key) move here on first use (`migrate`).
 */
import type { AuthOperationOptions, Credential, CredentialInfo, CredentialStore } from "@earendil-works/pi-ai";

/** What the store needs of `vscode.SecretStorage` (`keys()` exists from VS Code 1.101 on; feature-detected). */
export interface SecretStorageLike {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
  onDidChange(listener: (e: { key: string }) => unknown): { dispose(): unknown };
  keys?(): PromiseLike<string[]>;
}

const PREFIX = "agentTree.credential.";
/** The providers that have a credential here, for `list()` where SecretStorage cannot list its keys. */
const INDEX = "agentTree.credentials";
/** Where earlier versions kept API keys. */
const LEGACY_PREFIX = "agentTree.apiKey.";

function parseCredential(text: string | undefined): Credential | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as Credential;
    return v && (v.type === "api_key" || v.type === "oauth") ? v : undefined;
  } catch {
    return undefined;
  }
}

/** See the file comment. */
export class SecretCredentialStore implements CredentialStore {
  private readonly cache = new Map<string, Promise<Credential | undefined>>();
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly listeners = new Set<(providerId: string) => void>();
  private readonly sub: { dispose(): unknown };

  constructor(private readonly secrets: SecretStorageLike) {
    this.sub = secrets.onDidChange((e) => {
      if (!e.key.startsWith(PREFIX)) return;
      const id = e.key.slice(PREFIX.length);
      // Written here or in another window: read it again when next asked.
      this.cache.delete(id);
      for (const l of this.listeners) l(id);
    });
  }

  /** Called when a provider's credential changed (here or in another window). Returns the unsubscribe function. */
  onDidChange(listener: (providerId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  read(providerId: string, options?: AuthOperationOptions): Promise<Credential | undefined> {
    options?.signal?.throwIfAborted();
    let cached = this.cache.get(providerId);
    if (!cached) {
      cached = Promise.resolve(this.secrets.get(PREFIX + providerId)).then(parseCredential);
      this.cache.set(providerId, cached);
      // A failed read is not kept: the next one tries again.
      cached.catch(() => this.cache.delete(providerId));
    }
    return cached.then((c) => (c ? structuredClone(c) : undefined));
  }

  async list(options?: AuthOperationOptions): Promise<readonly CredentialInfo[]> {
    options?.signal?.throwIfAborted();
    const ids = new Set(await this.indexed());
    if (typeof this.secrets.keys === "function")
      for (const k of await this.secrets.keys()) if (k.startsWith(PREFIX)) ids.add(k.slice(PREFIX.length));
    const out: CredentialInfo[] = [];
    for (const providerId of [...ids].sort()) {
      const c = await this.read(providerId, options);
      if (c) out.push({ providerId, type: c.type });
    }
    return out;
  }

  modify(
    providerId: string,
    fn: (current: Credential | undefined) => Promise<Credential | undefined>,
    options?: AuthOperationOptions,
  ): Promise<Credential | undefined> {
    return this.serialized(providerId, options, async () => {
      // The authoritative value, not the cache: another window may have refreshed the token meanwhile.
      this.cache.delete(providerId);
      const current = await this.read(providerId);
      const next = await fn(current);
      if (next === undefined) return current;
      await this.write(providerId, next);
      return next;
    });
  }

  delete(providerId: string, options?: AuthOperationOptions): Promise<void> {
    return this.serialized(providerId, options, async () => {
      await this.secrets.delete(PREFIX + providerId);
      this.cache.set(providerId, Promise.resolve(undefined));
      await this.updateIndex((ids) => ids.filter((id) => id !== providerId));
    });
  }

  /**
   * Moves keys an earlier version stored (`agentTree.apiKey.<id>`) of these providers here, unless a credential is
   * stored already; the old secret is removed either way. Returns the providers moved.
   */
  async migrate(providerIds: Iterable<string>): Promise<string[]> {
    const moved: string[] = [];
    for (const id of new Set(providerIds)) {
      const key = (await this.secrets.get(LEGACY_PREFIX + id))?.trim();
      if (!key) continue;
      await this.modify(id, async (current) => current ?? { type: "api_key", key });
      await this.secrets.delete(LEGACY_PREFIX + id);
      moved.push(id);
    }
    return moved;
  }

  dispose(): void {
    this.sub.dispose();
    this.listeners.clear();
  }

  // ---- internals --------------------------------------------------------------------------------

  private async write(providerId: string, credential: Credential): Promise<void> {
    await this.secrets.store(PREFIX + providerId, JSON.stringify(credential));
    this.cache.set(providerId, Promise.resolve(structuredClone(credential)));
    await this.updateIndex((ids) => (ids.includes(providerId) ? ids : [...ids, providerId]));
  }

  private async indexed(): Promise<string[]> {
    try {
      const v: unknown = JSON.parse((await this.secrets.get(INDEX)) ?? "[]");
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
    } catch {
      return [];
    }
  }

  private indexChain: Promise<unknown> = Promise.resolve();

  private updateIndex(change: (ids: string[]) => string[]): Promise<void> {
    const run = this.indexChain.then(async () => {
      const before = await this.indexed();
      const after = change(before);
      if (after.length !== before.length || after.some((id, i) => id !== before[i]))
        await this.secrets.store(INDEX, JSON.stringify(after));
    });
    this.indexChain = run.catch(() => undefined);
    return run;
  }

  /** Runs `task` after every earlier task of this provider (pi-ai's InMemoryCredentialStore does the same). */
  private serialized<T>(
    providerId: string,
    options: AuthOperationOptions | undefined,
    task: () => Promise<T>,
  ): Promise<T> {
    options?.signal?.throwIfAborted();
    const previous = this.chains.get(providerId) ?? Promise.resolve();
    const run = previous
      .catch(() => undefined)
      .then(() => {
        options?.signal?.throwIfAborted();
        return task();
      });
    const tail = run.catch(() => undefined);
    this.chains.set(providerId, tail);
    void tail.then(() => {
      if (this.chains.get(providerId) === tail) this.chains.delete(providerId);
    });
    return run;
  }
}
