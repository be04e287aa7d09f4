/**
 * Keys and logins, in one place: **Agent: Set API Key** (every provider that takes a key; the provider's own setup
 * as pi-ai defines it — usually one secret, some ask more, such as Cloudflare's account), **Agent: Log In…** (the
 * subscription logins pi-ai provides: Claude Pro/Max, ChatGPT, GitHub Copilot, …) and **Agent: Log Out…**. What they
 * store goes to SecretStorage (secret-credential-store.ts) — never to settings, logs or the webview; a login of pi's
 * (its `auth.json`, when the user chose to use it) is refreshed in place and removed from there on Log Out.
 */
import { randomUUID } from "node:crypto";
import type { Credential, ProviderAuthInteraction } from "@earendil-works/pi-ai";
import * as vscode from "vscode";
import type { ModelRegistry, ProviderInfo } from "../../core/providers/model-registry.js";
import { NO_KEY_SOURCE } from "../../core/providers/provider-compose.js";
import type { Notify } from "../common/notifier.js";
import { LoginCancelled, vscodeAuthInteraction } from "./login-interaction.js";
import type { ModelService } from "./model-service.js";
import { setupLabel, type SetupKind } from "./model-picker-rows.js";

/** The globalState key of this installation's id (some logins send one, e.g. OpenAI's). */
const DEVICE_ID = "agentTree.deviceId";

type ProviderItem = vscode.QuickPickItem & { id?: string; action?: "usePi" | "ignorePi" };

/** See the file comment. */
export class CredentialActions {
  constructor(
    private readonly service: ModelService,
    private readonly registry: () => Promise<ModelRegistry>,
    private readonly globalState: vscode.Memento,
    private readonly notify: Pick<Notify, "status" | "error" | "info">,
  ) {}

  /** Agent: Set API Key — for `providerId`, or a provider picked from every one that takes a key. True when stored. */
  async setApiKey(providerId?: string): Promise<boolean> {
    const registry = await this.registry();
    const id = providerId ?? (await this.pickProvider(registry, "apiKey"));
    if (!id) return false;
    return this.run(registry, id, "apiKey");
  }

  /** Agent: Log In… — for `providerId`, or a provider picked from every one with a login. True when logged in. */
  async logIn(providerId?: string): Promise<boolean> {
    const registry = await this.registry();
    const id = providerId ?? (await this.pickProvider(registry, "login"));
    if (!id) return false;
    return this.run(registry, id, "login");
  }

  /**
   * `/login <provider>`: the provider named by id or name (any case) set up the way it offers; an unknown one gets
   * an error naming those there are. True when it can be called now.
   */
  async logInNamed(ref: string): Promise<boolean> {
    const registry = await this.registry();
    const r = ref.trim().toLowerCase();
    const usable = registry.providers().filter((p) => p.auth.oauth !== undefined || p.auth.apiKey?.login === true);
    const p = usable.find((x) => x.id.toLowerCase() === r || x.name.toLowerCase() === r);
    if (p) return this.setUp(p.id);
    const known = usable.map((x) => x.id).sort();
    this.notify.error("Cannot log in", new Error(`No provider "${ref}" to log in to. Known: ${known.join(", ")}.`));
    return false;
  }

