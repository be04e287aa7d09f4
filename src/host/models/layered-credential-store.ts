/**
 * The one credential store the model registry uses: the extension's own (SecretStorage, secret-credential-store.ts)
 * and — when the user chose to use them — pi's stored logins and keys (`auth.json`, pi-auth-store.ts) below it.
 *
 * - reading: the extension's credential of a provider, else pi's;
 * - writing (a login, a key, an OAuth refresh): where the provider's credential is — a refresh of pi's token happens
 *   in pi's file, under pi's lock, so pi sees the new token; a provider with none goes to SecretStorage;
 * - removing (Log Out): from both, so the provider is logged out here (and, for pi's credential, in pi too: the
 *   command says so before).
 *
 * A broken or unreadable `auth.json` hides pi's credentials (reported once through `onPiError`); the extension's
 * own keep working.
 */
import type { AuthOperationOptions, Credential, CredentialInfo, CredentialStore } from "@earendil-works/pi-ai";
import { errorText } from "../../core/error-text.js";

/** Where a stored credential is. */
export type CredentialPlace = "vscode" | "pi";

/** A stored credential's metadata (no secret), with where it is. */
export interface PlacedCredentialInfo extends CredentialInfo {
  place: CredentialPlace;
}

/** See the file comment. */
export class LayeredCredentialStore implements CredentialStore {
  private pi: CredentialStore | undefined;
  private reported = new Set<string>();

  constructor(
    private readonly own: CredentialStore,
    private readonly onPiError: (message: string) => void = () => undefined,
  ) {}

  /** Use pi's store below the extension's (or stop using it, with undefined). */
  setPiStore(store: CredentialStore | undefined): void {
    this.pi = store;
    this.reported.clear();
  }

  /** True while pi's stored credentials are used. */
  get usesPi(): boolean {
    return this.pi !== undefined;
  }

  async read(providerId: string, options?: AuthOperationOptions): Promise<Credential | undefined> {
    const own = await this.own.read(providerId, options);
    if (own) return own;
    return this.piSafely((pi) => pi.read(providerId, options), undefined);
  }

  async list(options?: AuthOperationOptions): Promise<readonly CredentialInfo[]> {
    return (await this.placed(options)).map(({ providerId, type }) => ({ providerId, type }));
  }

  /** Every stored credential with where it is (the extension's first; a provider in both listed once, as used). */
  async placed(options?: AuthOperationOptions): Promise<PlacedCredentialInfo[]> {
    const own = (await this.own.list(options)).map((c): PlacedCredentialInfo => ({ ...c, place: "vscode" }));
    const mine = new Set(own.map((c) => c.providerId));
    const pi = await this.piSafely((store) => store.list(options), []);
    return [
      ...own,
      ...pi.filter((c) => !mine.has(c.providerId)).map((c): PlacedCredentialInfo => ({ ...c, place: "pi" })),
    ];
  }

  async modify(
    providerId: string,
    fn: (current: Credential | undefined) => Promise<Credential | undefined>,
    options?: AuthOperationOptions,
  ): Promise<Credential | undefined> {
    const pi = this.pi;
    if (pi && !(await this.own.read(providerId, options)) && (await this.inPi(pi, providerId, options)))
      return pi.modify(providerId, fn, options);
    return this.own.modify(providerId, fn, options);
  }

  async delete(providerId: string, options?: AuthOperationOptions): Promise<void> {
    await this.own.delete(providerId, options);
    const pi = this.pi;
    if (pi && (await this.inPi(pi, providerId, options))) await pi.delete(providerId, options);
  }

  /** Where the provider's credential is, if stored. */
  async placeOf(providerId: string, options?: AuthOperationOptions): Promise<CredentialPlace | undefined> {
    if (await this.own.read(providerId, options)) return "vscode";
    const pi = this.pi;
    return pi && (await this.inPi(pi, providerId, options)) ? "pi" : undefined;
  }

  private async inPi(pi: CredentialStore, providerId: string, options?: AuthOperationOptions): Promise<boolean> {
    // `list` resolves nothing (a `!command` key is not run just to see whether it is there).
    return (await this.piSafely(() => pi.list(options), [])).some((c) => c.providerId === providerId);
  }

  private async piSafely<T>(use: (pi: CredentialStore) => Promise<T>, fallback: T): Promise<T> {
    const pi = this.pi;
    if (!pi) return fallback;
    try {
      return await use(pi);
    } catch (e) {
      // A cancelled operation is the caller's to see, not a broken file.
      if (e instanceof Error && e.name === "AbortError") throw e;
      const message = `pi's stored logins (auth.json) cannot be read: ${errorText(e)}`;
      if (!this.reported.has(message)) {
        this.reported.add(message);
        this.onPiError(message);
      }
      return fallback;
    }
  }
}
