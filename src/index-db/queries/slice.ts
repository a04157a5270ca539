// Which rollups a ranged query reads. Ranges of whole local days read the local rollups, where each
// entry counts on the local day and hour of its own timestamp: the daily ones for sums and sessions, and for
// hourly series cost_local_hourly. Rolling ranges (24 h) read the UTC hourly rollups. Either way a slice is the
// same grouped reads (each made on first use), plus the functions that place a series row's unit (day number,
// local hour number or UTC hour) in a series bucket.
import type { RangeInfo } from '../../http/api-types.ts';
import {
  dayKey, dayNumber, dayNumberKey, exactHours, HOUR_MS, hourBounds, hourKey, lhourCeil, localHourKey, startOfDay, type HourSpan,
} from '../time.ts';
import type { Reader, RollRow, SeriesRow, Span } from './reader.ts';
import type { ProjectSet } from './scope.ts';

export interface Slice {
  /** The rollup the sums, sessions and top tools read, and its bounds. */
  span: Span;
  /** The UTC hours (and partial hours at the edges) of the range, for reads per session of one project. */
  hours: HourSpan;
  /** The local hour numbers of the range (heatmap, weekly cost). */
  local: Span;
  /** Sums per project x model x main/subagent (reader.ts C). */
  readonly groups: RollRow[];
  /** Sums per model x main/subagent (reader.ts C, project 0). */
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

export const dayAligned = (range: RangeInfo): boolean =>
  range.kind === 'all' || (range.fromMs === startOfDay(range.fromMs) && range.toMs === startOfDay(range.toMs));

export function sliceOf(reader: Reader, range: RangeInfo, project: ProjectSet): Slice {
  let span: Span;
  let seriesSpan: Span;
  let hours: HourSpan;
  let local: Span;
  let bucketOf: (unit: number) => string;
  if (dayAligned(range)) {
    span = { unit: 'day', from: dayNumber(range.fromMs), to: dayNumber(range.toMs) };
    hours = exactHours(range.fromMs, range.toMs);
    local = { unit: 'lhour', from: span.from * 24, to: span.to * 24 };
    if (range.bucket === 'day') {
      seriesSpan = span;
      bucketOf = dayNumberKey;
    } else {
      seriesSpan = local;
      bucketOf = localHourKey;
    }
  } else {
    const [from, to] = hourBounds(range.fromMs, range.toMs);
    span = seriesSpan = { unit: 'hour', from, to };
    hours = { from, to, edges: [] };
    local = { unit: 'lhour', from: lhourCeil(range.fromMs), to: lhourCeil(range.toMs) };
    bucketOf = range.bucket === 'hour' ? (h) => hourKey(h * HOUR_MS) : (h) => dayKey(h * HOUR_MS);
  }
  let groups: RollRow[] | null = null;
  let modelGroups: RollRow[] | null = null;
  let series: SeriesRow[] | null = null;
  return {
    span,
    hours,
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
