/**
 * The few fields of an entry the session logic needs besides its envelope (the model in force, token use, labels,
 * leaf markers, archive lines, the compaction's kept entry, the session name): read with the envelope, kept for
 * every entry that has them, so no body is read to find them.
 */
import type { Usage } from "../messages.js";
import { ARCHIVE_MARKER_TYPE, archiveMarkerData } from "./entry-kinds.js";
import { LEAF_MARKER_TYPE, type SessionEntry } from "./types.js";

/** Small fields kept for every entry that has them, whatever its size. */
export interface EntryMeta {
  /** model_change, or an assistant message's provider/model. */
  model?: { provider: string; modelId: string };
  /**
   * The token use and cost of an assistant message, or of the model calls a compaction, branch summary or
   * `usage` entry records (the chat's usage line sums them without reading bodies).
   */
  usage?: Usage;
  thinkingLevel?: string;
  /** label entries. */
  labelTarget?: string;
  label?: string;
  /** Leaf markers: the entry moved to (null = reset). */
  markerTarget?: string | null;
  /** Archive lines: the first entry of the branch, and whether it is archived from then on. */
  archive?: { targetId: string; archived: boolean };
  /** compaction entries. */
  firstKeptEntryId?: string;
  /** session_info entries. */
  name?: string;
}

/** The meta of the many entries that have none (shared; never changed). */
export const NO_META: EntryMeta = Object.freeze({});

/** A usage without a cost object reads its costs from this (all missing: 0). */
const NO_COST: Readonly<Record<string, unknown>> = Object.freeze({});

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A finite number, else 0. (`v - v === 0` is Number.isFinite for a number, without a call: see usageFrom.) */
function count(v: unknown): number {
  return typeof v === "number" && v - v === 0 ? v : 0;
}

/**
 * A `usage` value as a Usage: missing or non-numeric counts are 0 (files written by other tools may leave some
 * out); pi-ai's optional fields (reasoning tokens, 1 h cache writes, a provider-billed total) are kept when the
 * line has them. Undefined when it is not an object.
 */
export function usageFrom(v: unknown): Usage | undefined {
  // Runs for every assistant line of a small session while it opens, mostly unoptimised: count() is small enough
  // to be cheap there, and a missing cost reads as an empty one without building one.
  if (!isRecord(v)) return undefined;
  const c = isRecord(v.cost) ? v.cost : NO_COST;
  const usage: Usage = {
    input: count(v.input),
    output: count(v.output),
    cacheRead: count(v.cacheRead),
    cacheWrite: count(v.cacheWrite),
    totalTokens: count(v.totalTokens),
    cost: {
      input: count(c.input),
      output: count(c.output),
      cacheRead: count(c.cacheRead),
      cacheWrite: count(c.cacheWrite),
      total: count(c.total),
    },
  };
  if (typeof v.cacheWrite1h === "number") usage.cacheWrite1h = v.cacheWrite1h;
  if (typeof v.reasoning === "number") usage.reasoning = v.reasoning;
  if (typeof c.totalFromProvider === "boolean") usage.cost.totalFromProvider = c.totalFromProvider;
  return usage;
}

/** One meta per model (frozen, shared): the assistant messages of a session name a handful of models between them. */
const modelMetas = new Map<string, Map<string, EntryMeta>>();
let lastModel: { provider: string; modelId: string; meta: EntryMeta } | undefined;

/** The meta of an assistant message of `provider`/`modelId` that records no token use (shared, never changed). */
export function modelMeta(provider: string, modelId: string): EntryMeta {
  if (lastModel?.provider === provider && lastModel.modelId === modelId) return lastModel.meta;
  let byModel = modelMetas.get(provider);
  if (!byModel) modelMetas.set(provider, (byModel = new Map()));
  let meta = byModel.get(modelId);
  if (!meta) {
    meta = Object.freeze({ model: Object.freeze({ provider, modelId }) });
    byModel.set(modelId, meta);
  }
  lastModel = { provider, modelId, meta };
  return meta;
}

