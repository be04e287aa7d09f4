/**
 * How a piece of a parallel scan crosses from the worker thread to the caller's (parallel-scan.ts, scan-worker.ts):
 * the shared slots both threads claim pieces with, and a piece's entries in a compact form. Structured-cloning the
 * envelopes and metas of ~16k entries as objects cost 40–300 ms to read back on the receiving side (measured on the
 * bench's 300 MB session, half of it); as columns — the strings of every envelope joined into one string, flags and
 * numbers in typed arrays — the copy is one string and a few buffers, and the objects are made again here by the
 * same literals the scanner uses. An envelope or meta of another shape goes as an object (rare).
 */
import { modelMeta, NO_META, type EntryMeta } from "./entry-meta.js";
import type { ScanOptions, ScanPart } from "./session-scan.js";
import type { MessagePort } from "node:worker_threads";
import type { Usage } from "../messages.js";
import type { EntryEnvelope, LoadIssue } from "./types.js";

/** Slots of the shared Int32Array: the worker has finished (1), the caller gave up on it (1); then one per piece. */
export const FINISHED = 0;
export const ABANDONED = 1;
export const STATUS_SLOTS = 2;
/** A piece's claim slot (STATUS_SLOTS + piece): unclaimed, the caller's, the worker's. */
export const CLAIMED_BY_CALLER = 1;
export const CLAIMED_BY_WORKER = 2;

/** What a scan worker is started with. */
export interface ScanWorkerData {
  /** The session file, opened by the caller (threads share the process's descriptors): the very file it reads. */
  fd: number;
  fileSize: number;
  /** Piece k is the lines that start in [bounds[k], bounds[k + 1]). */
  bounds: number[];
  /** Int32Array over a SharedArrayBuffer: the slots above. */
  shared: Int32Array;
  /** Where the worker posts PieceMessages. */
  port: MessagePort;
  opts: ScanOptions;
}

/** One piece, scanned by the worker (or why it could not be). */
export type PieceMessage = { piece: number; part: EncodedPart } | { piece: number; error: string };

/** A ScanPart as columns (see the file comment). */
export interface EncodedPart {
  length: number;
  /** Per entry: envelope shape (low 3 bits, 0: in `envObjects`) and flags (see the F_ constants). */
  envFlags: Uint8Array;
  /** Per entry: meta kind (M_ constants). */
  metaKinds: Uint8Array;
  /** The envelopes' and metas' strings, in entry order, joined by NUL; undefined when one held a NUL. */
  strings?: string;
  /** The envelopes of shape 0 (or all of them when `strings` is undefined), in entry order. */
  envObjects: EntryEnvelope[];
  /** Metas of kind M_OBJECT, in entry order. */
  metaObjects: EntryMeta[];
  /** USAGE_FLOATS numbers per usage of kind M_MODEL_USAGE / M_USAGE, in entry order. */
  usages: Float64Array;
  offsets: Float64Array;
  sizes: Float64Array;
  lines: Int32Array;
  issues: LoadIssue[];
  activity?: number;
  tornOffset?: number;
  missingFinalNewline: boolean;
  lineCount: number;
}

/** Envelope shapes: their keys, in the order the scanner's literals (and envelopeOf's) have them. */
const SHAPES = [
  "",
  "id,parentId,type,timestamp,preview",
  "id,parentId,type,role,timestamp,preview",
  "id,parentId,type,role,timestamp,preview,toolName",
  "id,parentId,type,role,timestamp,preview,toolName,toolCallsOnly",
  "id,parentId,type,role,timestamp,preview,toolName,toolCallsOnly,failed",
  "id,parentId,type,role,timestamp,preview,failed",
];
const SHAPE_OF = new Map(SHAPES.map((keys, i) => [keys, i]));
const F_SHAPE = 7;
/** parentId is null. */
const F_NULL_PARENT = 8;
/** parentId is the id of the entry before (not sent again). */
const F_PREVIOUS_PARENT = 16;
const F_TOOL_CALLS_ONLY = 32;
const F_FAILED = 64;

const M_NONE = 0;
/** The shared meta of an assistant message's model (modelMeta). */
const M_MODEL = 1;
/** An assistant message's model and token use. */
const M_MODEL_USAGE = 2;
/** Token use without a model. */
const M_USAGE = 3;
const M_OBJECT = 4;
/** A usage's ten counts, then a presence mask and the three optional values. */
const USAGE_FLOATS = 14;
const SEP = "\u0000";

/** EntryMeta's fields, read by name (a meta may be a class whose own keys are not these). */
function plainMeta(m: EntryMeta): EntryMeta {
  const out: EntryMeta = {};
  if (m.model !== undefined) out.model = m.model;
  if (m.usage !== undefined) out.usage = m.usage;
  if (m.thinkingLevel !== undefined) out.thinkingLevel = m.thinkingLevel;
  if (m.labelTarget !== undefined) out.labelTarget = m.labelTarget;
  if (m.label !== undefined) out.label = m.label;
  if (m.markerTarget !== undefined) out.markerTarget = m.markerTarget;
  if (m.archive !== undefined) out.archive = m.archive;
  if (m.firstKeptEntryId !== undefined) out.firstKeptEntryId = m.firstKeptEntryId;
  if (m.name !== undefined) out.name = m.name;
  return out;
}

