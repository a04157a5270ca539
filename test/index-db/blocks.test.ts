// 5-hour blocks are a property of the whole history (decisions.md): a range selects the blocks that
// overlap it, with their whole bounds, cost and activity; the active block is the real one whatever
// the range; an entry exactly at start + 5 h stays in the block (strictly after starts a new one).
process.env.TZ = 'UTC';

import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Block } from '../../src/shared/api-types.ts';
import { parseRange, type Query } from '../../src/http/params.ts';
import { openIndex } from '../../src/index-db/index.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import type { IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { PRICES_FILE } from '../helpers/paths.ts';

const prices = PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')), 'fixture');
const HAIKU = 'claude-haiku-4-5-20251001'; // output $5 per M
const { dir } = tempDir('blocks-');
const HOUR = 3_600_000;
const near = (a: number, b: number, what: string): void => assert.ok(Math.abs(a - b) < 1e-12, `${what}: ${a} != ${b}`);

/** A fresh index of entries (ISO time or epoch ms, output tokens), each its own response, in project 'p' (and 'q' when asked). */
function build(entries: [string | number, number, string?][]): IndexDb {
  const idx = openIndex(path.join(dir, `${Math.random().toString(36).slice(2)}.db`), { log: () => {} });
  idx.setPrices(prices);
  for (const project of new Set(entries.map((e) => e[2] ?? 'p'))) {
    const rows = entries.filter((e) => (e[2] ?? 'p') === project).map(([at, output], i) => {
      const ts = typeof at === 'number' ? at : Date.parse(at);
      return { ts, messageId: `m${project}${i}`, requestId: `r${project}${i}`, model: HAIKU, output };
    });
    idx.applyBatch(batchOf(path.join(dir, 'projects', project, 's.jsonl'), rows), { project, session: `s-${project}`, agentId: null, agentType: null, agentDescription: null }, 100, 1);
  }
  return idx;
}

const insights = (idx: IndexDb, q: Query, now: number, project: string | null = null) =>
  idx.queries.insights({ range: parseRange(q, 'days30', now), project, now } satisfies QueryScope);
const shape = (b: Block): [string, string, number, boolean] => [b.start.slice(5, 16), b.lastActivity.slice(5, 19), b.messages, b.active];

const Blocks = suite('5-hour blocks');

Blocks('today shortly after midnight: the active block began yesterday and keeps its bounds, cost and time left', () => {
  // The case: 22:10 and 00:20, now 00:58. The real block is 22:00-03:00 at $0.018, 122 min left.
  const idx = build([['2026-11-17T22:10:00Z', 1800], ['2026-11-18T00:20:00Z', 1800]]);
  const now = Date.parse('2026-11-18T00:58:00Z');
  for (const q of [{ range: 'today' }, { range: '24h' }, { from: '2026-11-18', to: '2026-11-18' }, { range: '7' }] as Query[]) {
    const i = insights(idx, q, now);
    assert.equal(i.blocks.map(shape), [['11-17T22:00', '11-18T00:20:00', 2, true]], JSON.stringify(q));
    assert.is(i.blocks[0]!.end, '2026-11-18T03:00:00.000Z');
    near(i.blocks[0]!.cost, 0.018, 'block cost');
    assert.equal(i.activeBlock, i.blocks[0]);
    near(i.burnRate!.minutesLeft, 122, 'minutes left');
    near(i.burnRate!.costPerHour, 0.018 / (178 / 60), 'cost per hour since 22:00');
  }
  idx.close();
});

Blocks('a range without now lists only its own blocks, and the active block is still the real one', () => {
  const idx = build([['2026-11-10T09:30:00Z', 1000], ['2026-11-17T22:10:00Z', 1800], ['2026-11-18T00:20:00Z', 1800]]);
  const now = Date.parse('2026-11-18T00:58:00Z');
  const past = insights(idx, { from: '2026-11-10', to: '2026-11-10' }, now);
  assert.equal(past.blocks.map(shape), [['11-10T09:00', '11-10T09:30:00', 1, false]]);
  assert.is(past.blocksInRange, 1);
  assert.equal(shape(past.activeBlock!), ['11-17T22:00', '11-18T00:20:00', 2, true]);
  near(past.activeBlock!.cost, 0.018, 'active block cost');
  assert.equal(past.burnRate, past.activeBlock!.burn);
  const empty = insights(idx, { from: '2026-11-12', to: '2026-11-13' }, now);
  assert.equal(empty.blocks, []);
  assert.equal(shape(empty.activeBlock!), ['11-17T22:00', '11-18T00:20:00', 2, true]);
  // Yesterday's range overlaps the block too: the whole block, not its part before midnight.
  const yesterday = insights(idx, { from: '2026-11-17', to: '2026-11-17' }, now);
  assert.equal(yesterday.blocks.map(shape), [['11-17T22:00', '11-18T00:20:00', 2, true]]);
  near(yesterday.blocks[0]!.cost, 0.018, 'whole block');
  assert.is(insights(idx, { range: '7' }, Date.parse('2026-11-18T06:00:00Z')).activeBlock, null, 'ended');
  idx.close();
});

