// The command line's reads (queries/reports.ts) against the dashboard's on an index where the order of a sum shows:
// many project folders, two models, main and subagent rows with costs of many digits on every day. A report's day
// and its totals must be the overview's point and totals to the last bit, so they must read the same rollups and
// fold them in the same order. And with TZ naming the zone of the local rollups, no Intl zone lookup is made.
process.env.TZ = 'Europe/Berlin';

import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRange } from '../../src/http/params.ts';
import { openIndex, openIndexReader } from '../../src/index-db/index.ts';
import type { FileRole } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { sequence } from '../helpers/sequence.ts';

const { dir } = tempDir('index-reports-');
const file = path.join(dir, 'r.db');
const DAY = 86_400_000;
const START = Date.UTC(2026, 9, 1, 6);
const NOW = START + 20 * DAY;
const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-5-20251101'];

const next = sequence(7);

const idx = openIndex(file, { log: () => {} });
idx.setPrices(PriceTable.builtin());
for (let p = 0; p < 30; p++) {
  const project = `-home-u-p${p}`;
  const role = (agentId: string | null): FileRole => ({ project, session: `s${p}`, agentId, agentType: null, agentDescription: null });
  for (const agent of [null, `a${p}`]) {
    const rows = [];
    for (let d = 0; d < 18; d++) {
      for (const [m, model] of MODELS.entries()) {
        rows.push({
          ts: START + d * DAY + (p * 97 + m * 13) * 60_000, messageId: `m${p}-${agent}-${d}-${m}`, requestId: `r${p}-${agent}-${d}-${m}`, model,
          input: 1 + next(99_991), output: 1 + next(9_973), cacheRead: next(999_983), cacheCreate: next(99_989), sidechain: agent !== null,
        });
      }
    }
    const f = agent ? path.join(dir, 'projects', project, `s${p}`, 'subagents', `agent-${agent}.jsonl`) : path.join(dir, 'projects', project, `s${p}.jsonl`);
    idx.applyBatch(batchOf(f, rows), role(agent), rows.length * 100, 1);
  }
}
idx.close();

const t = suite('reports read the dashboard\'s rollups');
const reader = openIndexReader(file);

for (const [what, q] of [['all time', {}], ['a range before the newest day', { from: '2026-10-03', to: '2026-10-11' }]] as const) {
  t(`${what}: every day and the totals are the overview's, to the last bit`, () => {
    const range = parseRange(q, 'all', NOW);
    const days = reader.reports.days(range, null);
    assert.ok(days.length >= 9, 'days with usage');
    const shown = parseRange({ from: days[0]!.day, to: days.at(-1)!.day }, 'all', NOW);
    const ov = reader.queries.overview({ range: shown, project: null, now: NOW });
    const points = new Map(ov.costSeries.points.map((p) => [p.key, p.cost]));
    for (const d of days) assert.is(d.totals.cost, points.get(d.day), d.day);
    const totals = reader.reports.totals(shown, null);
    assert.is(totals.cost, ov.totals.cost, 'total cost');
    assert.is(totals.totalTokens, ov.totals.totalTokens, 'total tokens');
  });
}

t('one project: its days and totals are its overview\'s', () => {
  const range = parseRange({}, 'all', NOW);
  const days = reader.reports.days(range, '-home-u-p3');
  const shown = parseRange({ from: days[0]!.day, to: days.at(-1)!.day }, 'all', NOW);
  const ov = reader.queries.overview({ range: shown, project: '-home-u-p3', now: NOW });
  const points = new Map(ov.costSeries.points.map((p) => [p.key, p.cost]));
  for (const d of days) assert.is(d.totals.cost, points.get(d.day), d.day);
  assert.is(reader.reports.totals(shown, '-home-u-p3').cost, ov.totals.cost);
});

t('TZ naming the rollups\' zone: days and totals without an Intl zone lookup; another TZ still asks Intl', () => {
  const expected = reader.reports.days(parseRange({}, 'all', NOW), null);
  const fresh = openIndexReader(file);
  const original = Intl.DateTimeFormat;
  let lookups = 0;
  Intl.DateTimeFormat = function (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
    lookups++;
    return new original(...args);
  } as typeof Intl.DateTimeFormat;
  try {
    const range = parseRange({}, 'all', NOW);
    assert.equal(fresh.reports.days(range, null), expected);
    fresh.reports.totals(range, null);
    assert.is(lookups, 0, 'no Intl lookup while TZ names the zone');
    process.env.TZ = 'Asia/Kolkata';
    const other = fresh.reports.days(parseRange({}, 'all', NOW), null);
    assert.ok(lookups > 0, 'another TZ is resolved by Intl');
    assert.is(other.reduce((n, d) => n + d.totals.totalTokens, 0), expected.reduce((n, d) => n + d.totals.totalTokens, 0), 'the same usage on other days');
  } finally {
    Intl.DateTimeFormat = original;
    process.env.TZ = 'Europe/Berlin';
    fresh.close();
  }
});

t.after(() => reader.close());
t.run();
