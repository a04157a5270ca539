// Which rollups a ranged query reads. Ranges of whole local days read the local rollups, where each
// entry counts on the local day and hour of its own timestamp: the daily ones for sums and sessions, and for
// hourly series cost_local_hourly. Rolling ranges (24 h) read the UTC hourly rollups. Either way a slice is the
// same grouped reads (each made on first use), plus the functions that place a series row's unit (day number,
// local hour number or UTC hour) in a series bucket.
import { dayKey, HOUR_MS, hourKey } from '../../calendar/days.ts';
import type { HourSpan, RangeSpan } from '../../calendar/resolve.ts';
import { dayOf, localHourOf, type Zone } from '../../calendar/zone.ts';
import type { Reader, RollRow, SeriesRow, Span } from './reader.ts';
import type { ProjectSet } from './scope.ts';

export interface Slice {
  /** The rollup the sums, sessions and top tools read, and its bounds. */
  span: Span;
  /** The UTC hours (and partial hours at the edges) of the range, for reads per session of one project. */
  hours: HourSpan;
  /** The local hour numbers of the range (heatmap, weekly cost). */
  local: Span;
  /** Sums per project x model x main/subagent (reader.ts ROLL_COL). */
  readonly groups: RollRow[];
  /** Sums per model x main/subagent (reader.ts ROLL_COL, project 0). */
  readonly modelGroups: RollRow[];
  /** Cost per unit x model, ordered by unit (read on first use). */
  readonly series: SeriesRow[];
  /** Series bucket key of a unit. */
  bucketOf: (unit: number) => string;
}

export const emptySlice: Slice = {
  span: { unit: 'hour', from: 0, to: 0 }, hours: { from: 0, to: 0, edges: [] }, local: { unit: 'lhour', from: 0, to: 0 },
  groups: [], modelGroups: [], series: [], bucketOf: String,
};

/** The slice of a range's spans; `bucket`: the range's series bucket. */
export function sliceOf(reader: Reader, range: RangeSpan, bucket: 'hour' | 'day', zone: Zone, project: ProjectSet): Slice {
  let span: Span;
  let seriesSpan: Span;
  let bucketOf: (unit: number) => string;
  const local: Span = { unit: 'lhour', ...range.localHours };
  if (range.days) {
    span = { unit: 'day', ...range.days };
    if (bucket === 'day') {
      seriesSpan = span;
      bucketOf = dayKey;
    } else {
      seriesSpan = local;
      bucketOf = hourKey;
    }
  } else {
    span = seriesSpan = { unit: 'hour', ...range.utcHours };
    bucketOf = bucket === 'hour' ? (h) => hourKey(localHourOf(zone, h * HOUR_MS)) : (h) => dayKey(dayOf(zone, h * HOUR_MS));
  }
  let groups: RollRow[] | null = null;
  let modelGroups: RollRow[] | null = null;
  let series: SeriesRow[] | null = null;
  return {
    span,
    hours: range.hours,
    local,
    get groups() {
      return (groups ??= reader.groups(span, project));
    },
    get modelGroups() {
      return (modelGroups ??= reader.modelGroups(span, project));
    },
    get series() {
      return (series ??= reader.series(seriesSpan, project));
    },
    bucketOf,
  };
}
