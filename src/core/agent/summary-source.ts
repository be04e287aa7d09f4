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
 * Uses the model when there is one and it can be called (`ready`: the host holds a key for it, or its provider
 * has credentials or needs none); otherwise — or when `forceExtractive` — the extractive summarizer, so the tree
 * never needs a key.
 */
export function chooseSummarySource(
  model: ModelInfo | undefined,
  ready: boolean,
  apiKey: string | undefined,
  complete: CompleteFn,
  forceExtractive: boolean,
): SummarySource {
  if (forceExtractive || !model || !ready) return { extractive: true };
  return { model, ...(apiKey ? { apiKey } : {}), complete, extractive: false };
}
