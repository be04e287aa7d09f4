/**
 * pi's stored logins and keys — `auth.json` in its agent folder (`$PI_CODING_AGENT_DIR`, else `~/.pi/agent`) — as a
 * pi-ai `CredentialStore`, in pi's format and under pi's lock (pi 1.6.0, `dist/core/auth-storage.js`):
 *
 * - the file is one JSON object, `{ "<provider>": { "type": "api_key", "key", "env"? } | { "type": "oauth", "access",
 *   "refresh", "expires", … } }`, written back whole with two-space indentation, mode 0600 (the folder 0700);
 * - every read-modify-write (a login, an OAuth refresh, a logout) holds the lock pi holds: `proper-lockfile` (the same
 *   library and version) on the file, `stale` 30 s, waited for with pi's backoff for up to 30 s — so pi and the
 *   extension never refresh one token at the same time, and neither loses the other's write;
 * - the file is re-read under the lock when it changed (its revision: device, inode, size, change times), as pi does;
 * - an API key may be a literal, `$NAME` / `${NAME}` (the credential's `env`, then the environment) or `!command`
 *   (its output, run once per process), resolved on read as pi resolves it; `list()` resolves nothing.
 */
import { existsSync, mkdirSync, statSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { AuthOperationOptions, Credential, CredentialInfo, CredentialStore } from "@earendil-works/pi-ai";
import { lock } from "proper-lockfile";
import { getAgentDir } from "../session/paths.js";
import { isCommandValue, resolveConfigValue } from "./config-value.js";
import { errorText } from "../error-text.js";

/** pi's lock options: a lock older than this is stale (its holder died); waiting for a live one ends after as long. */
const LOCK_STALE_MS = 30_000;
const LOCK_MAX_DELAY_MS = 2_000;
/** The file's mode when this store creates it (an existing file keeps its own). */
const FILE_MODE = 0o600;

type AuthData = Record<string, unknown>;

/** Outputs of `!command` keys, per process (pi caches them the same way). */
const commandOutputs = new Map<string, Promise<string | undefined>>();

/** pi's `auth.json` path: the agent folder's. */
export function piAuthFile(agentDir: string = getAgentDir()): string {
  return path.join(agentDir, "auth.json");
}

function revisionOf(file: string): string | undefined {
  try {
    const s = statSync(file, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return undefined;
  }
}

function parse(text: string | undefined, file: string): AuthData {
  if (!text?.trim()) return {};
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    throw new Error(`${file} is not valid JSON: ${errorText(e)}`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw new Error(`${file} must hold a JSON object`);
  return json as AuthData;
}

/** The entry as a credential, when it is one pi would accept (pi's ReadOnlyAuthStorage check); otherwise undefined. */
function credentialOf(value: unknown): Credential | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (v.type === "api_key") {
    const keyOk = v.key === undefined || typeof v.key === "string";
    const envOk =
      v.env === undefined ||
      (typeof v.env === "object" &&
        v.env !== null &&
        !Array.isArray(v.env) &&
        Object.values(v.env).every((e) => typeof e === "string"));
    return keyOk && envOk ? (structuredClone(v) as unknown as Credential) : undefined;
  }
  if (
    v.type === "oauth" &&
    typeof v.access === "string" &&
    typeof v.refresh === "string" &&
    typeof v.expires === "number" &&
    Number.isFinite(v.expires)
  )
    return structuredClone(v) as unknown as Credential;
  return undefined;
}

/** Options of {@link PiAuthFileStore}. */
export interface PiAuthFileStoreOptions {
  /** The environment `$NAME` keys read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** How long to wait for a lock another process holds (default pi's 30 s). */
  lockWaitMs?: number;
}

/** See the file comment. */
export class PiAuthFileStore implements CredentialStore {
  readonly file: string;
  private cached: { revision: string | undefined; data: AuthData } | undefined;
  private reloading: Promise<AuthData> | undefined;
  /** Writes of this process, one at a time (the file lock is per process too, but waiting on it here is cheaper). */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    file: string = piAuthFile(),
    private readonly options: PiAuthFileStoreOptions = {},
  ) {
    this.file = path.resolve(file);
  }

  /** True when the file exists (pi has stored something, or did once). */
  exists(): boolean {
    return existsSync(this.file);
  }

  async read(providerId: string, options?: AuthOperationOptions): Promise<Credential | undefined> {
    const credential = credentialOf((await this.load(options))[providerId]);
    options?.signal?.throwIfAborted();
    if (credential?.type !== "api_key" || credential.key === undefined) return credential;
    return { ...credential, key: await this.resolveKey(credential.key, credential.env) };
  }

  async list(options?: AuthOperationOptions): Promise<readonly CredentialInfo[]> {
    const data = await this.load(options);
    return Object.entries(data).flatMap(([providerId, value]) => {
      const c = credentialOf(value);
      return c ? [{ providerId, type: c.type }] : [];
    });
  }

  modify(
    providerId: string,
    fn: (current: Credential | undefined) => Promise<Credential | undefined>,
    options?: AuthOperationOptions,
  ): Promise<Credential | undefined> {
    return this.serialized(() =>
      this.withLock(async (data) => {
        const current = credentialOf(data[providerId]);
        const next = await fn(current);
        if (next === undefined) return { result: current };
        return { result: next, next: { ...data, [providerId]: next } };
      }, options),
    );
  }

  delete(providerId: string, options?: AuthOperationOptions): Promise<void> {
    return this.serialized(() =>
      this.withLock(async (data) => {
        const next = { ...data };
        delete next[providerId];
        return { result: undefined, next };
      }, options),
    );
  }

  // ---- internals --------------------------------------------------------------------------------

  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.catch(() => undefined).then(task);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** The file's content: the cached copy while its revision holds, else read again under the lock. */
  private async load(options?: AuthOperationOptions): Promise<AuthData> {
    options?.signal?.throwIfAborted();
    const revision = revisionOf(this.file);
    if (revision === undefined) return {};
    if (this.cached && this.cached.revision === revision) return this.cached.data;
    this.reloading ??= this.withLock(async (data) => ({ result: data }), options).finally(() => {
      this.reloading = undefined;
    });
    return this.reloading;
  }

  private async resolveKey(key: string, env: Record<string, string> | undefined): Promise<string | undefined> {
    const base = this.options.env ?? process.env;
    const lookup = (name: string): string | undefined => env?.[name] || base[name] || undefined;
    if (isCommandValue(key)) {
      let out = commandOutputs.get(key);
      if (!out) {
        out = resolveConfigValue(key, "pi's stored API key", lookup, base).catch(() => undefined);
        commandOutputs.set(key, out);
      }
      return out;
    }
    try {
      return await resolveConfigValue(key, "pi's stored API key", lookup);
    } catch {
      // A `$NAME` whose variable is not set: no key (pi's `resolveConfigValue` gives undefined too).
      return undefined;
    }
  }

  /** pi's `acquireLockAsync`: proper-lockfile without its own retries, backing off up to 2 s, for up to 30 s. */
  private async acquire(
    signal: AbortSignal | undefined,
    onCompromised: (e: Error) => void,
  ): Promise<() => Promise<void>> {
    const deadline = Date.now() + (this.options.lockWaitMs ?? LOCK_STALE_MS);
    for (let retry = 0; ; retry++) {
      signal?.throwIfAborted();
      try {
        const release = await lock(this.file, { retries: 0, stale: LOCK_STALE_MS, onCompromised });
        if (signal?.aborted) {
          await release();
          signal.throwIfAborted();
        }
        return release;
      } catch (e) {
        signal?.throwIfAborted();
        const remaining = deadline - Date.now();
        if ((e as NodeJS.ErrnoException).code !== "ELOCKED" || remaining <= 0) {
          if ((e as NodeJS.ErrnoException).code === "ELOCKED")
            throw new Error(`${this.file} stayed locked by another process (pi?) for too long`, { cause: e });
          throw e;
        }
        const base = Math.min(10 * 2 ** retry, LOCK_MAX_DELAY_MS / 2);
        await sleep(Math.min(Math.round(base * (1 + Math.random())), remaining), undefined, { signal });
      }
    }
  }

  /** Runs `fn` on the file's content under the lock; writes `next` when it gives one. Creates the file as pi does. */
  private async withLock<T>(
    fn: (data: AuthData) => Promise<{ result: T; next?: AuthData }>,
    options?: AuthOperationOptions,
  ): Promise<T> {
    options?.signal?.throwIfAborted();
    const dir = path.dirname(this.file);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!existsSync(this.file))
      await writeFile(this.file, "{}", { encoding: "utf8", mode: FILE_MODE, flag: "wx" }).catch(ignoreExists);
    let compromised: Error | undefined;
    const release = await this.acquire(options?.signal, (e) => (compromised = e));
    try {
      const text = await readFile(this.file, "utf8").catch((e: NodeJS.ErrnoException) => {
        if (e.code === "ENOENT") return undefined;
        throw e;
      });
      const data = parse(text, this.file);
      const { result, next } = await fn(data);
      if (compromised) throw compromised;
      if (next !== undefined)
        await writeFile(this.file, JSON.stringify(next, null, 2), { encoding: "utf8", mode: FILE_MODE });
      if (compromised) throw compromised;
      this.cached = { revision: revisionOf(this.file), data: next ?? data };
      return result;
    } finally {
      await release().catch(() => undefined);
    }
  }
}

function ignoreExists(e: NodeJS.ErrnoException): void {
  if (e.code !== "EEXIST") throw e;
}
