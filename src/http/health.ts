// The overview's `health`: lines the index skipped, by reason, and whether the clock is behind the newest entry
// (a server clock behind the data shows $0 for "today" with no other hint).
import type { IndexStats } from '../index-db/types.ts';
import type { DataHealth } from '../shared/api-types.ts';

/** Clocks of machines that share synced folders drift by seconds; a minute ahead is not a clock problem. */
const FUTURE_SLACK_MS = 60_000;

/**
 * `unreadableFolders`: folders the last listing could not read (not in the index: they are of now); `notes`: what the
 * index file's keeper has to tell (IndexKeeper.notes).
 */
export function healthOf(stats: IndexStats, now: number, unreadableFolders: number, notes: readonly string[] = []): DataHealth {
  const newest = stats.newestTs;
  return {
    skipped: { malformed: stats.malformed, outOfRange: stats.outOfRange, oversized: stats.giant, unreadableFiles: stats.unreadable, unreadableFolders },
    newestEntry: newest === null ? null : new Date(newest).toISOString(),
    dataInFuture: newest !== null && newest > now + FUTURE_SLACK_MS,
    ...(notes.length ? { index: [...notes] } : {}),
  };
}
