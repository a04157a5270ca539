// Long day series summed by week or month: the server answers a long range with one point per week or month, so an
// answer's size follows what the chart can draw (hundreds of one-pixel day bars are unreadable) and not the span.
import { dayKey, monthStart, parseDayKey, weekStart } from './days.ts';
import { dayStartMs, type Zone } from './zone.ts';

/** What one point of a cost series covers. */
export type SeriesUnit = 'hour' | 'day' | 'week' | 'month';

/** Day series spanning more days than this are summed by week (weeks start Monday, local). */
export const WEEKS_AFTER_DAYS = 90;
/** ... and by calendar month beyond two years. */
export const MONTHS_AFTER_DAYS = 731;

/** A series point (the API's SeriesPoint; the calendar names no API type). */
export interface Point {
  key: string;
  start: number;
  cost: number;
  byModel: Record<string, number>;
}

/** The day number of a day series key ('YYYY-MM-DD'). */
const dayOfKey = (key: string): number => parseDayKey(key.slice(0, 10)) ?? Number.NaN;

/**
 * The unit a series of `bucket` points is answered in, and its points summed into that unit (cost and byModel):
 * by day up to WEEKS_AFTER_DAYS days from its first point to its last, by week up to MONTHS_AFTER_DAYS, then by month.
 */
export function bucketSeries<P extends Point>(points: readonly P[], bucket: 'hour' | 'day', zone: Zone): { unit: SeriesUnit; points: Point[] } {
  if (bucket !== 'day' || points.length < 2) return { unit: bucket, points: [...points] };
  const days = dayOfKey(points.at(-1)!.key) - dayOfKey(points[0]!.key) + 1;
  if (days <= WEEKS_AFTER_DAYS) return { unit: 'day', points: [...points] };
  const unit = days > MONTHS_AFTER_DAYS ? 'month' : 'week';
  const out: Point[] = [];
  for (const p of points) {
    const first = unit === 'month' ? monthStart(dayOfKey(p.key)) : weekStart(dayOfKey(p.key));
    const key = unit === 'month' ? p.key.slice(0, 7) : dayKey(first);
    let b = out.at(-1);
    if (!b || b.key !== key) {
      b = { key, start: dayStartMs(zone, first), cost: 0, byModel: {} };
      out.push(b);
    }
    b.cost += p.cost;
    for (const m in p.byModel) b.byModel[m] = (b.byModel[m] ?? 0) + p.byModel[m]!;
  }
  return { unit, points: out };
}
