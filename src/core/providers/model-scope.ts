/**
 * pi's model patterns (`enabledModels` in settings.json, `--models` on its command line), resolved against a list
 * of models as pi 1.6 resolves them (its model-resolver.js): `provider/id` or a bare id (case-insensitive), a
 * glob over `provider/id` or the id (`anthropic/*`, `*sonnet*`), else the best model whose id or name contains
 * the text (an alias such as `claude-sonnet-4-5` before its dated versions, then the newest); each may end in
 * `:<thinking level>`. An id several providers offer adds each of them, with a warning. pi resolves against the
 * models that can be called (`ModelRegistry.available()`); so should the caller.
 */
import { isThinkingLevel } from "./thinking-levels.js";
import type { ModelInfo, ThinkingLevel } from "./types.js";

/** A model of the short list, with the thinking level its pattern named. */
export interface ScopedModel {
  model: ModelInfo;
  thinkingLevel?: ThinkingLevel;
}

/** The short list and what did not resolve cleanly. */
export interface ModelScope {
  models: ScopedModel[];
  warnings: string[];
}

function splitThinking(text: string): { base: string; level: ThinkingLevel } | undefined {
  const i = text.lastIndexOf(":");
  if (i < 0) return undefined;
  const level = text.slice(i + 1);
  return isThinkingLevel(level) ? { base: text.slice(0, i), level } : undefined;
}

/** `*`, `?` and `[…]` as a case-insensitive regular expression over the whole text. */
function globRegExp(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*") out += ".*";
    else if (c === "?") out += ".";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end < 0) out += "\\[";
      else {
        const body = glob.slice(i + 1, end).replace(/\\/g, "\\\\");
        out += `[${body.startsWith("!") ? "^" + body.slice(1) : body}]`;
        i = end;
      }
    } else out += c.replace(/[.+^${}()|\\/]/g, "\\$&");
  }
  return new RegExp(`^${out}$`, "i");
}

const isAlias = (id: string): boolean => id.endsWith("-latest") || !/-\d{8}$/.test(id);

function bestFuzzy(matches: readonly ModelInfo[]): ModelInfo | undefined {
  const aliases = matches.filter((m) => isAlias(m.id));
  return [...(aliases.length > 0 ? aliases : matches)].sort((a, b) => b.id.localeCompare(a.id))[0];
}

/** The models `text` names exactly (`provider/id` first, else every provider's `id`). */
function exactMatches(text: string, models: readonly ModelInfo[]): ModelInfo[] {
  const lower = text.toLowerCase();
  const slash = lower.indexOf("/");
  if (slash > 0) {
    const provider = lower.slice(0, slash);
    const id = lower.slice(slash + 1);
    const named = models.filter((m) => m.provider.toLowerCase() === provider && m.id.toLowerCase() === id);
    if (named.length > 0) return named;
  }
  return models.filter((m) => m.id.toLowerCase() === lower);
}

/** The models `text` names: exactly, else by the fuzzy rule (within `provider/` when given). */
function referenceMatches(text: string, models: readonly ModelInfo[]): ModelInfo[] {
  const exact = exactMatches(text, models);
  if (exact.length > 0) return exact;
  const lower = text.toLowerCase();
  const slash = lower.indexOf("/");
  const provider = slash > 0 ? lower.slice(0, slash) : undefined;
  const pool = provider ? models.filter((m) => m.provider.toLowerCase() === provider) : [];
  const needle = provider && pool.length > 0 ? lower.slice(slash + 1) : lower;
  const fuzzy = (pool.length > 0 ? pool : models).filter(
    (m) => m.id.toLowerCase().includes(needle) || m.name.toLowerCase().includes(needle),
  );
  const best = bestFuzzy(fuzzy);
  return best ? fuzzy.filter((m) => m.id === best.id) : [];
}

/** The short list `patterns` make of `models` (see the file comment), in pattern order, without duplicates. */
export function resolveModelScope(patterns: readonly string[], models: readonly ModelInfo[]): ModelScope {
  const out: ScopedModel[] = [];
  const warnings: string[] = [];
  const add = (model: ModelInfo, thinkingLevel: ThinkingLevel | undefined): void => {
    if (out.some((s) => s.model.provider === model.provider && s.model.id === model.id)) return;
    out.push(thinkingLevel ? { model, thinkingLevel } : { model });
  };
  for (const raw of patterns) {
    const pattern = raw.trim();
    if (!pattern) continue;
    let matches: ModelInfo[];
    let level: ThinkingLevel | undefined;
    if (/[*?[]/.test(pattern)) {
      const thinking = splitThinking(pattern);
      const glob = thinking?.base ?? pattern;
      level = thinking?.level;
      matches = exactMatches(glob, models);
      if (matches.length === 0) {
        const re = globRegExp(glob);
        matches = models.filter((m) => re.test(`${m.provider}/${m.id}`) || re.test(m.id));
      }
    } else {
      matches = referenceMatches(pattern, models);
      const thinking = matches.length === 0 ? splitThinking(pattern) : undefined;
      if (thinking) {
        matches = referenceMatches(thinking.base, models);
        level = thinking.level;
      }
      const providers = new Set(matches.map((m) => m.provider));
      if (providers.size > 1)
        warnings.push(
          `Pattern "${pattern}" matches several providers: ${[...providers].sort().join(", ")}. Use provider/id to choose one.`,
        );
    }
    if (matches.length === 0) warnings.push(`No models match pattern "${pattern}"`);
    for (const m of matches) add(m, level);
  }
  return { models: out, warnings };
}
