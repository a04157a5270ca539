// Exact local days and hours in :30 and :45 zones and across DST changes (decisions.md "Time"): an
// entry's local day and hour come from its own timestamp, not from its UTC hour's start. Entries sit
// on both sides of local midnight inside one UTC hour; every ranged figure (daily series, today,
// single days, sessions, weeks, heatmap, hourly series, top tools) must split them. Ranges are
// resolved by the server's own parser.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRange, type Query } from '../../src/http/params.ts';
import { openIndex } from '../../src/index-db/index.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { timeZone } from '../../src/index-db/time.ts';
import type { IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { MESSAGES_OF_V8, openKeyed } from '../helpers/sqlite.ts';
import { PRICES_FILE } from '../helpers/paths.ts';

const prices = PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')), 'fixture');
const HAIKU = 'claude-haiku-4-5-20251001'; // output $5 per M: 1000 output tokens cost 0.005
const { dir } = tempDir('local-days-');
const near = (a: number | undefined, b: number, what: string): void => assert.ok(a !== undefined && Math.abs(a - b) < 1e-12, `${what}: ${a} != ${b}`);

interface Entry {
  at: string;
  session: string;
  /** Output tokens in thousands = cost in units of 0.005. */
  k: number;
  tool?: string;
}

/** A fresh index built in `zone`, one transcript per session of project 'p'. */
function build(zone: string, entries: Entry[], file = path.join(dir, `${zone.replace('/', '-')}-${Math.random().toString(36).slice(2)}.db`)): IndexDb {
  process.env.TZ = zone;
  const idx = openIndex(file, { log: () => {} });
  idx.setPrices(prices);
  for (const session of new Set(entries.map((e) => e.session))) {
    const rows = entries.filter((e) => e.session === session).map((e) => ({
      ts: Date.parse(e.at), messageId: `m-${e.at}`, requestId: `r-${e.at}`, model: HAIKU, output: e.k * 1000, tools: e.tool ? [e.tool] : [],
    }));
    idx.applyBatch(batchOf(path.join(dir, 'projects', 'p', `${session}.jsonl`), rows), { project: 'p', session, agentId: null, agentType: null, agentDescription: null }, 100, 1);
  }
  return idx;
}

const scope = (q: Query, now: number): QueryScope => ({ range: parseRange(q, 'days30', now), project: null, now });
const days = (idx: IndexDb, q: Query, now: number): [string, number][] =>
  idx.queries.overview(scope(q, now)).costSeries.points.filter((p) => p.cost !== 0).map((p) => [p.key, Math.round(p.cost / 0.005)]);
const hours = (idx: IndexDb, q: Query, now: number): [string, number][] =>
  idx.queries.overview(scope(q, now)).costSeries.points.filter((p) => p.cost !== 0).map((p) => [p.key.slice(11), Math.round(p.cost / 0.005)]);
/** Non-zero heatmap cells as [weekday (Monday = 0), hour, cost in units of 0.005]. */
const heat = (idx: IndexDb, q: Query, now: number): [number, number, number][] =>
  idx.queries.insights(scope(q, now)).heatmap.flatMap((row, d) => row.flatMap((c, h) => (c ? [[d, h, Math.round(c / 0.005)] as [number, number, number]] : [])));

// Sunday 23:50 and Monday 00:10 local: one UTC hour, two days, two weeks.
const KOLKATA: Entry[] = [
  { at: '2026-11-15T18:20:00Z', session: 'sun', k: 1, tool: 'Read' },
  { at: '2026-11-15T18:40:00Z', session: 'mon', k: 2, tool: 'Bash' },
];
const KOLKATA_NOW = Date.parse('2026-11-16T06:30:00Z'); // Monday 12:00 IST

const Zones = suite('local days');

Zones('Asia/Kolkata (+5:30): days, today, a single day, sessions, weeks, heatmap, hourly series, tools', () => {
  const idx = build('Asia/Kolkata', KOLKATA);
  const now = KOLKATA_NOW;
  assert.equal(days(idx, { range: '7' }, now), [['2026-11-15', 1], ['2026-11-16', 2]]);
  const today = idx.queries.overview(scope({ range: 'today' }, now));
  near(today.totals.cost, 0.01, 'today total');
  assert.is(today.totals.sessions, 1);
  near(today.today?.cost, 0.01, 'today slice');
  assert.is(today.today?.sessions, 1);
  assert.is(today.costSeries.points.length, 24);
  assert.is(today.costSeries.points[0]!.start, Date.parse('2026-11-15T18:30:00Z'), 'the first local hour starts at :30 UTC');
  assert.equal(hours(idx, { range: 'today' }, now), [['00', 2]]);
  const sunday = idx.queries.overview(scope({ from: '2026-11-15', to: '2026-11-15' }, now));
  near(sunday.totals.cost, 0.005, 'sunday');
  assert.equal(sunday.projects.map((p) => [p.id, p.sessions]), [['p', 1]]);
  assert.equal(hours(idx, { from: '2026-11-15', to: '2026-11-15' }, now), [['23', 1]]);
  assert.equal(idx.queries.projects(scope({ range: 'today' }, now)).map((p) => [p.sessions, p.messages]), [[1, 1]]);
  const inProject = idx.queries.overview({ ...scope({ range: 'today' }, now), project: 'p' });
  assert.equal([inProject.totals.sessions, inProject.today?.sessions], [1, 1]);
  assert.equal(idx.queries.projectSessions('p', scope({ range: 'today' }, now))!.sessions.map((s) => s.id), ['mon']);
  assert.equal(idx.queries.projectSessions('p', scope({ from: '2026-11-15', to: '2026-11-15' }, now))!.sessions.map((s) => s.id), ['sun']);
  const week = idx.queries.insights(scope({ range: '14' }, now));
  assert.equal(week.weeklyCost.map((w) => [w.weekStart, Math.round(w.cost / 0.005)]), [['2026-11-02', 0], ['2026-11-09', 1], ['2026-11-16', 2]]);
  assert.equal(heat(idx, { range: '7' }, now), [[0, 0, 2], [6, 23, 1]]);
  assert.equal(idx.queries.insights(scope({ range: 'today' }, now)).topTools, [{ name: 'Bash', count: 1 }]);
  idx.close();
});

Zones('Asia/Kathmandu (+5:45)', () => {
  const idx = build('Asia/Kathmandu', [
    { at: '2026-11-15T18:05:00Z', session: 'sun', k: 1 }, // Sunday 23:50
    { at: '2026-11-15T18:25:00Z', session: 'mon', k: 2 }, // Monday 00:10
  ]);
  const now = Date.parse('2026-11-16T06:15:00Z'); // Monday 12:00 NPT
  assert.equal(days(idx, { range: '7' }, now), [['2026-11-15', 1], ['2026-11-16', 2]]);
  const today = idx.queries.overview(scope({ range: 'today' }, now));
  near(today.today?.cost, 0.01, 'today');
  assert.is(today.today?.sessions, 1);
  assert.equal(hours(idx, { range: 'today' }, now), [['00', 2]]);
  assert.equal(heat(idx, { range: '7' }, now), [[0, 0, 2], [6, 23, 1]]);
  idx.close();
});

Zones('Australia/Adelaide (+9:30, +10:30 from 02:00 on 4 October 2026): the 23-hour day and both midnights', () => {
  const idx = build('Australia/Adelaide', [
    { at: '2026-10-03T14:20:00Z', session: 's', k: 1 }, // Sat 23:50 ACST
    { at: '2026-10-03T14:40:00Z', session: 's', k: 2 }, // Sun 00:10 ACST
    { at: '2026-10-03T16:20:00Z', session: 's', k: 3 }, // Sun 01:50 ACST
    { at: '2026-10-03T16:40:00Z', session: 's', k: 4 }, // Sun 03:10 ACDT: the same UTC hour
    { at: '2026-10-04T13:20:00Z', session: 's', k: 5 }, // Sun 23:50 ACDT
    { at: '2026-10-04T13:40:00Z', session: 's', k: 6 }, // Mon 00:10 ACDT
  ]);
  const now = Date.parse('2026-10-05T01:30:00Z'); // Monday 12:00 ACDT
  assert.equal(days(idx, { range: '3' }, now), [['2026-10-03', 1], ['2026-10-04', 14], ['2026-10-05', 6]]);
  const sunday = idx.queries.overview(scope({ from: '2026-10-04', to: '2026-10-04' }, now));
  assert.is(sunday.costSeries.points.length, 23, 'one hour is skipped');
  assert.equal(hours(idx, { from: '2026-10-04', to: '2026-10-04' }, now), [['00', 2], ['01', 3], ['03', 4], ['23', 5]]);
  near(sunday.totals.cost, 0.07, 'sunday');
  near(idx.queries.overview(scope({ range: 'today' }, now)).today?.cost, 0.03, 'monday');
  assert.equal(heat(idx, { range: '3' }, now), [[0, 0, 6], [5, 23, 1], [6, 0, 2], [6, 1, 3], [6, 3, 4], [6, 23, 5]]);
  idx.close();
});

Zones('America/St_Johns (-2:30, -3:30 from 02:00 on 1 November 2026): the 25-hour day, its repeated hour one bucket', () => {
  const idx = build('America/St_Johns', [
    { at: '2026-11-01T02:20:00Z', session: 's', k: 1 }, // Sat 23:50 NDT
    { at: '2026-11-01T02:40:00Z', session: 's', k: 2 }, // Sun 00:10 NDT
    { at: '2026-11-01T04:00:00Z', session: 's', k: 3 }, // Sun 01:30 NDT
    { at: '2026-11-01T05:00:00Z', session: 's', k: 4 }, // Sun 01:30 NST, again
    { at: '2026-11-02T03:20:00Z', session: 's', k: 5 }, // Sun 23:50 NST
    { at: '2026-11-02T03:40:00Z', session: 's', k: 6 }, // Mon 00:10 NST
  ]);
  const now = Date.parse('2026-11-02T15:30:00Z'); // Monday 12:00 NST
  assert.equal(days(idx, { range: '3' }, now), [['2026-10-31', 1], ['2026-11-01', 14], ['2026-11-02', 6]]);
  const sunday = idx.queries.overview(scope({ from: '2026-11-01', to: '2026-11-01' }, now));
  assert.is(sunday.costSeries.points.length, 24);
  assert.equal(hours(idx, { from: '2026-11-01', to: '2026-11-01' }, now), [['00', 2], ['01', 7], ['23', 5]]);
  assert.equal(heat(idx, { range: '3' }, now), [[0, 0, 6], [5, 23, 1], [6, 0, 2], [6, 1, 7], [6, 23, 5]]);
  idx.close();
});

Zones('a time zone change rebuilds the local rollups from each entry, and back', () => {
  const idx = build('Asia/Kolkata', KOLKATA);
  process.env.TZ = 'UTC';
  assert.equal(days(idx, { range: '7' }, KOLKATA_NOW), [['2026-11-15', 3]]);
  assert.equal(heat(idx, { range: '7' }, KOLKATA_NOW), [[6, 18, 3]]);
  assert.equal(idx.queries.insights(scope({ from: '2026-11-15', to: '2026-11-15' }, KOLKATA_NOW)).topTools, [
    { name: 'Bash', count: 1 }, { name: 'Read', count: 1 },
  ]);
  process.env.TZ = 'Asia/Kolkata';
  assert.equal(days(idx, { range: '7' }, KOLKATA_NOW), [['2026-11-15', 1], ['2026-11-16', 2]]);
  assert.equal(heat(idx, { range: '7' }, KOLKATA_NOW), [[0, 0, 2], [6, 23, 1]]);
  assert.equal(idx.queries.insights(scope({ range: 'today' }, KOLKATA_NOW)).topTools, [{ name: 'Bash', count: 1 }]);
  idx.close();
});

Zones('an index written in one zone is rebuilt for another when it is opened there', () => {
  const file = path.join(dir, 'reopen.db');
  process.env.TZ = 'UTC';
  const first = openIndex(file, { log: () => {} });
  first.setPrices(prices);
  first.applyBatch(batchOf(path.join(dir, 'projects', 'p', 'x.jsonl'), KOLKATA.map((e) => ({ ts: Date.parse(e.at), messageId: e.at, requestId: e.at, model: HAIKU, output: e.k * 1000 }))),
    { project: 'p', session: 'x', agentId: null, agentType: null, agentDescription: null }, 100, 1);
  first.close();
  process.env.TZ = 'Asia/Kolkata';
  openIndex(file, { log: () => {} }).close(); // no query: the open alone rebuilds
  const db = new Database(file, { readonly: true });
  assert.is(db.prepare("SELECT value FROM meta WHERE key = 'daily_tz'").pluck().get(), timeZone(), 'built for the zone of this open');
  const day = (d: string): number => Date.parse(d) / 86_400_000;
  assert.equal(db.prepare('SELECT day, messages FROM usage_daily ORDER BY day').raw().all(), [[day('2026-11-15'), 1], [day('2026-11-16'), 1]]);
  db.close();
});

Zones('an index of schema v1 (days from the hour start) is upgraded and its local rollups rebuilt from the messages', () => {
  const file = path.join(dir, 'v1.db');
  build('Asia/Kolkata', KOLKATA, file).close();
  // What v1 leaves: nothing of the later migrations (no local hour table, time index, out-of-range count, branches, rollups without
  // the project), and days that are not those of the entries.
  const db = openKeyed(file);
  db.exec(`${MESSAGES_OF_V8} DROP TABLE cost_local_hourly; DROP INDEX messages_ts; PRAGMA user_version = 1;
    DROP TABLE usage_daily_all; DROP TABLE usage_total; DROP TABLE sessions_daily; DROP TABLE usage_hourly_all;
    DROP TABLE cost_local_hourly_all; DROP TABLE tools_daily_all;
    ALTER TABLE files DROP COLUMN out_of_range; ALTER TABLE sessions DROP COLUMN agent_prompt; DROP TABLE branches;
    ALTER TABLE messages DROP COLUMN branch_id; ALTER TABLE alternates DROP COLUMN branch_id; ALTER TABLE projects DROP COLUMN repo;
    UPDATE usage_daily SET day = day - 100; UPDATE tools_daily SET day = day - 100;`);
  db.close();
  const again = openIndex(file, { log: () => {} });
  again.setPrices(prices);
  assert.equal(days(again, { range: '7' }, KOLKATA_NOW), [['2026-11-15', 1], ['2026-11-16', 2]]);
  assert.equal(heat(again, { range: '7' }, KOLKATA_NOW), [[0, 0, 2], [6, 23, 1]]);
  again.close();
});

Zones.run();
