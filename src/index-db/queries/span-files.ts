// The messages of a time span are read through the (file_id, ts) index (migration 009; there is no index by time
// alone): the files that can hold them are those of the sessions the hourly rollup has in the span's UTC hours, and the
// files outside any session (project-root files, whose lines name their session) of the projects it has there. That
// holds because a message's session is its file's, or its file has none and the message has the file's project
// (write/apply-batch.ts winnerOf), and the rollups change in the same transaction as the messages.
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
