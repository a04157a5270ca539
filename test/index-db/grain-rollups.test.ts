// The rollups at the grain of the answers (migration 007) stay equal to the sums recomputed from `messages` after
// appends, a better copy replacing a winner, a rewritten file (its rows dropped, other copies promoted) and a time zone
// change, in whole-hour, :30 and :45 zones with entries on both sides of local midnight inside one UTC hour. A GET after a
// time zone change writes nothing and answers for the new zone; the writer's next pass rebuilds the local rollups.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { HOUR_MS, LocalClock, timeZone } from '../../src/index-db/time.ts';
import type { FileRole, IndexDb } from '../../src/index-db/types.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { startServer } from '../helpers/server.ts';
import { sqlValue } from '../helpers/sqlite.ts';
import { PRICES_FILE } from '../helpers/paths.ts';

const prices = PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')), 'fixture');
const HAIKU = 'claude-haiku-4-5-20251001';
const OPUS = 'claude-opus-4-5-20251101';
const { dir } = tempDir('grain-rollups-');
const role = (project: string, session: string, agentId: string | null = null): FileRole =>
  ({ project, session, agentId, agentType: null, agentDescription: null });
const utc = (s: string): number => Date.parse(`${s}Z`);
const near = (a: number, b: number, what: string): void => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} != ${b}`);

interface Row { ts: number; project_id: number; session_id: number; model_id: number; sub: number; input: number; output: number;
  cache_create: number; cache_read: number; cache_1h: number; web_search: number; cost: number; tools: string }

/** Rows of a table keyed by its key columns, read by a second connection (what another process sees). */
function table(file: string, name: string, keys: string[]): Map<string, Record<string, number>> {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare(`SELECT * FROM ${name}`).all() as Record<string, number>[];
    return new Map(rows.map((r) => [keys.map((k) => r[k]).join(','), r]));
  } finally {
    db.close();
  }
}

/** Sums of `messages` per key, as `table` returns them. */
function fold(rows: Row[], key: (r: Row) => (number | string)[], cols: (keyof Row)[]): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const r of rows) {
    const k = key(r).join(',');
    const acc = out.get(k) ?? Object.fromEntries([['messages', 0], ...cols.map((c) => [c, 0])]);
    out.set(k, acc);
    acc.messages! += 1;
    for (const c of cols) acc[c]! += r[c] as number;
  }
  return out;
}

function same(got: Map<string, Record<string, number>>, want: Map<string, Record<string, number>>, what: string): void {
  assert.equal([...got.keys()].sort(), [...want.keys()].sort(), `${what}: cells`);
  for (const [k, w] of want) {
    const g = got.get(k)!;
    for (const [c, v] of Object.entries(w)) {
      if (c === 'cost') near(g[c]!, v, `${what} ${k} cost`);
      else assert.is(g[c === 'n' ? 'count' : c], v, `${what} ${k} ${c}`);
    }
  }
}

/** Every new rollup equals its sums recomputed from the messages, local days and hours in the zone of this process. */
function assertGrainRollups(idx: IndexDb, file: string): void {
  (idx as IndexDb & { commit(): boolean }).commit();
  const db = new Database(file, { readonly: true });
  const rows = db.prepare(`SELECT ts, project_id, session_id, model_id, agent_id IS NOT NULL AS sub, input, output, cache_create, cache_read,
    cache_1h, web_search, cost, tools FROM messages`).all() as Row[];
  const zone = db.prepare("SELECT value FROM meta WHERE key = 'daily_tz'").pluck().get();
  db.close();
  assert.is(zone, timeZone(), 'the local rollups are of this zone');
  assert.ok(rows.length > 0);
  const clock = new LocalClock();
  const day = (r: Row): number => clock.day(r.ts);
  const sums: (keyof Row)[] = ['input', 'output', 'cache_create', 'cache_read', 'cache_1h', 'web_search', 'cost'];
  same(table(file, 'usage_daily_all', ['day', 'model_id', 'sub']), fold(rows, (r) => [day(r), r.model_id, r.sub], sums), 'usage_daily_all');
  same(table(file, 'usage_total', ['project_id', 'model_id']), fold(rows, (r) => [r.project_id, r.model_id], sums), 'usage_total');
  same(table(file, 'sessions_daily', ['day', 'project_id', 'session_id']), fold(rows, (r) => [day(r), r.project_id, r.session_id], []), 'sessions_daily');
  same(table(file, 'usage_hourly_all', ['hour']), fold(rows, (r) => [Math.floor(r.ts / HOUR_MS)], ['input', 'output', 'cache_create', 'cache_read', 'cost']),
    'usage_hourly_all');
  same(table(file, 'cost_local_hourly_all', ['lhour']), fold(rows, (r) => [clock.lhour(r.ts)], ['cost']), 'cost_local_hourly_all');
  const tools = rows.flatMap((r) => (r.tools ? r.tools.split(',').map((tool) => ({ ...r, tools: tool })) : []));
  const toolCounts = new Map([...fold(tools, (r) => [day(r), r.tools], [])].map(([k, v]) => [k, { count: v.messages! }]));
  same(table(file, 'tools_daily_all', ['day', 'tool']), toolCounts, 'tools_daily_all');
  // first/last bounds of the cells that never lost an entry are exact
  for (const [k, r] of table(file, 'usage_hourly_all', ['hour'])) assert.ok(r.first_ts! <= r.last_ts!, `hour ${k} bounds`);
}

const Writes = suite('grain rollups');

// Entries on both sides of local midnight inside one UTC hour in Kolkata (+5:30) and Kathmandu (+5:45).
const EDGE = [utc('2026-11-15T18:20:00'), utc('2026-11-15T18:40:00'), utc('2026-11-16T09:05:00'), utc('2026-11-17T23:59:59')];

for (const zone of ['UTC', 'Asia/Kolkata', 'Asia/Kathmandu']) {
  Writes(`appends, a better copy, a rewrite with promotion and a zone change keep every rollup exact (${zone})`, () => {
    process.env.TZ = zone;
    const file = path.join(dir, `${zone.replace('/', '-')}.db`);
    const root = path.join(dir, zone.replace('/', '-'), 'projects');
    const idx = openIndex(file, { log: () => {} });
    idx.setPrices(prices);
    const a = path.join(root, 'p1', 'a.jsonl');
    const b = path.join(root, 'p2', 'b.jsonl');
    const rows = EDGE.map((ts, i) => ({ ts, messageId: `m${i}`, requestId: `r${i}`, model: i % 2 ? OPUS : HAIKU, input: 10 * i, output: 100 + i, cacheRead: 7, tools: i % 2 ? ['Bash', 'Read'] : ['Edit'] }));
    // Appends: the file read in two batches.
    idx.applyBatch(batchOf(a, rows.slice(0, 2)), role('p1', 'a'), 200, 1);
    idx.applyBatch(batchOf(a, rows.slice(2), { from: 200 }), role('p1', 'a'), 400, 1);
    assertGrainRollups(idx, file);
    // A copy with more output in another project's file replaces m1 (old winner out, new one in); m2's weaker copy is an alternate.
    idx.applyBatch(batchOf(b, [{ ...rows[1]!, output: 900, ts: rows[1]!.ts + 1000 }, { ...rows[2]!, output: 1 }], { meta: { firstTs: EDGE[0]! - 1 } }),
      role('p2', 'b', 'ag'), 200, 1);
    assertGrainRollups(idx, file);
    // a.jsonl rewritten: its rows go, m2's alternate in b is promoted, the new content is read.
    idx.resetFile(a);
    assertGrainRollups(idx, file);
    idx.applyBatch(batchOf(a, [{ ...rows[3]!, output: 5 }, { ts: EDGE[1]! + 60_000, messageId: 'n1', requestId: 'rn1', model: HAIKU, output: 50, tools: ['Grep'] }]),
      role('p1', 'a'), 200, 2);
    assertGrainRollups(idx, file);
    // Another zone: the writer rebuilds the local rollups (here at its sync; in the server at open and on its periodic pass).
    process.env.TZ = zone === 'UTC' ? 'Asia/Kathmandu' : 'UTC';
    idx.syncTimeZone();
    assertGrainRollups(idx, file);
    idx.close();
  });
}

Writes('a GET after a time zone change writes nothing and answers for the new zone; the writer catches up on its pass', async () => {
  process.env.TZ = 'Asia/Kolkata';
  const built = timeZone();
  const file = path.join(dir, 'served.db');
  const now = utc('2026-11-18T06:00:00');
  const build = (f: string): IndexDb => {
    const idx = openIndex(f, { log: () => {} });
    idx.setPrices(prices);
    idx.applyBatch(batchOf(path.join(dir, 'served', 'p1', 's.jsonl'), EDGE.map((ts, i) => ({ ts, messageId: `s${i}`, requestId: `q${i}`, model: HAIKU, output: 1000 * (i + 1), tools: ['Read'] }))),
      role('p1', 's'), 100, 1);
    return idx;
  };
  build(file).close();
  const server = await startServer({ indexFile: file, now: () => now });
  try {
    server.index.setPrices(prices);
    process.env.TZ = 'UTC';
    const routes = ['/api/overview?range=7', '/api/insights?range=7', '/api/projects?range=7', '/api/overview?range=all', '/api/monthly', '/metrics'];
    const before = { version: server.index.dataVersion(), wal: fs.statSync(`${file}-wal`).size };
    const answers = new Map<string, unknown>();
    for (const route of routes) {
      const r = await server.request(route);
      assert.is(r.status, 200, route);
      answers.set(route, route === '/metrics' ? r.text.split('\n').filter((l) => !l.startsWith('#')) : r.json());
    }
    assert.is(server.index.dataVersion(), before.version, 'no write by a GET');
    assert.is(fs.statSync(`${file}-wal`).size, before.wal, 'nothing written to the file');
    assert.is(sqlValue(file, "SELECT value FROM meta WHERE key = 'daily_tz'"), built, 'the local rollups are still those of the old zone');
    // The same answers as an index built in UTC from the same entries.
    const fresh = build(path.join(dir, 'fresh-utc.db'));
    const days = (o: { costSeries: { points: { key: string; cost: number }[] } }) => o.costSeries.points.filter((p) => p.cost).map((p) => [p.key, Math.round(p.cost * 1000)]);
    const scope = { range: { from: '2026-11-12', to: '2026-11-18', fromMs: utc('2026-11-12T00:00:00'), toMs: utc('2026-11-19T00:00:00'), bucket: 'day' as const, kind: 'days' as const, days: 7 }, project: null, now };
    const want = fresh.queries.overview(scope);
    const got = answers.get('/api/overview?range=7') as typeof want;
    assert.equal(days(got), days(want), 'UTC days');
    assert.equal(days(got), [['2026-11-15', 15], ['2026-11-16', 15], ['2026-11-17', 20]], 'each entry on its UTC day (in Kolkata: 15th, 16th, 16th, 18th)');
    assert.is(got.totals.sessions, want.totals.sessions);
    fresh.close();
    // The writer's pass (the pipeline runs it every 30 s) rebuilds the local rollups for UTC; the answers stay.
    server.index.syncTimeZone();
    assert.ok(server.index.dataVersion() > before.version, 'the writer rebuilt');
    server.server.clearCache();
    assert.equal(days((await server.request('/api/overview?range=7')).json()), days(got));
    (server.index as IndexDb & { commit(): boolean }).commit();
    assert.is(sqlValue(file, "SELECT value FROM meta WHERE key = 'daily_tz'"), timeZone());
  } finally {
    process.env.TZ = 'UTC';
    await server.close();
  }
});

Writes.run();
