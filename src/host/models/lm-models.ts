/**
 * Keeps the registry's providers of VS Code's language models (lm-provider.ts) in step with what VS Code offers:
 * every chat model `vscode.lm.selectChatModels()` returns, grouped by vendor, one provider each; read again when
 * `vscode.lm.onDidChangeChatModels` fires (an extension such as GitHub Copilot Chat started, signed in, or added
 * models). Listing asks no consent (VS Code asks on the first request).
 */
import type { ModelRegistry } from "../../core/providers/model-registry.js";
import type { PiAi } from "../../core/providers/pi-ai.js";
import { errorText } from "../../core/error-text.js";
import type { LmApi } from "./lm-messages.js";
import { createLmProvider, lmProviderId, type LmChat } from "./lm-provider.js";

/** Where the models come from: `vscode.lm` and the extensions' manifests, in the extension; a fake in tests. */
export interface LmSource {
  selectChatModels(): PromiseLike<readonly LmChat[]>;
  onDidChangeChatModels(listener: () => void): { dispose(): unknown };
  /** A vendor's name as its extension gives it (`contributes.languageModelChatProviders[].displayName`). */
  vendorName(vendor: string): string | undefined;
}

/** Names of the vendors VS Code ships with or that users know by another name. */
const KNOWN_VENDORS: Record<string, string> = { copilot: "GitHub Copilot" };

/** See the file comment. */
export class LmModels {
  private registered = new Set<string>();
  private refreshing: Promise<void> | undefined;
  private again = false;
  private readonly sub: { dispose(): unknown };

  constructor(
    private readonly source: LmSource,
    private readonly api: LmApi,
    private readonly registry: ModelRegistry,
    private readonly pi: PiAi,
    private readonly log: (message: string) => void,
  ) {
    this.sub = source.onDidChangeChatModels(() => void this.refresh());
  }

  /** Reads VS Code's models and updates the registry (one pass at a time; a change meanwhile reads again). */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.again = false;
        await this.read();
      } while (this.again);
    })().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  dispose(): void {
    this.sub.dispose();
  }

  private async read(): Promise<void> {
    let chats: readonly LmChat[];
    try {
      chats = await this.source.selectChatModels();
    } catch (e) {
      this.log(`VS Code's language models could not be listed: ${errorText(e)}`);
      return;
    }
    const byVendor = new Map<string, LmChat[]>();
    for (const c of chats) byVendor.set(c.vendor, [...(byVendor.get(c.vendor) ?? []), c]);
    const add = [...byVendor].map(([vendor, list]) => {
      const displayName = this.source.vendorName(vendor) ?? KNOWN_VENDORS[vendor] ?? vendor;
      return createLmProvider(this.pi, this.api, { vendor, displayName, chats: list });
    });
    const ids = new Set(add.map((p) => p.provider.id));
    const remove = [...this.registered].filter((id) => !ids.has(id));
    this.registered = ids;
    this.registry.setHostProviders(add, remove);
    if (add.length > 0 || remove.length > 0)
      this.log(
        `VS Code's language models: ${chats.length} of ${byVendor.size} vendor(s)` +
          (byVendor.size > 0 ? ` (${[...byVendor.keys()].map(lmProviderId).join(", ")})` : ""),
      );
  }
}
