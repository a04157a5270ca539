// Long ranges drawn by week or month (hundreds of one-pixel day bars are unreadable): pure, tested in Node.
import type { SeriesPoint } from '../../src/shared/api-types.ts';
import { dayKey, monthStart, parseDayKey, weekStart } from '../../src/calendar/days.ts';
import { dayStartMs, systemZone } from '../../src/calendar/zone.ts';

export type SeriesUnit = 'hour' | 'day' | 'week' | 'month';

/** Day series spanning more days than this are drawn by week (weeks start Monday, local). */
export const WEEKS_AFTER_DAYS = 90;
/** ... and by calendar month beyond two years. */
export const MONTHS_AFTER_DAYS = 731;

/** The day number of a day series key ('YYYY-MM-DD', the server's). */
const dayOfKey = (key: string): number => parseDayKey(key.slice(0, 10)) ?? Number.NaN;

/** The unit a series of `bucket` points is drawn in, and its points summed into that unit (cost and byModel). */
export function bucketSeries(points: readonly SeriesPoint[], bucket: 'hour' | 'day'): { unit: SeriesUnit; points: SeriesPoint[] } {
  if (bucket !== 'day' || points.length < 2) return { unit: bucket, points: [...points] };
  const days = dayOfKey(points.at(-1)!.key) - dayOfKey(points[0]!.key) + 1;
  if (days <= WEEKS_AFTER_DAYS) return { unit: 'day', points: [...points] };
  const unit = days > MONTHS_AFTER_DAYS ? 'month' : 'week';
  const out: SeriesPoint[] = [];
  for (const p of points) {
    const first = unit === 'month' ? monthStart(dayOfKey(p.key)) : weekStart(dayOfKey(p.key));
    const key = unit === 'month' ? p.key.slice(0, 7) : dayKey(first);
    let b = out.at(-1);
    if (!b || b.key !== key) {
      b = { key, start: dayStartMs(systemZone, first), cost: 0, byModel: {} };
      out.push(b);
    }
    b.cost += p.cost;
    for (const [m, c] of Object.entries(p.byModel)) b.byModel[m] = (b.byModel[m] ?? 0) + c;
  }
  return { unit, points: out };
}
