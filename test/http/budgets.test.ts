// Budgets over a real server and a real index (in memory, filled through the real parser), in UTC: GET with the use,
// the period's one projection (a usual day for each day left, and the part of one today has ahead) and the state; POST and DELETE behind the same guards as POST /api/refresh; every bad
// value a 400 that changes nothing; one alert log line per budget and period.
process.env.TZ = 'UTC';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Budgets } from '../../src/shared/api-types.ts';
import { MAX_BUDGET_BODY } from '../../src/http/budget-params.ts';
import { usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { ingestFile, sessionRole, startServer, type TestServer } from '../helpers/server.ts';

const PROJECT = '-home-dev-budget';
const OTHER = '-home-dev-other';
/** Wednesday 14 January 2026, noon. */
const NOW = Date.UTC(2026, 0, 14, 12);
const HOUR = 3_600_000;
let clock = NOW;
let s: TestServer;

/** [project, ISO time, dollars]: today, Monday this week, last week (this month), last month. */
const ENTRIES: [string, string, number][] = [
  [PROJECT, '2026-01-14T10:00:00.000Z', 6],
  [PROJECT, '2026-01-12T09:00:00.000Z', 10],
  [OTHER, '2026-01-05T09:00:00.000Z', 20],
  [PROJECT, '2025-12-31T09:00:00.000Z', 100],
];

const JSON_HEADERS = { 'content-type': 'application/json' };
const post = (body: string, headers: Record<string, string> = JSON_HEADERS) => s.request('/api/budgets', { method: 'POST', headers, body });
const list = async () => (await s.request('/api/budgets')).json<Budgets>();
const cents = (n: number) => Math.round(n * 100) / 100;

const t = suite('budgets');
t.before(async () => {
  s = await startServer({ now: () => clock });
  ENTRIES.forEach(([project, ts, usd], i) => {
    const file = writeJsonl(path.join(s.config.projectsDirs[0]!, project, `s${i}.jsonl`), [
      usageLine({ sessionId: `s${i}`, messageId: `m${i}`, requestId: `r${i}`, timestamp: ts, cwd: project === PROJECT ? '/home/dev/budget' : '/home/dev/other', extra: { costUSD: usd } }),
    ]);
    ingestFile(s.index, file, sessionRole(project, `s${i}`));
  });
});
t.after(() => s.close());
t.before.each(() => {
  clock = NOW;
});

t('no budgets at first; a writer says it can change them', async () => {
  const r = await s.request('/api/budgets');
  assert.is(r.status, 200);
  assert.is(r.headers['cache-control'], 'no-store');
  assert.equal(r.json<Budgets>(), { writable: true, budgets: [] });
});

t('POST sets budgets; GET answers the use, the period\'s projection and the state of each', async () => {
  for (const body of [
    { period: 'monthly', project: null, amount: 30 },
    { period: 'daily', project: PROJECT, amount: 14 },
    { period: 'weekly', project: null, amount: 30 },
    { period: 'daily', amount: 20 },
  ]) {
    const r = await post(JSON.stringify(body));
    assert.is(r.status, 200, r.text);
  }
  const b = await list();
  // Issue 36: at noon half of a usual day is still ahead. A day has no ended day of its own: a usual day is the 7 days
  // before ($10 on the 12th); the week's is its ended days' (Monday $10, Tuesday $0), the month's its 13 ended days'.
  assert.equal(b.budgets.map((x) => [x.period, x.project, x.amount, x.from, x.to, x.end, x.use, cents(x.projected), x.state]), [
    ['daily', null, 20, '2026-01-14', '2026-01-14', '2026-01-15T00:00:00.000Z', 6, cents(6 + (10 / 7) * 0.5), 'ok'],
    ['daily', PROJECT, 14, '2026-01-14', '2026-01-14', '2026-01-15T00:00:00.000Z', 6, cents(6 + (10 / 7) * 0.5), 'ok'],
    // Monday 12 to Sunday 18: $16 so far, a usual day of $5 for 4.5 days: on pace to pass $30, nothing spent over it.
    ['weekly', null, 30, '2026-01-12', '2026-01-18', '2026-01-19T00:00:00.000Z', 16, 16 + 5 * 4.5, 'warn'],
    // January: $36 so far (December's $100 is not in it): passed already, the only red.
    ['monthly', null, 30, '2026-01-01', '2026-01-31', '2026-02-01T00:00:00.000Z', 36, cents(36 + (30 / 13) * 17.5), 'over'],
  ]);
  assert.equal(b.budgets.map((x) => x.projectName), [null, 'budget', null, null]);
  // Each change checked the alerts: the monthly one (set first, spent over), then the weekly one (on pace), once each.
  assert.equal(s.logs.filter((l) => l.startsWith('budget alert')), [
    'budget alert: the monthly budget of $30.00 for every project (2026-01-01 to 2026-01-31) was passed: $36.00 so far',
    'budget alert: the weekly budget of $30.00 for every project (2026-01-12 to 2026-01-18) is projected to be passed: $38.50 by the end of the week, $16.00 so far',
  ]);
  assert.equal(b.budgets.map((x) => x.alerted), [false, false, true, true]);
});

t('an alert fires once per budget and period: again when the next period is over too', async () => {
  const alerts = () => s.logs.filter((l) => l.startsWith('budget alert')).length;
  const before = alerts();
  s.budgets.check(NOW + HOUR);
  assert.is(alerts(), before, 'the same periods: nothing new');
  // Re-saving the same amount keeps the alert; a new amount may alert again in the same period.
  assert.is((await post(JSON.stringify({ period: 'weekly', project: null, amount: 30 }))).status, 200);
  assert.is(alerts(), before);
  assert.is((await post(JSON.stringify({ period: 'weekly', project: null, amount: 31 }))).status, 200);
  assert.is(alerts(), before + 1);
  assert.match(s.logs.at(-1)!, /the weekly budget of \$31\.00/);
  // Thursday 08:00: the daily project budget is at $0 today, nothing to say; the same week and month stay alerted.
  clock = Date.UTC(2026, 0, 15, 8);
  s.budgets.check(clock);
  assert.is(alerts(), before + 1);
  const b = await list();
  // No usage yet today: today is a usual day's 16 hours ahead ($16 over the 7 days before); the week's alert stays
  // recorded for this week.
  assert.equal(b.budgets.map((x) => [x.period, x.project, x.use, cents(x.projected), x.state, x.alerted]), [
    ['daily', null, 0, cents((16 / 7) * (16 / 24)), 'ok', false],
    ['daily', PROJECT, 0, cents((16 / 7) * (16 / 24)), 'ok', false],
    ['weekly', null, 16, cents(16 + (16 / 3) * (3 + 16 / 24)), 'warn', true],
    ['monthly', null, 36, cents(36 + (36 / 14) * (16 + 16 / 24)), 'over', true],
  ]);
  // Monday 19: a new week; $50 today at 10:00 puts the weekly budget over again, and it alerts once more.
  clock = Date.UTC(2026, 0, 19, 10);
  const file = writeJsonl(path.join(s.config.projectsDirs[0]!, PROJECT, 'late.jsonl'), [
    usageLine({ sessionId: 'late', messageId: 'late', requestId: 'late', timestamp: '2026-01-19T09:00:00.000Z', cwd: '/home/dev/budget', extra: { costUSD: 50 } }),
  ]);
  ingestFile(s.index, file, sessionRole(PROJECT, 'late'));
  s.budgets.check(clock);
  assert.equal(s.logs.slice(-3).map((l) => /the (\w+) budget of (\S+) for (every project|project \w+) \((\S+)/.exec(l)?.slice(1)), [
    ['daily', '$20.00', 'every project', '2026-01-19'],
    ['daily', '$14.00', 'project budget', '2026-01-19'],
    ['weekly', '$31.00', 'every project', '2026-01-19'],
  ]);
  assert.is(alerts(), before + 4, s.logs.join('\n'));
  s.budgets.check(clock + HOUR);
  assert.is(alerts(), before + 4);
});

t('bad values answer 400 with a message and change nothing', async () => {
  const before = await list();
  const cases: [string, RegExp][] = [
    [JSON.stringify({ period: 'daily', amount: -5 }), /Invalid budget amount/],
    [JSON.stringify({ period: 'daily', amount: 0 }), /Invalid budget amount/],
    [JSON.stringify({ period: 'daily', amount: '12' }), /Invalid budget amount/],
    [JSON.stringify({ period: 'daily', amount: 'NaN' }), /Invalid budget amount/],
    [JSON.stringify({ period: 'daily', amount: null }), /Invalid budget amount/],
    ['{"period": "daily", "amount": NaN}', /must be JSON/],
    [JSON.stringify({ period: 'daily', amount: 1e300 }), /Invalid budget amount/],
    [JSON.stringify({ period: 'daily', amount: 2_000_000 }), /Invalid budget amount/],
    // Issue 37: below a cent is refused, with the bounds in the reason.
    [JSON.stringify({ period: 'daily', amount: 1e-300 }), /Invalid budget amount: a number of dollars from 0.01 to 1000000/],
    [JSON.stringify({ period: 'daily', amount: 0.009 }), /Invalid budget amount/],
    [JSON.stringify({ period: 'daily', amount: 1_000_000.01 }), /Invalid budget amount/],
    [JSON.stringify({ period: 'yearly', amount: 5 }), /Invalid budget period/],
    [JSON.stringify({ amount: 5 }), /Invalid budget period/],
    [JSON.stringify({ period: 'daily', project: 'nope-never-seen', amount: 5 }), /Unknown project: nope-never-seen/],
    [JSON.stringify({ period: 'daily', project: '../etc', amount: 5 }), /Invalid project/],
    [JSON.stringify({ period: 'daily', project: 7, amount: 5 }), /Invalid project/],
    [JSON.stringify([{ period: 'daily', amount: 5 }]), /must be JSON/],
    ['period=daily&amount=5', /must be JSON/],
    ['', /must be JSON/],
    [JSON.stringify({ period: 'daily', amount: 5, pad: 'x'.repeat(MAX_BUDGET_BODY) }), /too large/],
  ];
  for (const [body, message] of cases) {
    const r = await post(body);
    assert.is(r.status, 400, `${body.slice(0, 80)}: ${r.status} ${r.text}`);
    assert.match(r.json<{ error: string }>().error, message, body.slice(0, 80));
  }
  // A body too large sent in chunks (no Content-Length) is refused as well.
  const chunked = await s.request('/api/budgets', { method: 'POST', headers: { ...JSON_HEADERS, 'transfer-encoding': 'chunked' }, body: 'x'.repeat(MAX_BUDGET_BODY + 1) });
  assert.is(chunked.status, 400);
  for (const q of ['period=yearly', 'period=daily&project=..%2Fx', 'project=' + PROJECT]) {
    assert.is((await s.request(`/api/budgets?${q}`, { method: 'DELETE' })).status, 400, q);
  }
  assert.equal(await list(), before);
});

t('a cent is the smallest budget accepted', async () => {
  const before = await list();
  const r = await post(JSON.stringify({ period: 'monthly', project: PROJECT, amount: 0.01 }));
  assert.is(r.status, 200, r.text);
  assert.ok((await list()).budgets.some((b) => b.period === 'monthly' && b.project === PROJECT && b.amount === 0.01));
  assert.is((await s.request(`/api/budgets?period=monthly&project=${PROJECT}`, { method: 'DELETE' })).status, 200);
  assert.equal(await list(), before);
});

t('the guards of POST /api/refresh: another site, another Host or a cross-site fetch changes nothing', async () => {
  const before = await list();
  const body = JSON.stringify({ period: 'daily', amount: 1 });
  for (const headers of <Record<string, string>[]>[
    { origin: 'http://evil.example' },
    { origin: 'null' },
    { origin: `http://localhost:${s.port + 1}` },
    { 'sec-fetch-site': 'cross-site' },
    { host: 'evil.example' },
  ]) {
    const refresh = await s.request('/api/refresh', { method: 'POST', headers });
    const r = await post(body, { ...JSON_HEADERS, ...headers });
    assert.is(refresh.status, 403, JSON.stringify(headers));
    assert.is(r.status, 403, JSON.stringify(headers));
    assert.is((await s.request(`/api/budgets?period=monthly`, { method: 'DELETE', headers })).status, 403);
  }
  assert.equal(await list(), before);
  // The page's own origin passes.
  assert.is((await post(body, { ...JSON_HEADERS, origin: `http://localhost:${s.port}`, 'sec-fetch-site': 'same-origin' })).status, 200);
});

t('DELETE removes one budget (and its alert record); an unknown one is a 404', async () => {
  const r = await s.request(`/api/budgets?period=daily&project=${PROJECT}`, { method: 'DELETE' });
  assert.is(r.status, 200, r.text);
  assert.not.ok(r.json<Budgets>().budgets.some((b) => b.period === 'daily' && b.project === PROJECT));
  const again = await s.request(`/api/budgets?period=daily&project=${PROJECT}`, { method: 'DELETE' });
  assert.is(again.status, 404);
  assert.equal(again.json(), { error: 'No such budget' });
  const stored = s.index.queries.budgets(NOW).map((b) => `${b.period}:${b.project ?? '*'}`);
  assert.equal(stored, ['daily:*', 'weekly:*', 'monthly:*']);
});

t.run();
