// Budgets across real server processes on one index file: the writer saves them and logs an alert once; a second
// server on the same file (a reader, ARCHITECTURE.md "One writer") lists them but answers a change with a 409 that says
// why, and logs nothing; when the writer stops it takes over and can change them; a restart keeps every budget and
// never logs an alert of the same period again. Needs `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Budgets } from '../../src/shared/api-types.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { waitFor } from '../helpers/wait.ts';

const work = tempDir('cost-budgets-process-');
const indexFile = path.join(work.dir, 'index.db');
// $5 a few minutes ago: today (UTC) for any budget period.
writeJsonl(path.join(work.dir, 'projects', '-home-dev-spend', 's1.jsonl'), [
  usageLine({ sessionId: 's1', messageId: 'm1', requestId: 'r1', timestamp: new Date(Date.now() - 60_000).toISOString(), extra: { costUSD: 5 } }),
]);

const start = (): Promise<AppServer> => startAppServer({ dir: work.dir, indexFile, env: { TZ: 'UTC' }, timeoutMs: 30_000 });
const alerts = (s: AppServer) => s.output().split('\n').filter((l) => l.includes('budget alert:'));
const change = (s: AppServer, method: string, body?: unknown, query = '') =>
  fetch(`${s.url}/api/budgets${query}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

const t = suite('budgets across processes');
t.after(() => work.cleanup());

t('the writer saves and alerts; a reader refuses changes with a reason; a take-over and a restart keep them', async () => {
  const a = await start();
  let b: AppServer | null = null;
  let c: AppServer | null = null;
  try {
    await untilIndexed(a, 20_000);
    const saved = await change(a, 'POST', { period: 'daily', project: null, amount: 1 });
    assert.is(saved.status, 200, await saved.clone().text());
    assert.equal(alerts(a).length, 1, a.output());
    assert.match(alerts(a)[0]!, /the daily budget of \$1\.00 for every project \(\S+ to \S+\) was passed: \$5\.00 so far/);

    b = await start();
    await waitFor(() => b!.output().includes('serving it read-only'), 'the second server to read', 10_000);
    const listed = await getJson<Budgets>(b, '/api/budgets');
    assert.is(listed.writable, false);
    assert.equal(listed.budgets.map((x) => [x.period, x.amount, x.use, x.state, x.alerted]), [['daily', 1, 5, 'over', true]]);
    for (const [method, body, query] of [['POST', { period: 'weekly', amount: 3 }, ''], ['DELETE', undefined, '?period=daily']] as const) {
      const refused = await change(b, method, body, query);
      assert.is(refused.status, 409, method);
      assert.match(((await refused.json()) as { error: string }).error, /cannot be changed here: this server reads an index that another process writes \(pid \d+/);
    }
    assert.equal((await getJson<Budgets>(a, '/api/budgets')).budgets.length, 1, 'nothing changed');

    // The writer stops: the reader takes over and may change budgets; the daily alert is not logged again.
    await a.close();
    await waitFor(async () => (await getJson<Budgets>(b!, '/api/budgets')).writable, 'the take-over', 15_000);
    assert.is((await change(b, 'POST', { period: 'weekly', amount: 3 })).status, 200);
    assert.equal(alerts(b).map((l) => /the (\w+) budget/.exec(l)?.[1]), ['weekly'], b.output());
    await b.close();
    b = null;

    // A restart: every budget is there, alerted; a change checks every budget and logs only the new one.
    c = await start();
    const kept = await getJson<Budgets>(c, '/api/budgets');
    assert.equal(kept.budgets.map((x) => [x.period, x.amount, x.alerted]), [['daily', 1, true], ['weekly', 3, true]]);
    assert.is((await change(c, 'POST', { period: 'monthly', amount: 4 })).status, 200);
    assert.equal(alerts(c).map((l) => /the (\w+) budget/.exec(l)?.[1]), ['monthly'], c.output());
    assert.is((await change(c, 'DELETE', undefined, '?period=daily')).status, 200);
    assert.equal((await getJson<Budgets>(c, '/api/budgets')).budgets.map((x) => x.period), ['weekly', 'monthly']);
  } finally {
    await Promise.all([a.close(), b?.close(), c?.close()]);
  }
  assert.ok(fs.existsSync(indexFile));
});

t.run();
