/** HTML export of sessions (see docs/core-api.md "Export"). */
export { buildExportData, type ExportOptions, type ExportSource } from "./build-export-data.js";
export { createEntriesSource, type EntriesSourceInit } from "./entries-source.js";
export {
  EXPORT_DATA_ELEMENT_ID,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportData,
  type ExportEntry,
} from "./export-data.js";
export {
  EXPORT_SCRIPT_FILE,
  exportSessionToHtml,
  loadExportPageScript,
  writeSessionHtml,
  type ExportHtmlOptions,
} from "./export-session.js";
export { DEFAULT_TRUNCATE_LIMIT } from "./shrink-entry.js";
