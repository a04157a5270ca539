// What the bench's scripts share.

/** The p-th percentile of values (nearest rank); p = 50 is the median of an odd count. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Empties the server's result cache (POST /api/refresh), so the next request computes its answer. */
export async function clearServerCache(base: string): Promise<void> {
  const res = await fetch(`${base}/api/refresh`, { method: 'POST' });
  if (!res.ok) throw new Error(`refresh: ${res.status}`);
}
