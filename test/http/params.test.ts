// Range arithmetic in the process time zone, across DST changes, and the parameter errors.
// Node re-reads process.env.TZ when it is assigned, so each test picks its zone.
process.env.TZ = 'America/New_York';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpError } from '../../src/http/errors.ts';
import { MAX_RANGE_DAYS } from '../../src/calendar/range.ts';
import { parseProject, parseRange, rangeKey } from '../../src/http/params.ts';

const H = 3_600_000;
const NY = 'America/New_York';
const BERLIN = 'Europe/Berlin';

function inZone<T>(tz: string, fn: () => T): T {
  process.env.TZ = tz;
  return fn();
}
/** Epoch ms of a local wall-clock time in the current zone. */
const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min).getTime();

function httpError(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (err) {
    assert.instance(err, HttpError);
    return err as HttpError;
  }
  throw new Error('expected an HttpError');
}

const dst = suite('ranges across DST');

for (const [tz, spring, fall] of [
  [NY, [2024, 3, 10], [2024, 11, 3]],
  [BERLIN, [2024, 3, 31], [2024, 10, 27]],
] as const) {
  dst(`${tz}: the spring-forward day is 23 h, the fall-back day 25 h, both hourly`, () =>
    inZone(tz, () => {
      const now = local(2024, 12, 1, 12);
      const ymd = (d: readonly number[]) => d.map((n, i) => String(n).padStart(i ? 2 : 4, '0')).join('-');
      const s = ymd(spring);
      const f = ymd(fall);
      const a = parseRange({ from: s, to: s }, 'all', now);
      assert.is(a.toMs - a.fromMs, 23 * H);
      assert.is(a.fromMs, local(spring[0], spring[1], spring[2]));
      assert.equal([a.from, a.to, a.bucket, a.kind, a.days], [s, s, 'hour', 'custom', 1]);
      const b = parseRange({ from: f, to: f }, 'all', now);
      assert.is(b.toMs - b.fromMs, 25 * H);
      assert.equal([b.from, b.to, b.bucket], [f, f, 'hour']);
    }),
  );

  dst(`${tz}: range=N counts calendar days across the change`, () =>
    inZone(tz, () => {
      const now = local(spring[0], spring[1], spring[2] + 2, 15, 30);
      const r = parseRange({ range: '3' }, 'days30', now);
      assert.is(r.fromMs, local(spring[0], spring[1], spring[2]));
      assert.is(r.toMs, local(spring[0], spring[1], spring[2] + 3));
      assert.is(r.toMs - r.fromMs, 71 * H);
      assert.equal([r.kind, r.days, r.bucket], ['days', 3, 'day']);
      assert.is(new Date(r.fromMs).getHours(), 0);
    }),
  );

  dst(`${tz}: today on the fall-back day, at midnight and one ms before the next`, () =>
    inZone(tz, () => {
      const midnight = local(fall[0], fall[1], fall[2]);
      const next = local(fall[0], fall[1], fall[2] + 1);
      for (const now of [midnight, next - 1]) {
        const r = parseRange({ range: 'today' }, 'days30', now);
        assert.equal([r.fromMs, r.toMs, r.bucket, r.kind], [midnight, next, 'hour', 'today']);
      }
      assert.is(parseRange({ range: 'today' }, 'days30', next).fromMs, next, 'midnight starts the new day');
    }),
  );
}

dst('the same request resolves to different instants in different zones', () => {
  const now = Date.UTC(2024, 5, 15, 12);
  const ny = inZone(NY, () => parseRange({ from: '2024-06-01', to: '2024-06-01' }, 'all', now));
  const be = inZone(BERLIN, () => parseRange({ from: '2024-06-01', to: '2024-06-01' }, 'all', now));
  assert.is(ny.fromMs - be.fromMs, 6 * H);
});

dst.run();

const r = suite('range parameters');

r('24h is a rolling window with hour buckets', () =>
  inZone(NY, () => {
    const now = local(2024, 3, 10, 12);
    const x = parseRange({ range: '24h' }, 'days30', now);
    assert.equal([x.fromMs, x.toMs, x.bucket, x.kind], [now - 24 * H, now + 1, 'hour', '24h']);
    assert.equal([x.from, x.to], ['2024-03-09', '2024-03-10']);
  }),
);

