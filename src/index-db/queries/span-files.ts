// The messages of a time span are read through the (file_id, ts) index (migration 009; there is no index by time
// alone): the files that can hold them are those of the sessions the hourly rollup has in the span's UTC hours, and the
// files outside any session (project-root files, whose lines name their session) of the projects it has there. That
// holds because a message's session is its file's, or its file has none and the message has the file's project
// (write/apply-batch.ts winnerOf), and the rollups change in the same transaction as the messages.
// A long span reads an all-time rollup less the units before it instead (readsAsTotal: one rule for every such rollup).
import { HOUR_MS } from '../time.ts';

/**
 * `SELECT id FROM files ...` for the span whose first and end UTC hours are the SQL parameters `from` and `to` (each
 * appears twice: with `?`, bind `spanHours()`); `scope` is a condition on `project_id` added to both rollup reads.
 */
export function spanFiles(from: string, to: string, scope = ''): string {
  return `SELECT id FROM files WHERE session_id IN (SELECT session_id FROM usage_hourly WHERE hour >= ${from} AND hour < ${to} ${scope})
    UNION ALL SELECT id FROM files WHERE session_id IS NULL
      AND project_id IN (SELECT project_id FROM usage_hourly_model WHERE hour >= ${from} AND hour < ${to} ${scope})`;
}

/** The UTC hours [first, end) that [fromMs, toMs) touches. */
export function hoursOf(fromMs: number, toMs: number): [number, number] {
  return [Math.floor(fromMs / HOUR_MS), Math.floor((toMs - 1) / HOUR_MS) + 1];
}

/** The positional parameters of `spanFiles('?', '?')` for [fromMs, toMs). */
export function spanHours(fromMs: number, toMs: number): number[] {
  const [h0, h1] = hoursOf(fromMs, toMs);
  return [h0, h1, h0, h1];
}

/**
 * Whether the units [from, to) (hours or days) of a history whose units with usage run from `first` to `last` are read
 * best as the all-time sums less the units before `from`: the span reaches past the newest unit and starts closer to
 * the first than to its own end (a year, all time), a row per project x model then instead of one per unit.
 */
export function readsAsTotal(from: number, to: number, first: number, last: number): boolean {
  return to > last && from - first < Math.min(to, last + 1) - Math.max(from, first);
}

/**
 * Whether the hours [from, to) cover at least half of a history whose hours with usage run from `first` to `last`: a
 * read of a secondary index that holds every hour, dropping those outside, then costs less than the primary key's
 * range of hours and a sort of its rows (usage_hourly by session: a year at 10 GiB 80 ms sorted, 37 ms by the index).
 */
export function coversMost(from: number, to: number, first: number, last: number): boolean {
  return 2 * (Math.min(to, last + 1) - Math.max(from, first)) >= last + 1 - first;
}
