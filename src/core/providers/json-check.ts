/**
 * Small checks for JSON read from pi's files (models.json, settings.json): each says what is wrong at which path
 * (`providers.ollama.models[0].contextWindow: must be a positive number`), so a bad field can be reported and its
 * entry skipped while the rest loads.
 */

/** A plain JSON object. */
export type JsonRecord = Record<string, unknown>;

/** True for a plain object (not null, not an array). */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One problem with a file: which file, where in it, and what. */
export interface ConfigIssue {
  /** The file (or setting) the problem is in. */
  file: string;
  /** Dotted path of the field (`providers.ollama.models[0].id`), or "" for the whole file. */
  path: string;
  message: string;
}

/** "file: path: message", the way issues are shown to the user. */
export function formatIssue(issue: ConfigIssue): string {
  return issue.path ? `${issue.file}: ${issue.path}: ${issue.message}` : `${issue.file}: ${issue.message}`;
}

/** Thrown by the field checks below; caught where an entry is skipped. */
export class FieldError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** The path of a key under `parent`. */
export function at(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

/** `obj[key]` when it is a non-empty string or absent; else a FieldError. */
export function optString(obj: JsonRecord, key: string, path: string): string | undefined {
  const v = obj[key];
  if (v === undefined) return undefined;
  if (typeof v !== "string" || v.length === 0) throw new FieldError(at(path, key), "must be a non-empty string");
  return v;
}

/** `obj[key]` when it is a boolean or absent. */
export function optBoolean(obj: JsonRecord, key: string, path: string): boolean | undefined {
  const v = obj[key];
  if (v === undefined) return undefined;
  if (typeof v !== "boolean") throw new FieldError(at(path, key), "must be true or false");
  return v;
}

/** `obj[key]` when it is a number above 0 or absent. */
export function optPositive(obj: JsonRecord, key: string, path: string): number | undefined {
  const v = obj[key];
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0)
    throw new FieldError(at(path, key), "must be a positive number");
  return v;
}

/** `obj[key]` when it is a whole number ≥ 0 or absent. */
export function optCount(obj: JsonRecord, key: string, path: string): number | undefined {
  const v = obj[key];
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
    throw new FieldError(at(path, key), "must be a whole number of 0 or more");
  return v;
}

/** `obj[key]` when it is an object or absent. */
export function optRecord(obj: JsonRecord, key: string, path: string): JsonRecord | undefined {
  const v = obj[key];
  if (v === undefined) return undefined;
  if (!isRecord(v)) throw new FieldError(at(path, key), "must be an object");
  return v;
}

/** `obj[key]` when it is an object of strings or absent (headers). */
export function optStringMap(obj: JsonRecord, key: string, path: string): Record<string, string> | undefined {
  const v = optRecord(obj, key, path);
  if (!v) return undefined;
  for (const [k, s] of Object.entries(v))
    if (typeof s !== "string") throw new FieldError(at(at(path, key), k), "must be a string");
  return v as Record<string, string>;
}

/** `obj[key]` when it is a list of strings or absent. */
export function optStringList(obj: JsonRecord, key: string, path: string): string[] | undefined {
  const v = obj[key];
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || !v.every((s) => typeof s === "string"))
    throw new FieldError(at(path, key), "must be a list of strings");
  return v as string[];
}
