// What GET /api/retention and the retention gauges of /metrics need (src/main/retention.ts implements it): the server
// takes it as an option, as it takes the budgets, so http does not import main.
import type { Retention } from '../shared/retention-types.ts';

export interface RetentionService {
  /** The figures at instant `now` (the transcripts' modification times are read from disk each time). */
  report(now: number): Retention;
}
