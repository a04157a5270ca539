// Usage batches built with the worker's own encoder (protocol.ts), so the index is fed exactly what the worker would send.
import { encodeBatch, type FileMeta, type ParseStats, type UsageBatch, type UsageRow } from '../../src/workers/protocol.ts';

/** A usage row with zeros and empty strings for everything not given. */
export function usageRow(r: Partial<UsageRow> & { ts: number }): UsageRow {
  return {
    input: 0, output: 0, cacheCreate: 0, cacheRead: 0, cache1h: 0, webSearch: 0, webFetch: 0, costUSD: null, offset: 0,
    fast: false, sidechain: false, geo: false, advisor: false, messageId: '', requestId: '', sessionId: '', model: 'claude-sonnet-4-5-20250929',
    agentId: '', tools: [], branch: '', entrypoint: '', ...r,
  };
}

/**
 * A batch of `rows` for `file` as the worker would produce it for the range [from, consumedTo).
 * Offsets default to 100 * row index; lines/usageLines stats default to the row count.
 */
export function batchOf(
  file: string,
  rows: readonly (Partial<UsageRow> & { ts: number })[],
  opts: { from?: number; consumedTo?: number; head?: string; meta?: FileMeta; stats?: Partial<ParseStats> } = {},
): UsageBatch {
  const full = rows.map((r, i) => usageRow({ offset: (opts.from ?? 0) + i * 100, ...r }));
  const from = opts.from ?? 0;
  const consumedTo = opts.consumedTo ?? Math.max(from, ...full.map((r) => r.offset + 100));
  const ts = full.map((r) => r.ts);
  return encodeBatch(full, {
    path: file, from, consumedTo,
    head: opts.head ?? (from === 0 ? 'aa'.repeat(8) : ''),
    meta: { ...(ts.length ? { firstTs: Math.min(...ts) } : {}), ...opts.meta },
    stats: { lines: full.length, usageLines: full.length, blank: 0, malformed: 0, giant: 0, outOfRange: 0, ...opts.stats },
  });
}