/** The meta of an assistant message: its model (shared with modelMeta) and token use. */
export function assistantMeta(
  provider: string | undefined,
  modelId: string | undefined,
  usage: Usage | undefined,
): EntryMeta {
  const meta = provider !== undefined && modelId !== undefined ? modelMeta(provider, modelId) : NO_META;
  if (!usage) return meta;
  return meta.model ? { model: meta.model, usage } : { usage };
}

/** The meta of an assistant message object (its model and token use). */
export function assistantMessageMeta(m: Record<string, unknown>): EntryMeta {
  const provider = m.provider;
  const model = m.model;
  const named = typeof provider === "string" && typeof model === "string";
  return assistantMeta(named ? provider : undefined, named ? model : undefined, usageFrom(m.usage));
}

/**
 * The meta of an assistant message whose line was parsed whole (a short line of a small session): its `usage`
 * value, as JSON.parse gave it, is made a Usage (usageFrom) when first asked for, not while the session opens.
 * Making it at open was 9–16 ms of a 10k-entry open's CPU (three objects and a dozen checks per assistant line,
 * mostly unoptimised; fresh processes, load 4–5), and nothing from open to the first context reads it: the chat's
 * usage line asks for the entries of the path it shows (SessionManager.getUsage). The parsed value is kept
 * instead of the Usage made of it (about its size), not the body it came from.
 */
class ParsedAssistantMeta implements EntryMeta {
  /** The Usage made of `raw` (undefined when `raw` is not one); null until asked for. */
  private made: Usage | undefined | null = null;

  constructor(
    readonly model: { provider: string; modelId: string } | undefined,
    private readonly raw: Record<string, unknown>,
  ) {}

  get usage(): Usage | undefined {
    if (this.made === null) this.made = usageFrom(this.raw);
    return this.made;
  }
}

/** Numbers kept per token use read by the entry scanner (see ScannedAssistantMeta). */
const USAGE_SLOTS = 13;
/** Token uses per block of numbers. */
const BLOCK_USAGES = 1024;
/**
 * The block the next scanned token use goes into, and how many it holds. Blocks are shared by every session
 * scanned in the process and never written twice; a meta keeps its block alive.
 */
let usageBlock = new Float64Array(USAGE_SLOTS * BLOCK_USAGES);
let usageBlockUsed = 0;

/** count() of the value at `k`, whose kind is a number when typeof is "number". */
function countAt(values: readonly unknown[], k: number): number {
  return count(values[k]);
}

/**
 * The meta of an assistant message read by the entry scanner: its token use is kept as 13 numbers in a shared
 * block (off the JavaScript heap) and made a Usage when first asked for. The Usage, its cost and their
 * fractional numbers were five objects per assistant line that the young generation copied twice during a big
 * session's open (16k of them in the bench's 300 MB session), and nothing from open to the first context reads
 * them (the chat's usage line asks for the entries of the path it shows). Same answers as usageFrom.
 */
class ScannedAssistantMeta implements EntryMeta {
  /** The Usage, once made. */
  private made: Usage | undefined;

  constructor(
    readonly model: { provider: string; modelId: string } | undefined,
    private readonly block: Float64Array,
    private readonly at: number,
  ) {}

  get usage(): Usage {
    if (this.made === undefined) {
      const { block: b, at } = this;
      const usage: Usage = {
        input: b[at],
        output: b[at + 1],
        cacheRead: b[at + 2],
        cacheWrite: b[at + 3],
        totalTokens: b[at + 4],
        cost: { input: b[at + 5], output: b[at + 6], cacheRead: b[at + 7], cacheWrite: b[at + 8], total: b[at + 9] },
      };
      // NaN: the key was not a number (JSON has no NaN), or not a boolean for totalFromProvider.
      if (!Number.isNaN(b[at + 10])) usage.cacheWrite1h = b[at + 10];
      if (!Number.isNaN(b[at + 11])) usage.reasoning = b[at + 11];
      if (!Number.isNaN(b[at + 12])) usage.cost.totalFromProvider = b[at + 12] === 1;
      this.made = usage;
    }
    return this.made;
  }
}

