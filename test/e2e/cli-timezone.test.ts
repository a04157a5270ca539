// --timezone other than the zone the index was built in, where a local midnight cuts UTC hours (Asia/Kolkata,
// +5:30): entries 20 minutes either side of two local midnights, in an index built in UTC. Each report puts every
// entry on the local day of its own timestamp, as a server in that zone does: the days and totals of `daily`, and
// a one-day `session` report, whose range starts and ends in the middle of a UTC hour.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Overview } from '../../src/shared/api-types.ts';
import { getJson, startAppServer, untilIndexed } from '../helpers/app-server.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { cli } from '../helpers/cli.ts';
import { tempDir, writeJsonl } from '../helpers/jsonl.ts';
import { near } from '../helpers/near.ts';

const ZONE = 'Asia/Kolkata';
const DAY = '2026-11-10';
// Local midnight of DAY in Kolkata: 18:30 UTC the day before.
const MIDNIGHT = Date.UTC(2026, 10, 9, 18, 30);
const MIN = 60_000;
const { dir } = tempDir('cli-timezone-');
const root = path.join(dir, 'cfg');
const SID = '3c9e1f20-6b4d-4e8a-9d21-7a5b0c3e2f41';
const line = (id: string, ts: number, output: number) => ({
  type: 'assistant', timestamp: new Date(ts).toISOString(), sessionId: SID, requestId: `req-${id}`, cwd: '/home/u/proj',
  message: { id: `msg-${id}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 1000, output_tokens: output } },
});
writeJsonl(path.join(root, 'projects', '-home-u-proj', `${SID}.jsonl`), [
  line('before', MIDNIGHT - 20 * MIN, 200_000),
  line('after', MIDNIGHT + 20 * MIN, 100_000),
  line('noon', MIDNIGHT + 12 * 60 * MIN, 10_000),
  line('late', MIDNIGHT + 24 * 60 * MIN - 20 * MIN, 40_000),
  line('next', MIDNIGHT + 24 * 60 * MIN + 20 * MIN, 300_000),
]);
const flags = ['--dir', root, '--index', path.join(dir, 'index.db'), '--offline', '--prices', PRICES_FILE];

interface Day { date: string; totalCost: number; outputTokens: number }
const t = suite('reports in another zone');

t(`daily and session --timezone ${ZONE} over an index built in UTC: each entry on its own local day`, async () => {
  const update = await cli(['update', ...flags], { env: { TZ: 'UTC' } });
  assert.is(update.code, 0, update.stderr);
  const server = await startAppServer({ dir: root, env: { TZ: ZONE } });
  try {
    await untilIndexed(server, 20_000);
    const r = await cli(['daily', '--json', ...flags, '--timezone', ZONE], { env: { TZ: 'UTC' } });
    assert.is(r.code, 0, r.stderr);
    const daily = JSON.parse(r.stdout) as { daily: Day[]; totals: { totalCost: number; outputTokens: number } };
    assert.equal(daily.daily.map((d) => [d.date, d.outputTokens]), [['2026-11-09', 200_000], [DAY, 150_000], ['2026-11-11', 300_000]]);
    const ov = await getJson<Overview>(server, '/api/overview?from=2026-11-09&to=2026-11-11');
    near(daily.daily.map((d) => d.totalCost), ov.costSeries.points.map((p) => p.cost));
    near(daily.totals.totalCost, ov.totals.cost);

    const one = await cli(['session', '--json', ...flags, '--timezone', ZONE, '--since', DAY, '--until', DAY], { env: { TZ: 'UTC' } });
    assert.is(one.code, 0, one.stderr);
    const s = JSON.parse(one.stdout) as { sessions: { outputTokens: number; totalCost: number }[]; totals: { totalCost: number } };
    const dayOv = await getJson<Overview>(server, `/api/overview?from=${DAY}&to=${DAY}`);
    assert.equal(s.sessions.map((x) => x.outputTokens), [150_000]);
    near([s.sessions[0]!.totalCost, s.totals.totalCost], [dayOv.totals.cost, dayOv.totals.cost]);
  } finally {
    await server.close();
  }
});

t.run();
