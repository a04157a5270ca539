// A query's scope with its range resolved into the spans the rollups are read by (src/calendar), once per call of a
// query, so no query works out hour or day bounds of its own.
import { rangeSpan, todaySpan, type DaysSpan, type RangeSpan } from '../../calendar/resolve.ts';
import { systemZone, type Zone } from '../../calendar/zone.ts';
import type { QueryScope } from '../query-scope.ts';

export interface SpannedScope extends QueryScope {
  /** The process time zone, the one the local rollups are kept in. */
  zone: Zone;
  /** The range's spans. */
  span: RangeSpan;
  /** The spans of the local day of `now`. */
  today: DaysSpan;
}

export function withSpans(scope: QueryScope): SpannedScope {
  const zone = systemZone;
  return { ...scope, zone, span: rangeSpan(scope.range, zone), today: todaySpan(scope.now, zone) };
}
