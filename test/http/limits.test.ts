// GET /api/limits and POST /api/limits/settings on a real server over loopback: the thresholds and the plan kept in
// the index's settings, bad bodies refused with their reason (nothing changed), a cross-site write refused, a new
// threshold alerting at once (one log line), and the usage credits from the probe's last reading.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LimitsData } from '../../src/shared/api-types.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const H = 3_600_000;
let s: TestServer;
const t = suite('limit settings');

t.before(async () => {
  s = await startServer();
});
t.after(async () => {
  await s.close();
});

const post = (body: unknown, headers: Record<string, string> = {}) =>
  s.request('/api/limits/settings', { method: 'POST', headers: { host: `127.0.0.1:${s.port}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const limits = async () => (await s.request('/api/limits', { headers: { host: `127.0.0.1:${s.port}` } })).json<LimitsData>();

t('defaults: thresholds 75 and 90, no plan, no credits', async () => {
  const d = await limits();
  assert.equal(d.thresholds, [75, 90]);
  assert.is(d.plan, null);
  assert.is(d.credits, null);
  assert.equal(d.windows, []);
});

t('the plan and the thresholds are kept; bad values are refused with their reason', async () => {
  let r = await post({ plan: { plan: 'max5', monthlyPrice: 100 } });
  assert.is(r.status, 200, r.text);
  assert.equal(r.json<LimitsData>().plan, { plan: 'max5', monthlyPrice: 100 });
  for (const [body, why] of [
    [{ plan: { plan: 'max7', monthlyPrice: 100 } }, /Invalid plan/],
    [{ plan: { plan: 'pro', monthlyPrice: -1 } }, /Invalid monthly price/],
    [{ thresholds: [0, 90] }, /Invalid thresholds/],
    [{ thresholds: 'lots' }, /Invalid thresholds/],
    [{}, /Nothing to change/],
  ] as const) {
    r = await post(body);
    assert.is(r.status, 400, JSON.stringify(body));
    assert.match(r.text, why);
  }
  r = await post({ thresholds: [50, 80, 50] });
  assert.is(r.status, 200, r.text);
  const d = await limits();
  assert.equal(d.thresholds, [50, 80]);
  assert.equal(d.plan, { plan: 'max5', monthlyPrice: 100 });
  // An API plan costs nothing a month; null removes the plan.
  assert.equal((await post({ plan: { plan: 'api', monthlyPrice: 30 } })).json<LimitsData>().plan, { plan: 'api', monthlyPrice: 0 });
  assert.is((await post({ plan: null })).json<LimitsData>().plan, null);
});

t('a cross-site write is refused', async () => {
  const r = await post({ thresholds: [10] }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
  assert.is(r.status, 403);
  assert.equal((await limits()).thresholds, [50, 80]);
});

t('a lower threshold alerts at once, logged once; the probe\'s credits are shown', async () => {
  const now = Date.now();
  s.index.addLimitReadings([
    { window: 'seven_day', usedPercent: 60, resetsAt: now + 24 * H, observedAt: now - H, source: 'probe', machine: 'm', amount: null },
    { window: 'extra_usage', usedPercent: 24.68, resetsAt: null, observedAt: now - H, source: 'probe', machine: 'm', amount: 12.34 },
  ]);
  assert.is((await post({ thresholds: [55] })).status, 200);
  assert.is((await post({ thresholds: [55] })).status, 200);
  assert.is(s.logs.filter((l) => /limit alert: the seven_day window reached 55%/.test(l)).length, 1, s.logs.join('\n'));
  const d = await limits();
  assert.equal(d.alerts.map((a) => [a.window, a.kind, a.logged]), [['seven_day', '55', true]]);
  assert.equal(d.credits, { amount: 12.34, percent: 24.68, observedAt: new Date(now - H).toISOString() });
});

t.run();