/** True when `u` is a Usage of the keys usageFrom makes (so its copy from numbers is the same value). */
function plainUsage(u: Usage): boolean {
  const keys = Object.keys(u).join(",");
  const costKeys = Object.keys(u.cost).join(",");
  return (
    /^input,output,cacheRead,cacheWrite,totalTokens,cost(,cacheWrite1h)?(,reasoning)?$/.test(keys) &&
    /^input,output,cacheRead,cacheWrite,total(,totalFromProvider)?$/.test(costKeys)
  );
}

function pushUsage(out: number[], u: Usage): void {
  const c = u.cost;
  let mask = 0;
  if (u.cacheWrite1h !== undefined) mask |= 1;
  if (u.reasoning !== undefined) mask |= 2;
  if (c.totalFromProvider !== undefined) mask |= 4;
  out.push(u.input, u.output, u.cacheRead, u.cacheWrite, u.totalTokens, c.input, c.output, c.cacheRead);
  out.push(c.cacheWrite, c.total, mask, u.cacheWrite1h ?? 0, u.reasoning ?? 0, c.totalFromProvider === true ? 1 : 0);
}

function usageAt(f: Float64Array, k: number): Usage {
  const usage: Usage = {
    input: f[k],
    output: f[k + 1],
    cacheRead: f[k + 2],
    cacheWrite: f[k + 3],
    totalTokens: f[k + 4],
    cost: { input: f[k + 5], output: f[k + 6], cacheRead: f[k + 7], cacheWrite: f[k + 8], total: f[k + 9] },
  };
  const mask = f[k + 10];
  if (mask & 1) usage.cacheWrite1h = f[k + 11];
  if (mask & 2) usage.reasoning = f[k + 12];
  if (mask & 4) usage.cost.totalFromProvider = f[k + 13] === 1;
  return usage;
}

/** A piece's scan as columns (the buffers of the numbers are to be transferred, see transferOf). */
export function encodePart(part: ScanPart): EncodedPart {
  const t = part.entries;
  const n = t.length;
  const envFlags = new Uint8Array(n);
  const metaKinds = new Uint8Array(n);
  const strings: string[] = [];
  const envObjects: EntryEnvelope[] = [];
  const metaObjects: EntryMeta[] = [];
  const usages: number[] = [];
  let previousId: string | undefined;
  for (let i = 0; i < n; i++) {
    const env = t.envs[i];
    let shape = SHAPE_OF.get(Object.keys(env).join(",")) ?? 0;
    if (shape !== 0 && !plainStrings(env, shape)) shape = 0;
    let flags = shape;
    if (shape === 0) envObjects.push(env);
    else {
      strings.push(env.id);
      if (env.parentId === null) flags |= F_NULL_PARENT;
      else if (env.parentId === previousId) flags |= F_PREVIOUS_PARENT;
      else strings.push(env.parentId);
      strings.push(env.type);
      if (shape >= 2) strings.push(env.role as string);
      strings.push(env.timestamp, env.preview);
      if (shape >= 3 && shape <= 5) strings.push(env.toolName as string);
      if (env.toolCallsOnly === true) flags |= F_TOOL_CALLS_ONLY;
      if (env.failed === true) flags |= F_FAILED;
    }
    envFlags[i] = flags;
    previousId = env.id;
    metaKinds[i] = encodeMeta(t.metas[i], strings, usages, metaObjects);
  }
  let joined: string | undefined = strings.join(SEP);
  // A string holding the separator would split wrong: then every envelope goes as an object (never seen in practice).
  if (strings.length > 0 && joined.split(SEP).length !== strings.length) {
    joined = undefined;
    envFlags.fill(0);
    envObjects.length = 0;
    for (let i = 0; i < n; i++) envObjects.push(t.envs[i]);
    for (let i = 0; i < n; i++) if (metaKinds[i] !== M_NONE) metaKinds[i] = M_OBJECT;
    metaObjects.length = 0;
    for (let i = 0; i < n; i++) if (metaKinds[i] === M_OBJECT) metaObjects.push(plainMeta(t.metas[i]));
    usages.length = 0;
  }
  const out: EncodedPart = {
    length: n,
    envFlags,
    metaKinds,
    strings: joined,
    envObjects,
    metaObjects,
    usages: Float64Array.from(usages),
    offsets: t.offsets.slice(0, n),
    sizes: t.sizes.slice(0, n),
    lines: t.lines.slice(0, n),
    issues: part.issues,
    missingFinalNewline: part.missingFinalNewline,
    lineCount: part.lineCount,
  };
  if (part.activity !== undefined) out.activity = part.activity;
  if (part.tornOffset !== undefined) out.tornOffset = part.tornOffset;
  return out;
}