r('range=1 is a single day (hourly); large N is capped', () =>
  inZone(NY, () => {
    const now = local(2024, 5, 5, 9);
    const one = parseRange({ range: '1' }, 'days30', now);
    assert.equal([one.from, one.to, one.bucket, one.days], ['2024-05-05', '2024-05-05', 'hour', 1]);
    assert.is(parseRange({ range: '999999' }, 'days30', now).days, MAX_RANGE_DAYS);
  }),
);

r('calendar periods: this week from Monday, this month from the 1st, last month whole, all; across a year end', () =>
  inZone(NY, () => {
    const now = local(2024, 1, 3, 9); // a Wednesday
    const span = (range: string) => {
      const x = parseRange({ range }, 'days30', now);
      return [x.from, x.to, x.kind, x.days];
    };
    assert.equal(span('week'), ['2024-01-01', '2024-01-03', 'week', 3]);
    assert.equal(span('month'), ['2024-01-01', '2024-01-03', 'month', 3]);
    assert.equal(span('lastmonth'), ['2023-12-01', '2023-12-31', 'lastmonth', 31]);
    const sunday = parseRange({ range: 'week' }, 'days30', local(2024, 3, 10, 12)); // DST starts that Sunday
    assert.equal([sunday.from, sunday.to, sunday.days], ['2024-03-04', '2024-03-10', 7]);
    const all = parseRange({ range: 'all' }, 'days30', now);
    assert.equal([all.fromMs, all.kind], [0, 'all']);
    assert.throws(() => parseRange({ range: 'fortnight' }, 'days30', now));
  }),
);

r('defaults: 30 days for overview/insights, all time for the others', () =>
  inZone(NY, () => {
    const now = local(2024, 5, 5, 9);
    const d = parseRange({}, 'days30', now);
    assert.equal([d.from, d.to, d.days, d.kind], ['2024-04-06', '2024-05-05', 30, 'days']);
    const a = parseRange({}, 'all', now);
    assert.equal([a.fromMs, a.toMs, a.kind, a.bucket], [0, local(2024, 5, 6), 'all', 'day']);
  }),
);

r('from/to: swapped when reversed, a future date becomes today, wins over range', () =>
  inZone(NY, () => {
    const now = local(2024, 5, 5, 9);
    const s = parseRange({ from: '2024-05-03', to: '2024-05-01', range: 'today' }, 'days30', now);
    assert.equal([s.from, s.to, s.days, s.kind, s.bucket], ['2024-05-01', '2024-05-03', 3, 'custom', 'day']);
    const f = parseRange({ from: '2024-05-04', to: '2030-01-01' }, 'days30', now);
    assert.equal([f.from, f.to, f.toMs], ['2024-05-04', '2024-05-05', local(2024, 5, 6)]);
    const both = parseRange({ from: '2031-01-01', to: '2030-01-01' }, 'days30', now);
    assert.equal([both.from, both.to], ['2024-05-05', '2024-05-05']);
  }),
);

r('400 Invalid date range: malformed dates, only one bound, bad range values', () => {
  const now = Date.UTC(2024, 4, 5);
  for (const q of [
    { from: '2024-05-01' }, { to: '2024-05-01' }, { from: '2024-5-01', to: '2024-05-02' }, { from: '2024-02-30', to: '2024-03-01' },
    { from: '2024-13-01', to: '2024-12-01' }, { from: 'yesterday', to: '2024-05-01' }, { from: '', to: '' },
    { range: '0' }, { range: '-3' }, { range: '1.5' }, { range: 'weeks' }, { range: 'All' },
  ]) {
    const e = httpError(() => parseRange(q, 'days30', now));
    assert.equal([e.status, e.message], [400, 'Invalid date range'], JSON.stringify(q));
  }
});

r('project pattern', () => {
  assert.is(parseProject({ project: '-home-me-my_app.v2' }), '-home-me-my_app.v2');
  assert.is(parseProject({}), null);
  for (const bad of ['a/b', '../x', 'a b', 'ü', '%2e']) {
    const e = httpError(() => parseProject({ project: bad }));
    assert.equal([e.status, e.message], [400, 'Invalid project']);
  }
});

r('cache keys: a rolling 24h window keeps one key; days differ by dates', () => {
  const now = Date.UTC(2024, 4, 5, 12);
  assert.is(rangeKey(parseRange({ range: '24h' }, 'all', now)), rangeKey(parseRange({ range: '24h' }, 'all', now + 5000)));
  assert.is.not(rangeKey(parseRange({ range: '3' }, 'all', now)), rangeKey(parseRange({ range: '4' }, 'all', now)));
});

r.run();
