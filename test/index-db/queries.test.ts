// Every query family against a small hand-built index, figures checked by hand.
// Local time is Europe/Berlin (UTC+1 in November 2026), set before any Date use.
process.env.TZ = 'Europe/Berlin';

import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RangeInfo } from '../../src/shared/api-types.ts';
import { openIndex } from '../../src/index-db/index.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import type { FileRole, QueryScope } from '../../src/index-db/types.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { PRICES_FILE } from '../helpers/paths.ts';

const prices = PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')), 'fixture');
const HAIKU = 'claude-haiku-4-5-20251001'; // per M: in 1, out 5, cache read 0.1, write 5m 1.25, 1h 2
const OPUS = 'claude-opus-4-5-20251101'; // in 5, out 25
const SONNET = 'claude-sonnet-4-5-20250929'; // in 3, out 15
const utc = (s: string): number => Date.parse(`${s}Z`);
const NOW = utc('2026-11-18T14:30:00'); // Wednesday, 15:30 in Berlin

/** The last `n` local days ending today, as the HTTP layer resolves them. */
function lastDays(n: number, now = NOW): RangeInfo {
  const d = new Date(now);
  const fromMs = new Date(d.getFullYear(), d.getMonth(), d.getDate() - n + 1).getTime();
  const toMs = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime();
  return { from: key(fromMs), to: key(toMs - 1), fromMs, toMs, bucket: 'day', kind: 'days', days: n };
}
function key(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
const today: RangeInfo = { ...lastDays(1), bucket: 'hour', kind: 'today', days: null };
const allTime: RangeInfo = { ...lastDays(1), from: '2026-01-01', fromMs: 0, kind: 'all', days: null };
const scope = (range: RangeInfo, project: string | null = null, now = NOW): QueryScope => ({ range, project, now });
const near = (a: number, b: number, what = ''): void => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} != ${b}`);

const { dir } = tempDir('index-queries-');
const root = path.join(dir, 'projects');
const idx = openIndex(path.join(dir, 'q.db'), { log: () => {} });
idx.setPrices(prices);
const role = (project: string, session: string | null, agentId: string | null = null): FileRole => ({
  project, session, agentId, agentType: agentId ? 'Explore' : null, agentDescription: agentId ? 'look around' : null,
});
const s1 = path.join(root, 'p1', 's1.jsonl');
const s1agent = path.join(root, 'p1', 's1', 'subagents', 'agent-ag1.jsonl');
const s2 = path.join(root, 'p2', 's2.jsonl');
idx.applyBatch(batchOf(s1, [
  /* h */ { ts: utc('2026-11-01T10:00:00'), messageId: 'h', requestId: 'rh', model: HAIKU, output: 1000 }, // 0.005, before the range
  /* a */ { ts: utc('2026-11-16T08:10:00'), messageId: 'a', requestId: 'ra', model: HAIKU, input: 1000, output: 1000, tools: ['Bash', 'Read'] }, // 0.006
  /* b */ { ts: utc('2026-11-16T09:20:00'), messageId: 'b', requestId: 'rb', model: HAIKU, output: 2000, cacheRead: 100_000, cacheCreate: 10_000, cache1h: 4000, tools: ['Bash'] }, // 0.0355
  /* j */ { ts: utc('2026-11-16T13:05:00'), messageId: 'j', requestId: 'rj', model: HAIKU, output: 200 }, // 0.001, at the end of block 08:00-13:00
], { meta: { cwd: '/home/u/alpha', firstPrompt: '  Fix the bug  ' } }), role('p1', 's1'), 400, 1);
idx.applyBatch(batchOf(s1agent, [
  /* d */ { ts: utc('2026-11-16T09:40:00'), messageId: 'd', requestId: 'rd', model: OPUS, input: 100, output: 400, sidechain: true }, // 0.0105
]), role('p1', 's1', 'ag1'), 100, 1);
idx.applyBatch(batchOf(s2, [
  /* e */ { ts: utc('2026-11-18T13:10:00'), messageId: 'e', requestId: 're', model: SONNET, input: 2000, output: 1000, webSearch: 2 }, // 0.021 + 0.02
  /* f */ { ts: utc('2026-11-18T14:20:00'), messageId: 'f', requestId: 'rf', model: '<synthetic>' },
  /* g */ { ts: utc('2026-11-18T14:25:00'), messageId: 'g', requestId: 'rg', model: 'mystery-model-x', input: 500, output: 500 },
], { meta: { title: 'Second session', titleKind: 'ai' } }), role('p2', 's2'), 300, 1);

const Overview = suite('overview');

Overview('last 7 days: totals, today, cache efficiency, series with zero days, models, projects, unpriced', () => {
  const o = idx.queries.overview(scope(lastDays(7)));
  near(o.totals.cost, 0.094, 'cost');
  assert.equal({ ...o.totals, cost: 0 }, {
    cost: 0, messages: 7, inputTokens: 3600, outputTokens: 5100, cacheCreationTokens: 10_000, cacheReadTokens: 100_000,
    totalTokens: 118_700, sessions: 2, projects: 2, webSearchRequests: 2, webFetchRequests: 0, // e: 2 searches
  });
  assert.ok(o.today);
  near(o.today!.cost, 0.041, 'today');
  assert.is(o.today!.messages, 3);
  assert.is(o.today!.sessions, 1);
  near(o.cacheEfficiency, 100_000 / 113_600, 'cacheEfficiency');
  assert.is(o.costSeries.bucket, 'day');
  assert.equal(o.costSeries.points.map((p) => p.key), ['2026-11-12', '2026-11-13', '2026-11-14', '2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18']);
  assert.is(o.costSeries.points[0]!.start, utc('2026-11-11T23:00:00'));
  const mon = o.costSeries.points[4]!;
  near(mon.cost, 0.053, 'monday');
  near(mon.byModel[HAIKU]!, 0.0425, 'monday haiku');
  near(mon.byModel[OPUS]!, 0.0105, 'monday opus');
  assert.equal(Object.keys(o.costSeries.points[6]!.byModel).sort(), ['claude-sonnet-4-5-20250929', 'mystery-model-x']);
  assert.is(o.costSeries.points[5]!.cost, 0);
  assert.equal(o.costByModel.map((m) => [m.model, m.messages]), [[HAIKU, 3], [SONNET, 1], [OPUS, 1], ['mystery-model-x', 1]]);
  near(o.costByModel[0]!.cost, 0.0425, 'haiku');
  assert.equal(o.projects.map((p) => [p.id, p.name, p.sessions, p.messages, p.topModel, p.lastActivity]), [
    ['p1', 'alpha', 1, 4, HAIKU, '2026-11-16T13:05:00.000Z'],
    ['p2', 'p2', 1, 3, SONNET, '2026-11-18T14:25:00.000Z'],
  ]);
  near(o.projects[0]!.cost, 0.053, 'p1');
  assert.equal(o.unpricedModels, [{ model: 'mystery-model-x', messages: 1, inputTokens: 500, outputTokens: 500, cacheCreationTokens: 0, cacheReadTokens: 0, totalTokens: 1000 }]);
});

Overview('project filter, a range without today, an unknown project', () => {
  const p1 = idx.queries.overview(scope(lastDays(7), 'p1'));
  near(p1.totals.cost, 0.053, 'p1');
  assert.is(p1.totals.sessions, 1);
  assert.is(p1.totals.projects, 1);
  assert.equal(p1.today, { ...zero(), sessions: 0 });
  assert.equal(p1.unpricedModels, []);
  assert.equal([p1.totals.webSearchRequests, p1.costByModel.map((m) => m.webSearchRequests)], [0, [0, 0]], 'e is p2\'s');
  const p2 = idx.queries.overview(scope(lastDays(7), 'p2'));
  assert.equal([p2.totals.webSearchRequests, p2.costByModel.find((m) => m.model === SONNET)?.webSearchRequests], [2, 2], 'p2: e\'s searches');
  const past: RangeInfo = { from: '2026-11-16', to: '2026-11-16', fromMs: utc('2026-11-15T23:00:00'), toMs: utc('2026-11-16T23:00:00'), bucket: 'day', kind: 'custom', days: 1 };
  const o = idx.queries.overview(scope(past));
  assert.is(o.today, null);
  near(o.totals.cost, 0.053, 'one day'); // a + b + d + j
  assert.equal(o.costSeries.points.map((p) => p.key), ['2026-11-16']);
  const none = idx.queries.overview(scope(lastDays(7), 'nope'));
  assert.is(none.totals.messages, 0);
  assert.is(none.costSeries.points.length, 7);
});

Overview('today in hourly buckets, local hour keys', () => {
  const o = idx.queries.overview(scope(today));
  assert.is(o.costSeries.bucket, 'hour');
  assert.is(o.costSeries.points.length, 24);
  assert.is(o.costSeries.points[0]!.key, '2026-11-18T00');
  const byKey = Object.fromEntries(o.costSeries.points.map((p) => [p.key, p.cost]));
  near(byKey['2026-11-18T14']!, 0.041, '14h');
  assert.is(byKey['2026-11-18T15'], 0);
  assert.is(o.totals.messages, 3);
});

Overview('a rolling 24 h range reads whole UTC hours starting inside it', () => {
  const range: RangeInfo = { from: '2026-11-17', to: '2026-11-18', fromMs: NOW - 86_400_000, toMs: NOW, bucket: 'hour', kind: '24h', days: null };
  const o = idx.queries.overview(scope(range));
  assert.is(o.costSeries.points.length, 24);
  assert.is(o.costSeries.points[0]!.start, utc('2026-11-17T15:00:00'));
  assert.is(o.totals.messages, 3);
  near(o.totals.cost, 0.041, '24h');
  assert.equal([o.totals.webSearchRequests, o.costByModel.find((m) => m.model === SONNET)?.webSearchRequests], [2, 2], 'e\'s searches, by UTC hour');
  const asDays = idx.queries.overview(scope({ ...range, bucket: 'day' }));
  assert.equal(asDays.costSeries.points.map((p) => p.key), ['2026-11-17', '2026-11-18']);
  near(asDays.costSeries.points[1]!.cost, 0.041, 'by day');
});

Overview('all time starts the series at the first day with data', () => {
  const o = idx.queries.overview(scope(allTime));
  assert.is(o.costSeries.points[0]!.key, '2026-11-01');
  assert.is(o.costSeries.points.at(-1)!.key, '2026-11-18');
  near(o.totals.cost, 0.099, 'all');
  assert.equal(idx.queries.overview(scope(allTime, 'nope')).costSeries.points.map((p) => p.key), ['2026-11-18']);
});

Overview.run();

function zero() {
  return { cost: 0, messages: 0, inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, totalTokens: 0 };
}

const Insights = suite('insights');

Insights('blocks (end rule, gap, active with burn rate), run rate, savings, composition, tools, heatmap, share, weeks', () => {
  const i = idx.queries.insights(scope(lastDays(7)));
  assert.equal(i.blocks.map((b) => [b.start, b.end, b.messages, b.models, b.active]), [
    ['2026-11-18T13:00:00.000Z', '2026-11-18T18:00:00.000Z', 3, ['claude-sonnet-4-5-20250929', 'mystery-model-x'], true],
    ['2026-11-16T13:00:00.000Z', '2026-11-16T18:00:00.000Z', 1, [HAIKU], false],
    ['2026-11-16T08:00:00.000Z', '2026-11-16T13:00:00.000Z', 3, [OPUS, HAIKU].sort(), false],
  ]);
  near(i.blocks[2]!.cost, 0.052, 'first block');
  assert.is(i.blocks[2]!.lastActivity, '2026-11-16T09:40:00.000Z');
  assert.is(i.blocks[1]!.burn, null);
  const burn = i.blocks[0]!.burn!;
  assert.equal(i.burnRate, burn);
  near(burn.costPerHour, 0.041 / 1.5, 'cost/h');
  near(burn.tokensPerMinute, 4000 / 90, 'tokens/min');
  near(burn.projectedCost, (0.041 / 1.5) * 5, 'projection');
  near(burn.minutesLeft, 210, 'minutes left');
  // Whole days only: today (the active block's $0.041) is left out of the 7-day range's 6 ended days.
  near(i.runRate.dailyAvg, (0.094 - 0.041) / 6, 'daily');
  near(i.runRate.projectedMonthly, ((0.094 - 0.041) / 6) * 30, 'monthly');
  assert.is(i.runRate.days, 6);
  const t = idx.queries.insights(scope(today)).runRate;
  assert.equal([t.days, t.dailyAvg, t.projectedMonthly], [0, 0, 0], 'today alone: nothing to project yet');
  const cc = i.costComposition;
  near(cc.cacheRead, 100_000 * 1e-7, 'cache-read cost at the haiku price');
  assert.ok(cc.output > 0 && cc.input > 0 && cc.cache5m > 0 && cc.cache1h > 0, 'every kind priced');
  near(i.cacheSavings.saved, 100_000 * (1e-6 - 1e-7), 'saved');
  assert.is(i.cacheSavings.cacheReadTokens, 100_000);
  assert.is(i.tokenComposition.cache5mTokens, 6000);
  assert.is(i.tokenComposition.cache1hTokens, 4000);
  assert.is(i.tokenComposition.totalTokens, 118_700);
  assert.equal(i.topTools, [{ name: 'Bash', count: 2 }, { name: 'Read', count: 1 }]);
  assert.is(i.heatmap.length, 7);
  assert.ok(i.heatmap.every((row) => row.length === 24));
  near(i.heatmap[0]![9]!, 0.006, 'Mon 09');
  near(i.heatmap[0]![10]!, 0.046, 'Mon 10');
  near(i.heatmap[0]![14]!, 0.001, 'Mon 14');
  near(i.heatmap[2]![14]!, 0.041, 'Wed 14');
  near(i.heatmap.flat().reduce((a, b) => a + b, 0), 0.094, 'heatmap sum');
  near(i.subagentShare.subagentCost, 0.0105, 'sub');
  near(i.subagentShare.mainCost, 0.0835, 'main');
  near(i.subagentShare.share, 0.0105 / 0.094, 'share');
  assert.equal(i.weeklyCost.map((w) => w.weekStart), ['2026-11-09', '2026-11-16']);
  assert.is(i.weeklyCost[0]!.cost, 0);
  near(i.weeklyCost[1]!.cost, 0.094, 'week');
});

Insights('no block is active once 5 hours have passed since the last entry; project filter', () => {
  const later = idx.queries.insights(scope(lastDays(7), null, utc('2026-11-18T19:30:00')));
  assert.is(later.blocks[0]!.active, false);
  assert.is(later.burnRate, null);
  const p2 = idx.queries.insights(scope(lastDays(7), 'p2'));
  assert.is(p2.blocks.length, 1);
  assert.equal(p2.topTools, []);
  assert.is(p2.subagentShare.share, 0);
});

Insights('a long range lists the 100 most recent blocks and counts them all', () => {
  const many = openIndex(path.join(dir, 'blocks.db'), { log: () => {} });
  many.setPrices(prices);
  // 120 entries 6 h apart: each starts its own block (the gap is over 5 h).
  const rows = Array.from({ length: 120 }, (_, i) => ({ ts: NOW - (119 - i) * 6 * 3_600_000, messageId: `b${i}`, requestId: `rb${i}`, model: HAIKU, output: 1000 }));
  many.applyBatch(batchOf(path.join(root, 'p9', 'many.jsonl'), rows), role('p9', 'many'), 100, 1);
  const i = many.queries.insights(scope(lastDays(60)));
  assert.is(i.blocksInRange, 120);
  assert.is(i.blocks.length, 100);
  assert.is(i.blocks[0]!.start, new Date(Math.floor(NOW / 3_600_000) * 3_600_000).toISOString(), 'most recent first');
  assert.is(i.blocks[99]!.start, new Date(Math.floor((NOW - 99 * 6 * 3_600_000) / 3_600_000) * 3_600_000).toISOString());
  for (const b of [i.blocks[0]!, i.blocks[99]!]) {
    assert.equal([b.messages, b.outputTokens, b.totalTokens, b.models], [1, 1000, 1000, [HAIKU]], 'a listed block keeps its sums and models');
    assert.ok(b.cost > 0);
    assert.is(Date.parse(b.end) - Date.parse(b.start), 5 * 3_600_000);
  }
  assert.is(i.blocks[0]!.lastActivity, new Date(NOW).toISOString());
  many.close();
});

Insights.run();

const Projects = suite('projects and sessions');

Projects('projects over all time', () => {
  const rows = idx.queries.projects(scope(allTime));
  assert.equal(rows.map((r) => [r.id, r.messages]), [['p1', 5], ['p2', 3]]);
  near(rows[0]!.cost, 0.058, 'p1');
  assert.equal(idx.queries.projects(scope(allTime, 'p2')).map((r) => r.id), ['p2']);
});

Projects('projectSessions: totals, series, models, session rows, gone, unknown project', () => {
  const ps = idx.queries.projectSessions('p1', scope(lastDays(7)))!;
  assert.equal(ps.project, { id: 'p1', name: 'alpha', repository: { id: '/home/u/alpha', name: 'alpha' } });
  near(ps.totals.cost, 0.053, 'total');
  assert.is(ps.totals.messages, 4);
  assert.is(ps.costSeries.points.length, 7);
  assert.equal(ps.costByModel.map((m) => m.model), [HAIKU, OPUS]);
  assert.is(ps.sessions.length, 1);
  const s = ps.sessions[0]!;
  assert.equal([s.id, s.title, s.messages, s.models, s.firstActivity, s.lastActivity, s.gone],
    ['s1', 'Fix the bug', 4, [OPUS, HAIKU].sort(), '2026-11-16T08:10:00.000Z', '2026-11-16T13:05:00.000Z', false]);
  near(s.cost, 0.053, 'session');
  near(s.subagentCost, 0.0105, 'subagent');
  assert.is(s.totalTokens, 1000 + 1000 + 2000 + 110_000 + 200 + 500);
  assert.is(idx.queries.projectSessions('nope', scope(lastDays(7))), null);
  assert.equal(idx.queries.projectSessions('p2', scope(lastDays(7)))!.sessions.map((r) => r.title), ['Second session']);
});

Projects('session detail: all time, messages in order with subagent marks, slices, unknown id', () => {
  const d = idx.queries.session('s1', scope(lastDays(7)))!;
  assert.equal([d.id, d.title, d.firstPrompt, d.cwd, d.project], ['s1', 'Fix the bug', '  Fix the bug  ', '/home/u/alpha', { id: 'p1', name: 'alpha' }]);
  near(d.cost, 0.058, 'all time');
  assert.is(d.messageCount, 5);
  assert.is(d.firstActivity, '2026-11-01T10:00:00.000Z');
  assert.is(d.lastActivity, '2026-11-16T13:05:00.000Z');
  assert.equal(d.messages.map((m) => [m.timestamp.slice(5, 16), m.model, m.tools, m.subagent ?? null]), [
    ['11-01T10:00', HAIKU, [], null],
    ['11-16T08:10', HAIKU, ['Bash', 'Read'], null],
    ['11-16T09:20', HAIKU, ['Bash'], null],
    ['11-16T09:40', OPUS, [], { agentId: 'ag1', agentType: 'Explore' }],
    ['11-16T13:05', HAIKU, [], null],
  ]);
  const b = d.messages[2]!;
  assert.equal([b.cache5mTokens, b.cache1hTokens, b.totalTokens], [6000, 4000, 112_000]);
  near(b.cost, 0.0355, 'b');
  assert.equal(d.subagents.map((a) => [a.agentId, a.agentType, a.description, a.messages]), [['ag1', 'Explore', 'look around', 1]]);
  near(d.subagents[0]!.cost, 0.0105, 'agent');
  near(d.inRange!.cost, 0.053, 'in range');
  assert.is(d.inRange!.messages, 4);
  assert.is(d.today, null);
  const e = idx.queries.session('s2', scope(lastDays(7)))!;
  near(e.today!.cost, 0.041, 'today');
  assert.equal([e.messages[0]!.webSearches, e.title], [2, 'Second session']);
  assert.is(idx.queries.session('missing', scope(lastDays(7))), null);
});

Projects('a session is gone once every one of its files is gone', () => {
  idx.markGone(s1);
  assert.is(idx.queries.projectSessions('p1', scope(lastDays(7)))!.sessions[0]!.gone, false);
  idx.markGone(s1agent);
  assert.is(idx.queries.projectSessions('p1', scope(lastDays(7)))!.sessions[0]!.gone, true);
  near(idx.queries.session('s1', scope(lastDays(7)))!.cost, 0.058, 'history kept');
});

Projects.run();

const Zones = suite('time zones');

Zones('weeks, days and the heatmap follow the process time zone', () => {
  const z = openIndex(path.join(dir, 'tz.db'), { log: () => {} });
  z.setPrices(prices);
  // Sunday 23:30 UTC is Monday 00:30 in Berlin.
  z.applyBatch(batchOf(path.join(root, 'p3', 's9.jsonl'), [{ ts: utc('2026-11-15T23:30:00'), messageId: 'z', requestId: 'rz', model: HAIKU, output: 1000 }]), role('p3', 's9'), 100, 1);
  const range = (): RangeInfo => lastDays(14);
  const berlin = z.queries.insights(scope(range()));
  assert.equal(berlin.weeklyCost.map((w) => [w.weekStart, w.cost]), [['2026-11-02', 0], ['2026-11-09', 0], ['2026-11-16', 0.005]]);
  assert.is(berlin.heatmap[0]![0], 0.005);
  const day = z.queries.overview(scope(range())).costSeries.points.find((p) => p.cost > 0)!;
  assert.is(day.key, '2026-11-16');
  process.env.TZ = 'UTC';
  try {
    const inUtc = z.queries.insights(scope(range()));
    assert.equal(inUtc.weeklyCost.filter((w) => w.cost > 0).map((w) => w.weekStart), ['2026-11-09']);
    assert.is(inUtc.heatmap[6]![23], 0.005);
    assert.is(z.queries.overview(scope(range())).costSeries.points.find((p) => p.cost > 0)!.key, '2026-11-15');
  } finally {
    process.env.TZ = 'Europe/Berlin';
    z.close();
  }
});

Zones.run();
