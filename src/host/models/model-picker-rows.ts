/**
 * The rows of the model picker (model-picker.ts), built from the registry's listing: the short list first (pi's
 * `enabledModels`, or `agentTree.models.enabled`), then every provider that can be called, each under a separator
 * naming it and where its credentials come from, then the providers that cannot be called yet, each with the action
 * that sets it up ("Log In…", "Set API Key…") before its models. A model row names the model, its key
 * (`provider/id`, searched too), its context window, its price per million tokens (the catalog's) and what it can
 * do. Pure: no `vscode`, so it is built and measured outside VS Code.
 */
import type { ModelListing, ProviderInfo } from "../../core/providers/model-registry.js";
import type { ScopedModel } from "../../core/providers/model-scope.js";
import type { ModelInfo, ThinkingLevel } from "../../core/providers/types.js";
import { modelKey } from "./model-choice.js";

/** A provider's setup action. */
export type SetupKind = "login" | "apiKey";

/** One row of the picker. */
export type PickerRow =
  | { kind: "separator"; label: string }
  | {
      kind: "model";
      key: string;
      name: string;
      /** `provider/id`, with "current" or what is missing. */
      description: string;
      detail: string;
      ready: boolean;
      current: boolean;
      providerId: string;
      /** How the provider can be set up (not-ready rows). */
      setup: SetupKind[];
      /** The level its short-list pattern names (`model:high`). */
      thinkingLevel?: ThinkingLevel;
    }
  | { kind: "setup"; providerId: string; setup: SetupKind; label: string; description: string };

/** What the rows are built from. */
export interface PickerInput {
  listings: readonly ModelListing[];
  providers: readonly ProviderInfo[];
  /** The short list, resolved against the ready models. */
  shortList: readonly ScopedModel[];
  currentKey?: string;
}

/** "200k", "1M", "8k". */
export function tokensText(n: number): string {
  if (n >= 1_000_000) return `${Number((n / 1_000_000).toFixed(n % 1_000_000 === 0 ? 0 : 1))}M`;
  if (n >= 1000) return `${Math.round(n / 1000)}k`;
  return String(n);
}

function usd(n: number): string {
  if (n === 0) return "$0";
  return n < 0.1 ? `$${Number(n.toPrecision(2))}` : `$${n.toFixed(2).replace(/\.00$/, "")}`;
}

/** The row's second line: context window, price per million tokens (input / output), what the model can do. */
export function modelDetail(m: ModelInfo): string {
  const parts = [`${tokensText(m.contextWindow)} context`];
  const { input, output } = m.cost;
  if (input > 0 || output > 0) parts.push(`${usd(input)} / ${usd(output)} per M tokens (in / out)`);
  else if (m.api === "vscode-lm") parts.push("through VS Code");
  if (m.reasoning) parts.push("reasoning");
  if (m.input.includes("image")) parts.push("images");
  return parts.join(" · ");
}

function setupOf(p: ProviderInfo | undefined): SetupKind[] {
  if (!p) return [];
  return [...(p.auth.oauth ? (["login"] as const) : []), ...(p.auth.apiKey?.login ? (["apiKey"] as const) : [])];
}

/** "Log In to Anthropic…" / "Set API Key for OpenAI…". */
export function setupLabel(kind: SetupKind, providerName: string): string {
  return kind === "login" ? `Log In to ${providerName}…` : `Set API Key for ${providerName}…`;
}

function setupRow(p: ProviderInfo, kind: SetupKind): PickerRow {
  const description =
    kind === "login"
      ? (p.auth.oauth?.loginLabel ?? p.auth.oauth?.name ?? "")
      : p.auth.apiKey?.envNames.length
        ? `or set ${p.auth.apiKey.envNames.join(" / ")}`
        : "";
  return { kind: "setup", providerId: p.id, setup: kind, label: setupLabel(kind, p.name), description };
}

const byName = (a: { name: string }, b: { name: string }): number => a.name.localeCompare(b.name);

/** See the file comment. */
export function pickerRows(input: PickerInput): PickerRow[] {
  const providers = new Map(input.providers.map((p) => [p.id, p]));
  const shortKeys = new Map(input.shortList.map((s) => [modelKey(s.model), s]));
  const groups = new Map<string, { listing: ModelListing[]; ready: boolean; source?: string }>();
  for (const l of input.listings) {
    const g = groups.get(l.model.provider) ?? { listing: [], ready: l.ready, source: l.source };
    g.listing.push(l);
    groups.set(l.model.provider, g);
  }
  const modelRow = (l: ModelListing, scoped?: ScopedModel): PickerRow => {
    const key = modelKey(l.model);
    const current = key === input.currentKey;
    const setup = l.ready ? [] : setupOf(providers.get(l.model.provider));
    const missing = l.ready ? "" : setup.includes("login") ? " · needs a login or key" : " · needs a key";
    return {
      kind: "model",
      key,
      name: l.model.name,
      description: `${key}${current ? " · current" : ""}${missing}`,
      detail: modelDetail(l.model),
      ready: l.ready,
      current,
      providerId: l.model.provider,
      setup,
      ...(scoped?.thinkingLevel ? { thinkingLevel: scoped.thinkingLevel } : {}),
    };
  };
  const rows: PickerRow[] = [];
  if (input.shortList.length > 0) {
    rows.push({ kind: "separator", label: "Short list" });
    for (const s of input.shortList) {
      const listing = input.listings.find((l) => l.model.provider === s.model.provider && l.model.id === s.model.id);
      if (listing) rows.push(modelRow(listing, s));
    }
  }
  const providerName = (id: string): string => providers.get(id)?.name ?? id;
  // VS Code's own models first among the ready ones (nothing to set up: the user has them already), then by name.
  const lmFirst = (g: { listing: ModelListing[] }): number => (g.listing[0]?.model.api === "vscode-lm" ? 0 : 1);
  const ordered = [...groups].sort(
    ([a, ga], [b, gb]) => lmFirst(ga) - lmFirst(gb) || providerName(a).localeCompare(providerName(b)),
  );
  const section = (ready: boolean): void => {
    for (const [id, g] of ordered) {
      if (g.ready !== ready) continue;
      const p = providers.get(id);
      const rest = g.listing.filter((l) => !shortKeys.has(modelKey(l.model)));
      if (rest.length === 0 && ready) continue;
      const how = ready ? (g.source && g.source !== "VS Code" ? ` · ${g.source}` : "") : " · not set up";
      rows.push({ kind: "separator", label: `${providerName(id)}${how}` });
      if (!ready && p) for (const kind of setupOf(p)) rows.push(setupRow(p, kind));
      for (const l of [...rest].sort((x, y) => byName(x.model, y.model))) rows.push(modelRow(l));
    }
  };
  section(true);
  section(false);
  return rows;
}