  /** Sets a provider up the way it offers (asking which when it offers both). True when it can be called now. */
  async setUp(providerId: string, kind?: SetupKind): Promise<boolean> {
    const registry = await this.registry();
    const p = registry.provider(providerId);
    if (!p) return false;
    const kinds: SetupKind[] = kind
      ? [kind]
      : [...(p.auth.oauth ? (["login"] as const) : []), ...(p.auth.apiKey?.login ? (["apiKey"] as const) : [])];
    let chosen = kinds[0];
    if (kinds.length > 1) {
      const choices: (vscode.QuickPickItem & { setup: SetupKind })[] = [
        {
          label: `$(account) ${p.auth.oauth?.loginLabel ?? `Log in (${p.auth.oauth?.name ?? p.name})`}`,
          setup: "login",
        },
        { label: "$(key) Enter an API key", description: p.auth.apiKey?.envNames.join(" / "), setup: "apiKey" },
      ];
      const picked = await vscode.window.showQuickPick(choices, {
        title: `Set Up ${p.name}`,
        placeHolder: `How does Agent Tree reach ${p.name}?`,
      });
      if (!picked) return false;
      chosen = picked.setup;
    }
    if (!chosen) {
      void vscode.window.showInformationMessage(
        `${p.name} takes its credentials from the environment${p.auth.apiKey?.envNames.length ? ` (${p.auth.apiKey.envNames.join(", ")})` : ""}.`,
      );
      return false;
    }
    return (await this.run(registry, providerId, chosen)) && registry.isReady(providerId);
  }

  /**
   * A model call was refused for its credentials (HTTP 401/403, or no key): the chat says so; this offers the fix in
   * a notification — Set API Key for / Log In to the provider, the way its credential was given first. A provider
   * that takes neither (VS Code's models, credentials only from the environment) gets no offer: its message says
   * what to do.
   */
  async offerAfterRefusal(providerId: string, message: string): Promise<void> {
    const registry = await this.registry();
    const p = registry.provider(providerId);
    if (!p) return;
    const kinds: SetupKind[] = [
      ...(p.auth.apiKey?.login ? (["apiKey"] as const) : []),
      ...(p.auth.oauth ? (["login"] as const) : []),
    ];
    if (registry.authState(providerId)?.type === "oauth") kinds.reverse();
    if (kinds.length === 0) return;
    const actions = kinds.map((kind) => ({ kind, label: setupLabel(kind, p.name) }));
    const picked = await vscode.window.showErrorMessage(message, ...actions.map((a) => a.label));
    const kind = actions.find((a) => a.label === picked)?.kind;
    if (kind) await this.run(registry, providerId, kind);
  }

  /** Agent: Log Out… — removes a stored login or key (pi's too, when it is pi's: said before). */
  async logOut(): Promise<void> {
    const registry = await this.registry();
    const stored = await this.service.credentials.placed();
    if (stored.length === 0) {
      void vscode.window.showInformationMessage(
        "No login or key is stored: providers that work take their keys from the environment (or VS Code).",
      );
      return;
    }
    const picked = await vscode.window.showQuickPick(
      stored.map((c) => {
        const p = registry.provider(c.providerId);
        const what = c.type === "oauth" ? (p?.auth.oauth?.name ?? "login") : "API key";
        return {
          label: p?.name ?? c.providerId,
          description: `${what} · ${c.place === "pi" ? "pi's auth.json (pi is logged out too)" : "VS Code"}`,
          id: c.providerId,
          place: c.place,
        };
      }),
      { title: "Log Out", placeHolder: "Remove which login or key?" },
    );
    if (!picked) return;
    if (picked.place === "pi") {
      const ok = await vscode.window.showWarningMessage(
        `Remove ${picked.label}'s credential from pi's auth.json? pi is logged out of it too.`,
        { modal: true },
        "Log Out",
      );
      if (ok !== "Log Out") return;
    }
    try {
      await registry.models.logout(picked.id);
    } catch (e) {
      this.notify.error(`Log out of ${picked.label}`, e);
      return;
    }
    await registry.refreshAuth();
    this.notify.status(`Logged out of ${picked.label}.`);
  }

