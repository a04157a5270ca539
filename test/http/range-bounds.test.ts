// Issue 37 finding 6 against a real server over a real index: a custom range counts at most 3,650 days and its series
// starts at the first entry, long series come by week or month from the server, and no GET that reads the index
// answers a cross-site request (any page's <img> could send it; none could read the answer).
process.env.TZ = 'UTC';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Overview, ProjectSessions } from '../../src/shared/api-types.ts';
import { usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { ingestFile, sessionRole, startServer, type TestServer } from '../helpers/server.ts';

const NOW = Date.UTC(2026, 0, 10, 12);
const PROJECT = '-home-dev-proj';
let s: TestServer;

const at = (iso: string, id: string) => usageLine({ sessionId: 'sess-1', messageId: id, requestId: `r-${id}`, timestamp: iso, output: 100 });

const Bounds = suite('custom ranges and long series');
Bounds.before(async () => {
  s = await startServer({ now: () => NOW, cacheClock: () => NOW });
  const file = writeJsonl(path.join(s.config.projectsDirs[0]!, PROJECT, 'sess-1.jsonl'), [
    at('2019-05-20T10:00:00.000Z', 'old'),
    at('2025-12-30T10:00:00.000Z', 'dec'),
    at('2026-01-09T10:00:00.000Z', 'jan'),
  ]);
  ingestFile(s.index, file, sessionRole(PROJECT, 'sess-1'));
});
Bounds.after(() => s.close());

Bounds('from=0000-01-01&to=9999-12-31 counts the 3,650 days up to today, by month, from the first entry', async () => {
  const r = await s.request('/api/overview?from=0000-01-01&to=9999-12-31');
  assert.is(r.status, 200);
  const o = r.json<Overview>();
  assert.equal([o.range.kind, o.range.from, o.range.to, o.range.days], ['custom', '2016-01-14', '2026-01-10', 3650]);
  assert.is(o.costSeries.bucket, 'month');
  assert.is(o.costSeries.points[0]!.key, '2019-05', 'the series starts at the first entry, not at the range start');
  assert.is(o.costSeries.points.at(-1)!.key, '2026-01');
  assert.is(o.costSeries.points.length, 81);
  assert.is(o.costSeries.points[0]!.start, Date.UTC(2019, 4, 1));
  const sum = o.costSeries.points.reduce((a, p) => a + p.cost, 0);
  assert.ok(Math.abs(sum - o.totals.cost) < 1e-9, 'every entry is in a bucket');
  assert.ok(r.text.length < 40_000, `${r.text.length} bytes`);
});

Bounds('a range before the first entry answers its days, empty', async () => {
  const o = (await s.request('/api/overview?from=2019-05-01&to=2019-05-10')).json<Overview>();
  assert.equal([o.range.from, o.range.to], ['2019-05-01', '2019-05-10']);
  assert.is(o.totals.messages, 0);
  assert.is(o.costSeries.bucket, 'day');
  assert.is(o.costSeries.points.length, 10);
});

Bounds('a custom range after the first entry keeps its own start', async () => {
  const o = (await s.request('/api/overview?from=2025-12-01&to=2026-01-10')).json<Overview>();
  assert.is(o.costSeries.points[0]!.key, '2025-12-01');
  assert.is(o.costSeries.points.length, 41);
  assert.is(o.totals.messages, 2);
});

Bounds('over 90 days by week (Mondays), over two years by month; all time too; a project\'s series as well', async () => {
  const year = (await s.request('/api/overview?range=365')).json<Overview>();
  assert.is(year.costSeries.bucket, 'week');
  assert.ok(year.costSeries.points.every((p) => new Date(p.start).getUTCDay() === 1), 'weeks start on Monday');
  assert.is(year.costSeries.points.find((p) => p.cost > 0)!.key, '2025-12-29', 'Dec 30 is in the week of Monday Dec 29');
  const ninety = (await s.request('/api/overview?range=90')).json<Overview>();
  assert.equal([ninety.costSeries.bucket, ninety.costSeries.points.length], ['day', 90]);
  const all = (await s.request('/api/overview?range=all')).json<Overview>();
  assert.is(all.costSeries.bucket, 'month');
  assert.is(all.costSeries.points[0]!.key, '2019-05');
  const sessions = (await s.request(`/api/projects/${PROJECT}/sessions?range=3650`)).json<ProjectSessions>();
  assert.is(sessions.costSeries.bucket, 'month');
  assert.is(sessions.costSeries.points.length, 121, 'the months the 3,650 days touch');
});
Bounds.run();

const CrossSite = suite('data GETs refuse cross-site requests');
CrossSite.before(async () => {
  s = await startServer({ now: () => NOW, cacheClock: () => NOW });
  const file = writeJsonl(path.join(s.config.projectsDirs[0]!, PROJECT, 'sess-1.jsonl'), [at('2026-01-09T10:00:00.000Z', 'jan')]);
  ingestFile(s.index, file, sessionRole(PROJECT, 'sess-1'));
});
CrossSite.after(() => s.close());

const READS = [
  '/api/overview?from=0000-01-01&to=9999-12-31', '/api/insights', '/api/projects', '/api/monthly', `/api/projects/${PROJECT}/sessions`,
  '/api/sessions/sess-1', `/api/repository?id=${encodeURIComponent('/nowhere')}`, '/api/budgets', '/api/retention', '/api/limits', '/api/pace',
];

CrossSite('Sec-Fetch-Site: cross-site is a plain-text 403 on GET and HEAD of every route that reads the index', async () => {
  for (const route of READS) {
    for (const method of ['GET', 'HEAD']) {
      const r = await s.request(route, { method, headers: { 'sec-fetch-site': 'cross-site' } });
      assert.is(r.status, 403, `${method} ${route}`);
      if (method === 'GET') assert.match(r.text, 'Forbidden: cross-site request');
    }
  }
});

CrossSite('same-origin, same-site (a hub on another loopback port), none and no header still answer', async () => {
  for (const route of READS) {
    for (const site of ['same-origin', 'same-site', 'none', undefined]) {
      const r = await s.request(route, { headers: site ? { 'sec-fetch-site': site } : {} });
      assert.ok(r.status !== 403, `${route} with ${site ?? 'no header'}: ${r.status}`);
    }
  }
});
CrossSite.run();
