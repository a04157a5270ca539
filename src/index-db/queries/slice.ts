// Which rollup a ranged query reads. Ranges of whole local days with day buckets read the daily
// rollup (one row per day x project x model); hour buckets and rolling ranges read the hourly one.
// Either way a slice is the same two grouped reads, plus the functions that place a series row's
// unit (day number or UTC hour) in a series bucket and in a week.
import type { RangeInfo } from '../../http/api-types.ts';
import { dayKey, dayNumber, dayNumberKey, HOUR_MS, hourBounds, hourKey, startOfDay, startOfWeek, weekStartDay } from '../time.ts';
import type { Reader, RollRow, SeriesRow, Span } from './reader.ts';

export interface Slice {
  /** The rollup read and its bounds. */
  span: Span;
  /** Sums per project x model x main/subagent (reader.ts C). */
  groups: RollRow[];
  /** Cost per unit x model, ordered by unit (read on first use: insights does without). */
  readonly series: SeriesRow[];
  /** Series bucket key of a unit. */
  bucketOf: (unit: number) => string;
  /** Local Monday ('YYYY-MM-DD') of the week of a unit. */
  weekOf: (unit: number) => string;
}

export const emptySlice: Slice = { span: { unit: 'hour', from: 0, to: 0 }, groups: [], series: [], bucketOf: String, weekOf: String };

const dayAligned = (range: RangeInfo): boolean =>
  range.kind === 'all' || (range.fromMs === startOfDay(range.fromMs) && range.toMs === startOfDay(range.toMs));

export function sliceOf(reader: Reader, range: RangeInfo, project: number | null, syncTimeZone: () => void): Slice {
  let span: Span;
  let bucketOf: (unit: number) => string;
  let weekOf: (unit: number) => string;
  if (range.bucket === 'day' && dayAligned(range)) {
    syncTimeZone();
    span = { unit: 'day', from: dayNumber(range.fromMs), to: dayNumber(range.toMs) };
    bucketOf = dayNumberKey;
    weekOf = (day) => dayNumberKey(weekStartDay(day));
  } else {
    const [from, to] = hourBounds(range.fromMs, range.toMs);
    span = { unit: 'hour', from, to };
    bucketOf = range.bucket === 'hour' ? (h) => hourKey(h * HOUR_MS) : (h) => dayKey(h * HOUR_MS);
    weekOf = (h) => dayKey(startOfWeek(h * HOUR_MS));
  }
  let series: SeriesRow[] | null = null;
  return {
    span,
    groups: reader.groups(span, project),
    get series() {
      return (series ??= reader.series(span, project));
    },
    bucketOf,
    weekOf,
  };
}
