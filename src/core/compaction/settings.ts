/** Compaction settings and the "is it time to compact" test. */

/** When and how much to compact. */
export interface CompactionSettings {
  /** Compact automatically before a request that would not fit. */
  enabled: boolean;
  /** Tokens of the window kept free for the reply (and the summary prompt). */
  reserveTokens: number;
  /** Roughly how many tokens of recent context survive a compaction verbatim. */
  keepRecentTokens: number;
}

/** pi's defaults. */
export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = {
  enabled: true,
  reserveTokens: 16384,
  keepRecentTokens: 20000,
};

/**
 * The settings in force: pi's defaults, then each layer in turn (pi's settings.json `compaction`, then VS Code's),
 * a later layer's field winning. A layer's missing fields keep what was there.
 */
export function compactionSettingsOf(...layers: (Partial<CompactionSettings> | undefined)[]): CompactionSettings {
  const out: CompactionSettings = { ...DEFAULT_COMPACTION_SETTINGS };
  for (const layer of layers) {
    if (layer?.enabled !== undefined) out.enabled = layer.enabled;
    if (layer?.reserveTokens !== undefined) out.reserveTokens = layer.reserveTokens;
    if (layer?.keepRecentTokens !== undefined) out.keepRecentTokens = layer.keepRecentTokens;
  }
  return out;
}

/** pi's default reserve for branch summaries. */
export const DEFAULT_BRANCH_SUMMARY_RESERVE_TOKENS = 16384;

/** True when a context of `contextTokens` leaves less than the reserve free in the window. */
export function shouldCompact(contextTokens: number, contextWindow: number, settings: CompactionSettings): boolean {
  return settings.enabled && contextTokens > contextWindow - settings.reserveTokens;
}

const OVERFLOW_PATTERNS = [
  /context[ _-]?length/i,
  /context[ _-]?window/i,
  /maximum context/i,
  /prompt is too long/i,
  /too many tokens/i,
  /input is too long/i,
  /exceeds? (the )?(model'?s? )?(maximum|max|context)/i,
  /reduce the length of the messages/i,
];

/** True when a provider error message says the request did not fit the model's context window. */
export function isContextOverflowError(message: string | undefined): boolean {
  return message !== undefined && OVERFLOW_PATTERNS.some((p) => p.test(message));
}
