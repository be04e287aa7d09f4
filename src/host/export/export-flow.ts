/**
 * Export Session / Export Branch to HTML without VS Code: ask where, write the page under a progress, offer to
 * open it. The VS Code side (save dialog, notification, browser) is an {@link ExportUi}; tests pass a fake one.
 */
import * as path from "node:path";
import { writeSessionHtml } from "../../core/export/export-session.js";
import type { ExportSource } from "../../core/export/build-export-data.js";

/** What the flow asks of the editor. */
export interface ExportUi {
  /** The file to write (`defaultName` suggested), or undefined when the user cancels. */
  pickTarget(title: string, defaultName: string): Promise<string | undefined>;
  /** Run `task` while a progress notification says `title`. */
  withProgress<T>(title: string, task: () => Promise<T>): Promise<T>;
  /** Say the export is done; true when the user asks to open the page. */
  offerOpen(message: string): Promise<boolean>;
  /** Open the written page in the browser. */
  open(file: string): Promise<void>;
  /** Report a failed export. */
  error(title: string, err: unknown): void;
}

/** The session an export reads, and the file it was loaded from (the page is named after it). */
export type ExportFlowSource = ExportSource & { getSessionFile(): string | undefined };

/** What to export and where the page script is. */
export interface ExportFlowOptions {
  branchOnly: boolean;
  /** The branch's last entry (branch export). */
  leafId?: string;
  /** Folder holding the built export.js. */
  assetsDir: string;
  /** The system prompt the agent would send now, for a session that records none (see ExportOptions). */
  currentSystemPrompt?: () => Promise<string | undefined>;
}

/** Run one export. Returns the file written, or undefined when cancelled or failed (the failure is reported). */
export async function runExportFlow(
  source: ExportFlowSource,
  ui: ExportUi,
  opts: ExportFlowOptions,
): Promise<string | undefined> {
  const what = opts.branchOnly ? "Branch" : "Session";
  const base = path.basename(source.getSessionFile() ?? `session-${source.getSessionId()}.jsonl`, ".jsonl");
  const target = await ui.pickTarget(`Export ${what} to HTML`, `${base}.html`);
  if (!target) return undefined;
  let bytes: number;
  try {
    bytes = await ui.withProgress(`Exporting the ${what.toLowerCase()} to HTML…`, async () => {
      // Building the page is synchronous work (about a second for 30,000 entries): let the notification show first.
      await new Promise<void>((resolve) => setImmediate(resolve));
      // A prompt that cannot be built (a context file unreadable now) is no reason to fail the export.
      const currentSystemPrompt = await opts.currentSystemPrompt?.().catch(() => undefined);
      return writeSessionHtml(source, target, {
        assetsDir: opts.assetsDir,
        branchOnly: opts.branchOnly,
        leafId: opts.leafId,
        ...(currentSystemPrompt ? { currentSystemPrompt } : {}),
      });
    });
  } catch (e) {
    ui.error("Export failed", e);
    return undefined;
  }
  const size = bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
  if (await ui.offerOpen(`Exported ${size} to ${target}.`)) await ui.open(target);
  return target;
}