  /** The provider to set up, picked from those offering `kind` (Log In… also offers to use pi's logins). */
  private async pickProvider(registry: ModelRegistry, kind: SetupKind): Promise<string | undefined> {
    const providers = registry
      .providers()
      .filter((p) =>
        kind === "login"
          ? p.auth.oauth !== undefined
          : p.auth.apiKey?.login === true && registry.authState(p.id)?.source !== NO_KEY_SOURCE,
      )
      .sort((a, b) => a.name.localeCompare(b.name));
    const items: ProviderItem[] = providers.map((p) => this.providerItem(registry, p, kind));
    if (kind === "login") {
      const answer = this.service.piCredentialsAnswer();
      items.push(
        { label: "", kind: vscode.QuickPickItemKind.Separator },
        answer === "use"
          ? { label: "$(circle-slash) Stop Using pi's Stored Logins and Keys", action: "ignorePi" }
          : {
              label: "$(link) Use pi's Stored Logins and Keys",
              description: this.service.piStore().file,
              action: "usePi",
            },
      );
    }
    const picked = await vscode.window.showQuickPick(items, {
      title: kind === "login" ? "Log In" : "Set API Key",
      placeHolder: kind === "login" ? "Log in to which subscription?" : "Which provider's key?",
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (picked?.action) {
      await this.service.usePiCredentials(picked.action === "usePi");
      this.notify.status(
        picked.action === "usePi"
          ? "Using pi's stored logins and keys."
          : "No longer using pi's stored logins and keys.",
      );
      return undefined;
    }
    return picked?.id;
  }

  private providerItem(registry: ModelRegistry, p: ProviderInfo, kind: SetupKind): ProviderItem {
    const state = registry.authState(p.id);
    const ready = state?.ready === true ? `ready (${state.source ?? "configured"})` : "not set up";
    const env = p.auth.apiKey?.envNames.length ? ` · or set ${p.auth.apiKey.envNames.join(" / ")}` : "";
    return {
      label: kind === "login" ? (p.auth.oauth?.loginLabel ?? p.auth.oauth?.name ?? p.name) : p.name,
      description: p.id,
      detail: kind === "login" ? `${p.name} · ${ready}` : `${ready}${env}`,
      id: p.id,
    };
  }

  /** Runs the provider's own setup (pi-ai's login or key entry) and stores what it gives in SecretStorage. */
  private async run(registry: ModelRegistry, providerId: string, kind: SetupKind): Promise<boolean> {
    const provider = registry.models.getProvider(providerId);
    const name = provider?.name ?? providerId;
    const oauth = kind === "login" ? provider?.auth.oauth : undefined;
    const apiKeyLogin = kind === "apiKey" ? provider?.auth.apiKey?.login : undefined;
    const login: ((i: ProviderAuthInteraction) => Promise<Credential>) | undefined = oauth
      ? (i) => oauth.login(i, { getDeviceId: () => this.deviceId() })
      : apiKeyLogin
        ? (i) => apiKeyLogin(i)
        : undefined;
    if (!login) {
      void vscode.window.showErrorMessage(
        kind === "login" ? `${name} has no login.` : `${name} takes no API key here.`,
      );
      return false;
    }
    const title = kind === "login" ? `Log In to ${name}` : `API Key for ${name}`;
    const controller = new AbortController();
    let credential: Credential;
    try {
      credential = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        (progress, token) => {
          token.onCancellationRequested(() => controller.abort());
          const interaction = vscodeAuthInteraction({ title, progress, signal: controller.signal });
          return login({ ...interaction, signal: controller.signal });
        },
      );
    } catch (e) {
      if (e instanceof LoginCancelled || controller.signal.aborted) this.notify.status(`${title}: cancelled.`);
      else this.notify.error(title, e);
      return false;
    }
    // A new login or key is the extension's: it goes to SecretStorage (over pi's, if pi had one for this provider).
    await this.service.ownCredentials.modify(providerId, async () => credential);
    await registry.refreshAuth();
    this.notify.status(
      kind === "login" ? `Logged in to ${name}.` : `API key for ${name} stored in VS Code's secret storage.`,
    );
    return true;
  }

  /** This installation's id, made on first use. */
  private deviceId(): string {
    let id = this.globalState.get<string>(DEVICE_ID);
    if (!id) {
      id = randomUUID();
      void this.globalState.update(DEVICE_ID, id);
    }
    return id;
  }
}
