/**
 * Copies an entry for export, cutting giant strings (tool output, file contents in tool arguments, huge images)
 * so a session with megabytes of `cat` output still exports to a file a browser opens quickly.
 */
import type { ExportEntry } from "./export-data.js";

/** Default longest string kept, in characters (~20 KB). */
export const DEFAULT_TRUNCATE_LIMIT = 20_000;
/** Longest base64 image kept (~1.5 MB of image). */
export const IMAGE_DATA_LIMIT = 2_000_000;

/** Result of {@link shrinkEntry}. */
export interface ShrunkEntry {
  entry: ExportEntry;
  /** How many strings were cut. */
  truncated: number;
}

/** The note appended to a cut string. */
export function truncationNote(removed: number): string {
  return `\n\n[… ${removed.toLocaleString("en-US")} more characters not included in the export]`;
}

/**
 * Deep copy with every string longer than `limit` cut (base64 image data gets a larger limit and is replaced
 * by a text block when over it, because half an image is no image). Keys that carry identity (ids, types,
 * signatures) are never cut.
 */
export function shrinkEntry(entry: ExportEntry, limit: number = DEFAULT_TRUNCATE_LIMIT): ShrunkEntry {
  let truncated = 0;
  const keep = new Set(["id", "parentId", "type", "role", "targetId", "toolCallId", "thinkingSignature", "mimeType"]);
  const walk = (value: unknown, key: string, depth: number): unknown => {
    if (typeof value === "string") {
      if (keep.has(key) || value.length <= limit) return value;
      truncated++;
      return value.slice(0, limit) + truncationNote(value.length - limit);
    }
    if (typeof value !== "object" || value === null || depth > 64) return value;
    if (Array.isArray(value)) return value.map((v) => walk(v, key, depth + 1));
    const obj = value as Record<string, unknown>;
    if (obj.type === "image" && typeof obj.data === "string") {
      if (obj.data.length <= IMAGE_DATA_LIMIT) return { ...obj };
      truncated++;
      return {
        type: "text",
        text: `[image of ${obj.data.length.toLocaleString("en-US")} base64 characters not included in the export]`,
      };
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) out[k] = walk(v, k, depth + 1);
    return out;
  };
  return { entry: walk(entry, "", 0) as ExportEntry, truncated };
}
