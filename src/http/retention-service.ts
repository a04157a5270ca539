// What GET /api/retention and the retention gauges of /metrics need (src/main/retention.ts implements it): the server
// takes it as an option, as it takes the budgets, so http does not import main.
import type { Retention, RetentionDir } from '../shared/retention-types.ts';

/** What turning keeping on answers: the figures after it, or why it did not happen. */
export type KeepChange = { ok: true; retention: Retention } | { ok: false; reason: 'read-only' | 'write-failed'; message: string };

export interface RetentionService {
  /** The figures at instant `now` (the transcripts' modification times as the index last saw them). */
  report(now: number): Retention;
  /** report(now)'s per-dir figures alone, what the gauges show: no walk of the kept folder, no backup note read. */
  dirs(now: number): RetentionDir[];
  /** Turns keeping the transcripts on (the overview's offer), in the folder beside the index; kept on across restarts. */
  keep(now: number): Promise<KeepChange>;
}
