/**
 * The secrets of stored credentials, known to the registry so tool output can be redacted of them: a key entered
 * with "Agent: Set API Key" or a login's tokens are in no environment variable, yet a tool could find them (in a
 * file, another process's memory dump). `SecretTrackingStore` wraps the host's credential store and remembers the
 * secret values of every credential that passes through it (reads, logins, refreshes); pi-ai reads each provider's
 * credential when readiness is checked, so every stored credential is known after the first `refreshAuth()`.
 */
import type { AuthOperationOptions, Credential, CredentialInfo, CredentialStore } from "@earendil-works/pi-ai";

/** Fields of an OAuth credential that hold a secret (pi-ai's `access` and `refresh`; a flow's own tokens). */
const SECRET_FIELD = /token|secret|key|access|refresh|password/i;

/** The secret strings of a credential: an API key's `key`, an OAuth credential's tokens. */
export function credentialSecrets(credential: Credential | undefined): string[] {
  if (!credential) return [];
  if (credential.type === "api_key") return credential.key ? [credential.key] : [];
  return Object.entries(credential).flatMap(([field, value]) =>
    field !== "type" && SECRET_FIELD.test(field) && typeof value === "string" && value ? [value] : [],
  );
}

/** See the file comment. Values stay known after a logout: a token that was once stored is still worth hiding. */
export class SecretTrackingStore implements CredentialStore {
  private readonly secrets = new Set<string>();

  constructor(private readonly inner: CredentialStore) {}

  /** Every secret value seen so far. */
  values(): string[] {
    return [...this.secrets];
  }

  async read(providerId: string, options?: AuthOperationOptions): Promise<Credential | undefined> {
    return this.learn(await this.inner.read(providerId, options));
  }

  list(options?: AuthOperationOptions): Promise<readonly CredentialInfo[]> {
    return this.inner.list(options);
  }

  async modify(
    providerId: string,
    fn: (current: Credential | undefined) => Promise<Credential | undefined>,
    options?: AuthOperationOptions,
  ): Promise<Credential | undefined> {
    const result = await this.inner.modify(
      providerId,
      async (current) => this.learn(await fn(this.learn(current))),
      options,
    );
    return this.learn(result);
  }

  delete(providerId: string, options?: AuthOperationOptions): Promise<void> {
    return this.inner.delete(providerId, options);
  }

  private learn(credential: Credential | undefined): Credential | undefined {
    for (const s of credentialSecrets(credential)) this.secrets.add(s);
    return credential;
  }
}
