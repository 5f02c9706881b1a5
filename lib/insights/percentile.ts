// Nearest-rank percentiles over a small in-memory sample (the insights service bounds the sample). Pure.

/** The nearest-rank p-th percentile (0 < p ≤ 100) of `sortedAscending`; NaN for an empty sample. */
export function percentile(sortedAscending: readonly number[], p: number): number {
  if (sortedAscending.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sortedAscending.length);
  return sortedAscending[Math.min(sortedAscending.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}
