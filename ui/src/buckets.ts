// Long ranges drawn by week or month (hundreds of one-pixel day bars are unreadable): pure, tested in Node.
import type { SeriesPoint } from '../../src/shared/api-types.ts';

export type SeriesUnit = 'hour' | 'day' | 'week' | 'month';

/** Day series spanning more days than this are drawn by week (weeks start Monday, local). */
export const WEEKS_AFTER_DAYS = 90;
/** ... and by calendar month beyond two years. */
export const MONTHS_AFTER_DAYS = 731;

const pad = (n: number) => String(n).padStart(2, '0');
const dayKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

function localDate(key: string): Date {
  const [y, m, d] = key.slice(0, 10).split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

/** The unit a series of `bucket` points is drawn in, and its points summed into that unit (cost and byModel). */
export function bucketSeries(points: readonly SeriesPoint[], bucket: 'hour' | 'day'): { unit: SeriesUnit; points: SeriesPoint[] } {
  if (bucket !== 'day' || points.length < 2) return { unit: bucket, points: [...points] };
  const days = Math.round((localDate(points.at(-1)!.key).getTime() - localDate(points[0]!.key).getTime()) / 86_400_000) + 1;
  if (days <= WEEKS_AFTER_DAYS) return { unit: 'day', points: [...points] };
  const unit = days > MONTHS_AFTER_DAYS ? 'month' : 'week';
  const out: SeriesPoint[] = [];
  for (const p of points) {
    const d = localDate(p.key);
    let key: string;
    let start: Date;
    if (unit === 'month') {
      key = p.key.slice(0, 7);
      start = new Date(d.getFullYear(), d.getMonth(), 1);
    } else {
      start = new Date(d.getFullYear(), d.getMonth(), d.getDate() - ((d.getDay() + 6) % 7));
      key = dayKey(start);
    }
    let b = out.at(-1);
    if (!b || b.key !== key) {
      b = { key, start: start.getTime(), cost: 0, byModel: {} };
      out.push(b);
    }
    b.cost += p.cost;
    for (const [m, c] of Object.entries(p.byModel)) b.byModel[m] = (b.byModel[m] ?? 0) + c;
  }
  return { unit, points: out };
}
