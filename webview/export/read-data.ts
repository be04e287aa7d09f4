/** Reads and checks the JSON the export embeds. */
import {
  EXPORT_DATA_ELEMENT_ID,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportData,
} from "../../src/core/export/export-data.js";
import { asRecord } from "./dom.js";
import { errorText } from "../../src/core/error-text.js";

/** The page data, or an error message saying what is wrong. */
export function readExportData(doc: Document): ExportData | string {
  const el = doc.getElementById(EXPORT_DATA_ELEMENT_ID);
  if (!el) return "This page holds no session data.";
  let value: unknown;
  try {
    value = JSON.parse(el.textContent ?? "");
  } catch (err) {
    return `The session data is not valid JSON: ${errorText(err)}`;
  }
  const d = asRecord(value);
  if (!d || d.format !== EXPORT_FORMAT) return "The embedded data is not an Agent Tree export.";
  if (d.version !== EXPORT_VERSION) return `Unsupported export version ${String(d.version)}.`;
  if (!Array.isArray(d.nodes) || !Array.isArray(d.entries) || d.nodes.length !== d.entries.length)
    return "The session data is incomplete.";
  for (const n of d.nodes) {
    const r = asRecord(n);
    if (!r || typeof r.id !== "string" || (r.parentId !== null && typeof r.parentId !== "string"))
      return "The session data has a malformed entry.";
    if (typeof r.preview !== "string") r.preview = "";
    if (typeof r.timestamp !== "string") r.timestamp = "";
    if (typeof r.kind !== "string") r.kind = "unknown";
    if (typeof r.label !== "string") delete r.label;
  }
  const u = asRecord(d.usage);
  const counts = ["input", "output", "cacheRead", "cacheWrite", "cost"];
  if (!u || !counts.every((k) => typeof u[k] === "number") || !Array.isArray(u.models)) delete d.usage;
  else u.models = u.models.filter((m): m is string => typeof m === "string");
  if (typeof d.currentSystemPrompt !== "string" || d.currentSystemPrompt === "") delete d.currentSystemPrompt;
  if (typeof d.title !== "string") d.title = "Session";
  if (asRecord(d.header)?.type !== "session") delete d.header;
  if (d.leafId !== null && typeof d.leafId !== "string") d.leafId = null;
  return value as ExportData;
}
