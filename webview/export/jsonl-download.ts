/**
 * The ↓ JSONL button: the session file back out of the page, as pi's page gives it. Like pi's, it is rebuilt in the
 * page from the data the page embeds (the header line, then each exported entry as one JSON line), so the page
 * carries the session once and fetches nothing: the file is a `blob:` URL made on click. A whole-tree export with
 * no text cut gives the session file byte for byte; a branch export gives that path as a session of its own (the
 * export chains its entries: build-export-data.ts); texts the export cut stay cut.
 */
import type { ExportData } from "../../src/core/export/export-data.js";
import { asRecord, h } from "./dom.js";

/** The JSONL the button downloads. */
export function sessionJsonl(data: ExportData): string {
  const header = data.header ?? { type: "session", id: data.sessionId, timestamp: data.exportedAt, cwd: data.cwd };
  const lines = [JSON.stringify(header)];
  for (const e of data.entries) if (asRecord(e)) lines.push(JSON.stringify(e));
  return lines.join("\n") + "\n";
}

/** The file name: the session id, as pi's page names it. */
function fileName(data: ExportData): string {
  const id = (data.header?.id ?? data.sessionId).replace(/[^\w.-]+/g, "_") || "session";
  return `${id}${data.branchOnly ? "-branch" : ""}.jsonl`;
}

/** The button. */
export function downloadButton(data: ExportData): HTMLButtonElement {
  const button = h("button", undefined, "↓ JSONL");
  button.id = "download-jsonl";
  const cut = data.truncatedCount > 0 ? ` (${data.truncatedCount} long texts cut, as in this page)` : "";
  button.title = `Download the ${data.branchOnly ? "exported branch" : "session"} as JSONL${cut}`;
  button.setAttribute("aria-label", "Download the session as JSONL");
  button.addEventListener("click", () => {
    const url = URL.createObjectURL(new Blob([sessionJsonl(data)], { type: "application/x-ndjson" }));
    const a = h("a");
    a.href = url;
    a.download = fileName(data);
    document.body.appendChild(a);
    a.click();
    a.remove();
    // The download has taken the blob by the time the click returns; later is merely safe.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  });
  return button;
}