/**
 * The meta of an assistant message the entry scanner read: its model, and the token use that usageFrom would make
 * of a usage object whose keys input, output, cacheRead, cacheWrite, totalTokens, cacheWrite1h, reasoning hold
 * `usage[0..6]` and whose `cost` is an object holding `cost` (input, output, cacheRead, cacheWrite, total,
 * totalFromProvider), or not an object when `cost` is undefined. Values are what JSON.parse gives (numbers,
 * booleans, null) or undefined for a missing key.
 */
export function scannedAssistantMeta(
  provider: string | undefined,
  modelId: string | undefined,
  usage: readonly unknown[],
  cost: readonly unknown[] | undefined,
): EntryMeta {
  const model = provider !== undefined && modelId !== undefined ? modelMeta(provider, modelId).model : undefined;
  if (usageBlockUsed === BLOCK_USAGES) {
    usageBlock = new Float64Array(USAGE_SLOTS * BLOCK_USAGES);
    usageBlockUsed = 0;
  }
  const b = usageBlock;
  const at = USAGE_SLOTS * usageBlockUsed++;
  for (let k = 0; k < 5; k++) b[at + k] = countAt(usage, k);
  for (let k = 0; k < 5; k++) b[at + 5 + k] = cost === undefined ? 0 : countAt(cost, k);
  const w = usage[5];
  const r = usage[6];
  const f = cost === undefined ? undefined : cost[5];
  b[at + 10] = typeof w === "number" ? w : NaN;
  b[at + 11] = typeof r === "number" ? r : NaN;
  b[at + 12] = typeof f === "boolean" ? (f ? 1 : 0) : NaN;
  return new ScannedAssistantMeta(model, b, at);
}

/**
 * assistantMessageMeta for a message parsed from its own line, whose objects nothing else changes: its token use
 * is read when first asked for (see ParsedAssistantMeta). Same answers as assistantMessageMeta.
 */
export function parsedAssistantMeta(m: Record<string, unknown>): EntryMeta {
  const provider = m.provider;
  const model = m.model;
  const named = typeof provider === "string" && typeof model === "string";
  const meta = named ? modelMeta(provider, model) : NO_META;
  const usage = m.usage;
  return isRecord(usage) ? new ParsedAssistantMeta(meta.model, usage) : meta;
}

/** The small fields of a whole entry. */
export function metaOf(entry: SessionEntry): EntryMeta {
  const e = entry as unknown as Record<string, unknown>;
  if (e.type === "message") {
    const m = e.message;
    // Most messages have no meta: return the shared one without building and counting an empty object.
    return isRecord(m) && m.role === "assistant" ? assistantMessageMeta(m) : NO_META;
  }
  const meta: EntryMeta = {};
  switch (e.type) {
    case "model_change":
      if (typeof e.provider === "string" && typeof e.modelId === "string")
        meta.model = { provider: e.provider, modelId: e.modelId };
      break;
    case "thinking_level_change":
      if (typeof e.thinkingLevel === "string") meta.thinkingLevel = e.thinkingLevel;
      break;
    case "label":
      if (typeof e.targetId === "string") {
        meta.labelTarget = e.targetId;
        if (typeof e.label === "string" && e.label !== "") meta.label = e.label;
      }
      break;
    case "custom":
      if (e.customType === LEAF_MARKER_TYPE) {
        const d = e.data;
        meta.markerTarget = isRecord(d) && typeof d.targetId === "string" ? d.targetId : null;
      } else if (e.customType === ARCHIVE_MARKER_TYPE) {
        const archive = archiveMarkerData(e.data);
        if (archive) meta.archive = archive;
      }
      break;
    case "compaction":
      if (typeof e.firstKeptEntryId === "string") meta.firstKeptEntryId = e.firstKeptEntryId;
      break;
    case "session_info":
      if (typeof e.name === "string") meta.name = e.name;
      break;
  }
  // pi 1.5 records the model calls of a compaction, a branch summary or a call that added no message.
  if (e.type === "compaction" || e.type === "branch_summary" || e.type === "usage") {
    const usage = usageFrom(e.usage);
    if (usage) meta.usage = usage;
  }
  return Object.keys(meta).length === 0 ? NO_META : meta;
}
