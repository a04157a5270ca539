// Issue 36: the active block is measured against the finished blocks of the last 30 days whatever the range, so its
// yardstick no longer changes between Today ("above your most expensive block ($2.95)") and 30d ("… average block").
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Insights } from '../../src/shared/api-types.ts';
import { usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { ingestFile, sessionRole, startServer, type TestServer } from '../helpers/server.ts';

const PROJECT = '-home-dev-blocks';
const DAY = 86_400_000;
let s: TestServer;
const t = suite('block yardstick');
t.before(async () => {
  s = await startServer();
  const now = Date.now();
  // [ago, dollars]: the active block (a minute ago), a block yesterday, one 10 days ago, one 40 days ago (too old).
  const lines = ([[60_000, 1], [DAY, 10], [10 * DAY, 2], [40 * DAY, 500]] as const).map(([ago, usd], i) =>
    usageLine({ sessionId: 's1', messageId: `m${i}`, requestId: `r${i}`, timestamp: new Date(now - ago).toISOString(), extra: { costUSD: usd } }));
  const file = writeJsonl(path.join(s.config.projectsDirs[0]!, PROJECT, 's1.jsonl'), lines);
  ingestFile(s.index, file, sessionRole(PROJECT, 's1'));
});
t.after(() => s.close());

t('the same yardstick on every range: the last 30 days\' finished blocks', async () => {
  const yard = async (range: string) => (await s.request(`/api/insights?range=${range}`)).json<Insights>();
  const today = await yard('today');
  assert.ok(today.activeBlock?.active, 'an active block');
  assert.equal(today.blockYardstick, { average: 6, max: 10, blocks: 2 });
  assert.equal((await yard('30')).blockYardstick, today.blockYardstick);
  assert.equal((await yard('all')).blockYardstick, today.blockYardstick);
  assert.equal((await yard('365')).blockYardstick, today.blockYardstick);
  // A range that ends before now: the active block and its yardstick are still now's.
  const day = (ago: number): string => new Date(Date.now() - ago * DAY).toISOString().slice(0, 10);
  const past = (await s.request(`/api/insights?from=${day(12)}&to=${day(8)}`)).json<Insights>();
  assert.equal([past.blocks.length, past.activeBlock?.start, past.blockYardstick], [1, today.activeBlock!.start, today.blockYardstick]);
});

t.run();