/** The buffers of an EncodedPart, moved rather than copied by postMessage. */
export function transferOf(p: EncodedPart): ArrayBuffer[] {
  return [p.envFlags, p.metaKinds, p.usages, p.offsets, p.sizes, p.lines].map((a) => a.buffer as ArrayBuffer);
}

/** True when the envelope's values are of the types its shape sends as strings and flags. */
function plainStrings(env: EntryEnvelope, shape: number): boolean {
  if (typeof env.id !== "string" || typeof env.type !== "string") return false;
  if (typeof env.timestamp !== "string" || typeof env.preview !== "string") return false;
  if (env.parentId !== null && typeof env.parentId !== "string") return false;
  if (shape >= 2 && typeof env.role !== "string") return false;
  if (shape >= 3 && shape <= 5 && typeof env.toolName !== "string") return false;
  if ((shape === 4 || shape === 5) && typeof env.toolCallsOnly !== "boolean") return false;
  if ((shape === 5 || shape === 6) && env.failed !== true) return false;
  return true;
}

function encodeMeta(m: EntryMeta, strings: string[], usages: number[], objects: EntryMeta[]): number {
  if (m === NO_META) return M_NONE;
  const plain = plainMeta(m);
  const keys = Object.keys(plain).join(",");
  const model = plain.model;
  const usage = plain.usage;
  const named = model !== undefined && typeof model.provider === "string" && typeof model.modelId === "string";
  if (keys === "model" && named) {
    strings.push(model.provider, model.modelId);
    return M_MODEL;
  }
  if (keys === "model,usage" && named && usage !== undefined && plainUsage(usage)) {
    strings.push(model.provider, model.modelId);
    pushUsage(usages, usage);
    return M_MODEL_USAGE;
  }
  if (keys === "usage" && usage !== undefined && plainUsage(usage)) {
    pushUsage(usages, usage);
    return M_USAGE;
  }
  objects.push(keys === "" ? NO_META : plain);
  return M_OBJECT;
}

/** The ScanPart an EncodedPart was made of (same values; envelopes and metas made anew). */
export function decodePart(p: EncodedPart): ScanPart {
  const n = p.length;
  const envs: EntryEnvelope[] = new Array<EntryEnvelope>(n);
  const metas: EntryMeta[] = new Array<EntryMeta>(n);
  const s = p.strings === undefined ? [] : p.strings.split(SEP);
  // The few strings most envelopes share (type, role, tool names) are kept once, as the scanner keeps them.
  const shared = new Map<string, string>();
  const once = (v: string): string => {
    const had = shared.get(v);
    if (had !== undefined) return had;
    shared.set(v, v);
    return v;
  };
  let si = 0;
  let oi = 0;
  let mi = 0;
  let ui = 0;
  let previousId: string | undefined;
  for (let i = 0; i < n; i++) {
    const flags = p.envFlags[i];
    const shape = flags & F_SHAPE;
    let env: EntryEnvelope;
    if (shape === 0) env = p.envObjects[oi++];
    else {
      const id = s[si++];
      const parentId =
        (flags & F_NULL_PARENT) !== 0 ? null : (flags & F_PREVIOUS_PARENT) !== 0 ? (previousId as string) : s[si++];
      const type = once(s[si++]);
      if (shape === 1) {
        const timestamp = s[si++];
        env = { id, parentId, type, timestamp, preview: s[si++] };
      } else {
        const role = once(s[si++]);
        const timestamp = s[si++];
        const preview = s[si++];
        if (shape === 2) env = { id, parentId, type, role, timestamp, preview };
        else if (shape === 6) env = { id, parentId, type, role, timestamp, preview, failed: true };
        else {
          const toolName = once(s[si++]);
          const toolCallsOnly = (flags & F_TOOL_CALLS_ONLY) !== 0;
          if (shape === 3) env = { id, parentId, type, role, timestamp, preview, toolName };
          else if (shape === 4) env = { id, parentId, type, role, timestamp, preview, toolName, toolCallsOnly };
          else env = { id, parentId, type, role, timestamp, preview, toolName, toolCallsOnly, failed: true };
        }
      }
    }
    envs[i] = env;
    previousId = env.id;
    const kind = p.metaKinds[i];
    if (kind === M_NONE) metas[i] = NO_META;
    else if (kind === M_OBJECT) metas[i] = p.metaObjects[mi++];
    else if (kind === M_USAGE) {
      metas[i] = { usage: usageAt(p.usages, ui) };
      ui += USAGE_FLOATS;
    } else {
      const meta = modelMeta(s[si], s[si + 1]);
      si += 2;
      if (kind === M_MODEL) metas[i] = meta;
      else {
        metas[i] = { model: meta.model, usage: usageAt(p.usages, ui) };
        ui += USAGE_FLOATS;
      }
    }
  }
  const part: ScanPart = {
    entries: { length: n, envs, metas, offsets: p.offsets, sizes: p.sizes, lines: p.lines },
    issues: p.issues,
    missingFinalNewline: p.missingFinalNewline,
    lineCount: p.lineCount,
  };
  if (p.activity !== undefined) part.activity = p.activity;
  if (p.tornOffset !== undefined) part.tornOffset = p.tornOffset;
  return part;
}
