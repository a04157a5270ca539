// Long day series summed by week and month (the server's bucketing of a long range), in a zone with DST.
process.env.TZ = 'America/New_York';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { SeriesPoint } from '../../src/shared/api-types.ts';
import { bucketSeries as bucketIn } from '../../src/calendar/series-buckets.ts';
import { systemZone } from '../../src/calendar/zone.ts';

const bucketSeries = (points: SeriesPoint[], bucket: 'hour' | 'day') => bucketIn(points, bucket, systemZone);

/** One point a day from `from` for `days` days, each costing $1 on sonnet plus $0.5 on opus on the 1st of a month. */
function days(from: string, n: number): SeriesPoint[] {
  const [y, m, d] = from.split('-').map(Number) as [number, number, number];
  return Array.from({ length: n }, (_, i) => {
    const t = new Date(y, m - 1, d + i);
    const key = `${t.getFullYear()}-${String(t.getMonth() + 1).padStart(2, '0')}-${String(t.getDate()).padStart(2, '0')}`;
    const byModel: Record<string, number> = { sonnet: 1, ...(t.getDate() === 1 ? { opus: 0.5 } : {}) };
    return { key, start: t.getTime(), cost: Object.values(byModel).reduce((a, b) => a + b, 0), byModel };
  });
}
const sum = (ps: SeriesPoint[]) => ps.reduce((a, p) => a + p.cost, 0);

const Buckets = suite('bucketSeries');

Buckets('up to 90 days stay days; hours stay hours', () => {
  const ninety = days('2026-01-01', 90);
  assert.is(bucketSeries(ninety, 'day').unit, 'day');
  assert.is(bucketSeries(ninety, 'day').points.length, 90);
  assert.is(bucketSeries(ninety, 'hour').unit, 'hour');
});

Buckets('91 days to two years: weeks from Monday, local, summed by model (DST inside)', () => {
  const pts = days('2026-01-01', 365); // a Thursday; DST starts 2026-03-08 and ends 2026-11-01 in New York
  const { unit, points } = bucketSeries(pts, 'day');
  assert.is(unit, 'week');
  assert.is(points[0]!.key, '2025-12-29', 'the week of the first day starts on its Monday');
  assert.is(points[0]!.cost, 4 + 0.5, 'Thu-Sun of that week, Jan 1 with opus');
  assert.is(points[1]!.key, '2026-01-05');
  assert.is(points[1]!.cost, 7);
  assert.ok(points.every((p) => new Date(p.start).getDay() === 1 && new Date(p.start).getHours() === 0), 'every week starts at a local Monday midnight');
  assert.is(points.length, 53);
  assert.is(sum(points), sum(pts));
  assert.is(points.reduce((a, p) => a + (p.byModel.opus ?? 0), 0), 12 * 0.5);
});

Buckets('beyond two years: calendar months', () => {
  const pts = days('2024-01-01', 800);
  const { unit, points } = bucketSeries(pts, 'day');
  assert.is(unit, 'month');
  assert.equal(points.slice(0, 3).map((p) => [p.key, p.cost]), [['2024-01', 31.5], ['2024-02', 29.5], ['2024-03', 31.5]]);
  assert.is(new Date(points[1]!.start).getDate(), 1);
  assert.is(sum(points), sum(pts));
});
Buckets.run();

