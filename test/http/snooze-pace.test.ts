// A budget alert snoozed until its period ends, kept in the index (a server reopened on the file still has it, the next
// period does not), and GET /api/pace: the strip's month end is the monthly budget's projection, one number for both.
process.env.TZ = 'UTC';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Budgets, PeriodPace } from '../../src/shared/api-types.ts';
import { usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { ingestFile, sessionRole, startServer, type TestServer } from '../helpers/server.ts';

const PROJECT = '-home-dev-snooze';
const NOW = Date.UTC(2026, 0, 14, 12); // Wednesday 14 January 2026, noon
let clock = NOW;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cost-snooze-'));
const indexFile = path.join(tmp, 'index.db');
let s: TestServer;

const t = suite('snooze and pace');
t.before(async () => {
  s = await startServer({ now: () => clock, indexFile });
  [['2026-01-14T10:00:00.000Z', 6], ['2026-01-12T09:00:00.000Z', 40]].forEach(([ts, usd], i) => {
    const file = writeJsonl(path.join(s.config.projectsDirs[0]!, PROJECT, `s${i}.jsonl`), [
      usageLine({ sessionId: `s${i}`, messageId: `m${i}`, requestId: `r${i}`, timestamp: ts as string, cwd: '/home/dev/snooze', extra: { costUSD: usd } }),
    ]);
    ingestFile(s.index, file, sessionRole(PROJECT, `s${i}`));
  });
  const r = await s.request('/api/budgets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ period: 'monthly', amount: 30 }) });
  assert.is(r.status, 200, r.text);
});
t.after(async () => {
  await s?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const monthly = async (server: TestServer) => (await server.request('/api/budgets')).json<Budgets>().budgets.find((b) => b.period === 'monthly')!;

t('GET /api/pace: the month end the strip shows is the monthly budget\'s projection', async () => {
  const pace = (await s.request('/api/pace')).json<PeriodPace[]>();
  assert.equal(pace.map((p) => [p.period, p.from, p.to]), [['daily', '2026-01-14', '2026-01-14'], ['weekly', '2026-01-12', '2026-01-18'], ['monthly', '2026-01-01', '2026-01-31']]);
  const month = pace.find((p) => p.period === 'monthly')!;
  const budget = await monthly(s);
  assert.is(month.use, 46);
  assert.is(month.projected, budget.projected);
  assert.is(month.usualDay, 40 / 13);
  assert.is((await s.request('/api/pace?project=-home-dev-none')).json<PeriodPace[]>()[2]!.use, 0);
});

t('a snooze is kept in the index until the period ends', async () => {
  assert.is((await monthly(s)).snoozed, false);
  const r = await s.request('/api/budgets/snooze?period=monthly', { method: 'POST' });
  assert.is(r.status, 200, r.text);
  assert.is(r.json<Budgets>().budgets.find((b) => b.period === 'monthly')!.snoozed, true);
  assert.is((await s.request('/api/budgets/snooze?period=weekly', { method: 'POST' })).status, 404, 'no weekly budget');
  assert.is((await s.request('/api/budgets/snooze?period=monthly', { method: 'POST', headers: { host: `localhost:${s.port}`, origin: 'https://evil.example' } })).status, 403);
  // Another server on the same file: the snooze was written to the index, not kept in memory.
  await s.close();
  s = await startServer({ now: () => clock, indexFile });
  assert.is((await monthly(s)).snoozed, true);
  // February: a new period, a new alert.
  clock = Date.UTC(2026, 1, 2, 12);
  const feb = await monthly(s);
  assert.equal([feb.from, feb.snoozed], ['2026-02-01', false]);
});

t.run();
