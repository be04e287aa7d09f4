/** Small statistics helpers: medians over runs, percentiles over samples. */

/** The median (mean of the middle two for even counts); NaN for no values. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Nearest-rank percentile (p in 0..100); NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** Median over runs of a per-run number; undefined values (step not run) are skipped. */
export function medianOf<T>(runs: readonly T[], pick: (run: T) => number | undefined): number {
  return median(runs.map(pick).filter((v): v is number => v !== undefined && Number.isFinite(v)));
}