Blocks('an entry exactly at start + 5 h stays in the block; one a millisecond later starts the next', () => {
  const t = (s: string): number => Date.parse(`2026-11-16T${s}Z`);
  const now = t('23:00:00');
  // Alone in its hour: the whole hour row joins.
  const alone = build([[t('10:15:00'), 1000], [t('15:00:00'), 1000]]);
  assert.equal(insights(alone, { range: 'today' }, now).blocks.map(shape), [['11-16T10:00', '11-16T15:00:00', 2, false]]);
  alone.close();
  // With later entries in the same hour: entry by entry.
  const split = build([[t('10:15:00'), 1000], [t('15:00:00'), 2000], [t('15:00:00') + 1, 3000], [t('15:40:00'), 4000]]);
  const blocks = insights(split, { range: 'today' }, now).blocks;
  assert.equal(blocks.map(shape), [['11-16T15:00', '11-16T15:40:00', 2, false], ['11-16T10:00', '11-16T15:00:00', 2, false]]);
  near(blocks[1]!.cost, 0.015, 'first block: 10:15 and 15:00');
  near(blocks[0]!.cost, 0.035, 'second block');
  assert.is(blocks[0]!.end, '2026-11-16T20:00:00.000Z');
  split.close();
  // More than 5 h after the previous entry (and the block's end): a new block at that entry's hour.
  const gap = build([[t('10:15:00'), 1000], [t('15:15:00') + 1, 1000]]);
  assert.equal(insights(gap, { range: 'today' }, now).blocks.map(shape), [['11-16T15:00', '11-16T15:15:00', 1, false], ['11-16T10:00', '11-16T10:15:00', 1, false]]);
  gap.close();
});

Blocks('a range starting inside a long chain of blocks gets the blocks of the whole history (walks back past a week)', () => {
  // Every 4 h 7 min for 12 days, never a gap over 5 h: block starts depend on the first entry.
  const first = Date.parse('2026-11-01T00:05:00Z');
  const entries: [number, number][] = Array.from({ length: 70 }, (_, k) => [first + k * (4 * HOUR + 7 * 60_000), 1000 + k]);
  const idx = build(entries);
  const now = entries.at(-1)![0] + 30 * 60_000;
  const all = insights(idx, { range: '3650' }, now).blocks;
  assert.ok(all.length > 30, `${all.length} blocks`);
  for (const q of [{ range: 'today' }, { range: '24h' }, { range: '3' }, { from: '2026-11-08', to: '2026-11-09' }] as Query[]) {
    const range = parseRange(q, 'days30', now);
    const expected = all.filter((b) => Date.parse(b.start) < range.toMs && Date.parse(b.end) > range.fromMs);
    const got = insights(idx, q, now);
    assert.ok(expected.length > 0);
    assert.equal(got.blocks, expected, JSON.stringify(q));
    assert.equal(got.activeBlock, all[0]);
  }
  idx.close();
});

Blocks('a project filter makes the blocks of that project\'s entries', () => {
  const idx = build([['2026-11-18T08:10:00Z', 1000, 'p'], ['2026-11-18T12:30:00Z', 1000, 'q'], ['2026-11-18T13:20:00Z', 1000, 'p']]);
  const now = Date.parse('2026-11-18T14:00:00Z');
  assert.equal(insights(idx, { range: 'today' }, now).blocks.map(shape), [['11-18T13:00', '11-18T13:20:00', 1, true], ['11-18T08:00', '11-18T12:30:00', 2, false]]);
  assert.equal(insights(idx, { range: 'today' }, now, 'p').blocks.map(shape), [['11-18T13:00', '11-18T13:20:00', 1, true], ['11-18T08:00', '11-18T08:10:00', 1, false]]);
  assert.equal(insights(idx, { range: 'today' }, now, 'q').blocks.map(shape), [['11-18T12:00', '11-18T12:30:00', 1, true]]);
  idx.close();
});

Blocks('a block lists its models the dearest first, with what each cost, from hour rows and from its end hour alike', () => {
  // 10:00-15:00: haiku $0.005, sonnet $0.015, opus $0.025 in hour rows; at 15:00 sharp (the end hour, read entry by
  // entry, as 15:30 starts the next block) a little more haiku ($0.0005) that stays in the block. Alphabetical would read haiku, opus, sonnet.
  const idx = openIndex(path.join(dir, 'models.db'), { log: () => {} });
  idx.setPrices(prices);
  const at = (s: string) => Date.parse(`2026-11-18T${s}Z`);
  idx.applyBatch(batchOf(path.join(dir, 'projects', 'p', 's.jsonl'), [
    { ts: at('10:10:00'), messageId: 'h1', requestId: 'rh1', model: HAIKU, output: 1000 },
    { ts: at('11:10:00'), messageId: 'o1', requestId: 'ro1', model: 'claude-opus-4-5-20251101', output: 1000 },
    { ts: at('12:10:00'), messageId: 's1', requestId: 'rs1', model: 'claude-sonnet-4-5-20250929', output: 1000 },
    { ts: at('15:00:00'), messageId: 'h2', requestId: 'rh2', model: HAIKU, output: 100 },
    { ts: at('15:30:00'), messageId: 'h3', requestId: 'rh3', model: HAIKU, output: 100 },
  ]), { project: 'p', session: 's', agentId: null, agentType: null, agentDescription: null }, 100, 1);
  const [next, b] = insights(idx, { range: 'today' }, at('16:00:00')).blocks;
  assert.equal(next!.models, [HAIKU], '15:30 starts the next block');
  assert.is(b!.messages, 4, 'the 15:00 entry is in the block');
  assert.equal(b!.models, ['claude-opus-4-5-20251101', 'claude-sonnet-4-5-20250929', HAIKU]);
  assert.equal(b!.modelCosts.map((m) => m.model), b!.models);
  near(b!.modelCosts[0]!.cost, 0.025, 'opus');
  near(b!.modelCosts[1]!.cost, 0.015, 'sonnet');
  near(b!.modelCosts[2]!.cost, 0.0055, 'haiku: its hour row and its entry at the end');
  idx.close();
});

Blocks.run();
