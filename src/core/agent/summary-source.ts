/** Which summarizer a summary or compaction uses, decided once per operation. */
import type { ModelInfo } from "../providers/types.js";
import type { CompleteFn } from "../summary/summarize.js";

/** The model side of a summary request (absent model/complete → extractive). */
export interface SummarySource {
  model?: ModelInfo;
  apiKey?: string;
  complete?: CompleteFn;
  extractive: boolean;
}

/**
 * Uses the model when there is one and it can be called (a key, a `noApiKey` model, or
 * a custom server with a baseUrl may need none); otherwise — or when `forceExtractive` — the extractive
 * summarizer, so the tree never needs a key.
 */
export function chooseSummarySource(
  model: ModelInfo | undefined,
  apiKey: string | undefined,
  complete: CompleteFn,
  forceExtractive: boolean,
): SummarySource {
  if (forceExtractive || !model || (!apiKey && !model.noApiKey && !model.baseUrl)) return { extractive: true };
  return { model, apiKey, complete, extractive: false };
}
