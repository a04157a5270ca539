// Cost by what caused it (issue 32): the hand-made history of test/fixtures/causes indexed through the real pipeline
// into a real index file, and /api/insights' bySkill, byMcpServer (with tools), byAgent and byEffort compared with
// what the transcripts say, worked out here from their lines alone (the dedup rule of decisions.md, each line priced by
// the price table): every row is the sum of its messages, every breakdown adds up to the range's totals, over a month,
// a local day whose edges cut UTC hours (a +05:45 zone), a rolling range, a project's scope, after a reprice, and on an
// index migrated from before the causes.
process.env.TZ = 'Asia/Kathmandu';

import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex, openIndexReader } from '../../src/index-db/index.ts';
import type { Queries, QueryScope } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import type { CauseBreakdowns, CauseCost, RangeInfo } from '../../src/shared/api-types.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { CAUSES_PROJECTS, PRICES_FILE } from '../helpers/paths.ts';
import { indexDir } from '../helpers/pipeline.ts';
import { damagePage, rootPage, sqlValue } from '../helpers/sqlite.ts';
import { CAUSES_MIGRATION, UNDO_CAUSES, versionBefore } from '../helpers/schema-undo.ts';

const catalogue = JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Record<string, unknown>;
const prices = PriceTable.fromCatalogue(catalogue, 'fixture');
const utc = (s: string): number => Date.parse(`${s}Z`);
const HOUR_MS = 3_600_000;
const NOW = utc('2026-11-18T14:30:00');
/** November in Kathmandu (+05:45): its local days start at 18:15 UTC. */
const NOV: RangeInfo = { from: '2026-11-01', to: '2026-11-30', fromMs: utc('2026-10-31T18:15:00'), toMs: utc('2026-11-30T18:15:00'), bucket: 'day', kind: 'month', days: null };
const month = (project: string | null = null): QueryScope => ({ range: NOV, project, now: NOW });
const DAY16: QueryScope = { range: { ...NOV, from: '2026-11-16', to: '2026-11-16', fromMs: utc('2026-11-15T18:15:00'), toMs: utc('2026-11-16T18:15:00'), kind: 'custom' }, project: null, now: NOW };
const rolling = (fromMs: number, toMs: number): QueryScope => ({ range: { ...NOV, fromMs, toMs, bucket: 'hour', kind: '24h' }, project: null, now: NOW });

/** One usage entry of the fixture as its line says it. */
interface Entry {
  key: string;
  file: string;
  firstTs: number;
  ts: number;
  project: string;
  model: string;
  input: number;
  output: number;
  cacheCreate: number;
  cacheRead: number;
  cause: Record<'skill' | 'mcpServer' | 'mcpTool' | 'agentType' | 'effort', string | null>;
}

const name = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** Every usage line of the fixture's transcripts, read here without the worker's code. */
function entries(): Entry[] {
  const out: Entry[] = [];
  const walk = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? walk(path.join(dir, d.name)) : d.name.endsWith('.jsonl') ? [path.join(dir, d.name)] : []));
  for (const file of walk(CAUSES_PROJECTS).sort()) {
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
    const firstTs = Math.min(...lines.map((l) => Date.parse(l.timestamp)));
    for (const l of lines) {
      const u = l.message?.usage;
      if (!u) continue;
      out.push({
        key: `${l.message.id} ${l.requestId}`, file, firstTs, ts: Date.parse(l.timestamp),
        project: path.relative(CAUSES_PROJECTS, file).split(path.sep)[0]!, model: l.message.model,
        input: u.input_tokens, output: u.output_tokens, cacheCreate: u.cache_creation_input_tokens, cacheRead: u.cache_read_input_tokens,
        cause: { skill: name(l.attributionSkill), mcpServer: name(l.attributionMcpServer), mcpTool: name(l.attributionMcpTool),
          agentType: name(l.attributionAgent), effort: name(l.effort) },
      });
    }
  }
  return out;
}

/** decisions.md: one copy per key, the most output; on a tie the earliest file (first timestamp, then path). */
function deduped(all: readonly Entry[]): Entry[] {
  const best = new Map<string, Entry>();
  for (const e of all) {
    const b = best.get(e.key);
    if (!b || e.output > b.output || (e.output === b.output && (e.firstTs < b.firstTs || (e.firstTs === b.firstTs && e.file < b.file)))) best.set(e.key, e);
  }
  return [...best.values()];
}

const costOf = (e: Entry, table: PriceTable): number =>
  table.cost({ model: e.model, input: e.input, output: e.output, cacheCreate: e.cacheCreate, cacheRead: e.cacheRead, cache1h: 0, webSearch: 0, fast: false, geoUs: false, costUSD: null }).cost;

/** What a breakdown must be: its entries summed by `by`, as [name, messages, input, output, cache writes, cache reads, cost]. */
type Brief = [string | null, number, number, number, number, number, number];
function expected(es: readonly Entry[], by: (e: Entry) => string | null, table: PriceTable): Brief[] {
  const rows = new Map<string | null, Brief>();
  for (const e of es) {
    const k = by(e);
    const r = rows.get(k) ?? [k, 0, 0, 0, 0, 0, 0];
    rows.set(k, [k, r[1] + 1, r[2] + e.input, r[3] + e.output, r[4] + e.cacheCreate, r[5] + e.cacheRead, r[6] + costOf(e, table)]);
  }
  return [...rows.values()].sort((a, b) => b[6] - a[6] || (a[0] === null ? 1 : 0) - (b[0] === null ? 1 : 0) || (a[0] ?? '').localeCompare(b[0] ?? ''));
}

const brief = (rows: readonly CauseCost[]): Brief[] =>
  rows.map((r) => [r.name, r.messages, r.inputTokens, r.outputTokens, r.cacheCreationTokens, r.cacheReadTokens, r.cost]);

/** Rows equal to the expected ones: counts exactly, costs to 1e-9. */
function same(got: Brief[], want: Brief[], what: string): void {
  assert.equal(got.map((r) => r.slice(0, 6)), want.map((r) => r.slice(0, 6)), what);
  got.forEach((r, i) => assert.ok(Math.abs(r[6] - want[i]![6]) < 1e-9, `${what}: ${r[0]} costs ${r[6]}, expected ${want[i]![6]}`));
}

/** Every breakdown of `c` against the entries `es`, and each adding up to the range's totals. */
function check(c: CauseBreakdowns, es: readonly Entry[], totals: { cost: number; messages: number; totalTokens: number }, table: PriceTable, what: string): void {
  same(brief(c.bySkill), expected(es, (e) => e.cause.skill, table), `${what}: bySkill`);
  same(brief(c.byMcpServer), expected(es, (e) => e.cause.mcpServer, table), `${what}: byMcpServer`);
  for (const s of c.byMcpServer) {
    const mine = es.filter((e) => s.name !== null && e.cause.mcpServer === s.name);
    same(brief(s.tools), expected(mine, (e) => e.cause.mcpTool, table), `${what}: tools of ${s.name}`);
  }
  same(brief(c.byAgent), expected(es, (e) => e.cause.agentType, table), `${what}: byAgent`);
  same(brief(c.byEffort), expected(es, (e) => e.cause.effort, table), `${what}: byEffort`);
  for (const [kind, rows] of Object.entries(c) as [string, CauseCost[]][]) {
    assert.ok(Math.abs(rows.reduce((s, r) => s + r.cost, 0) - totals.cost) < 1e-9, `${what}: ${kind} adds up to the range's cost (${rows.reduce((s, r) => s + r.cost, 0)} != ${totals.cost}, ${totals.messages} messages)`);
    assert.is(rows.reduce((s, r) => s + r.messages, 0), totals.messages, `${what}: ${kind} adds up to the range's messages`);
    assert.is(rows.reduce((s, r) => s + r.totalTokens, 0), totals.totalTokens, `${what}: ${kind} adds up to the range's tokens`);
  }
}

const causesOf = (idx: { queries: Queries }, scope: QueryScope): CauseBreakdowns => {
  const { bySkill, byMcpServer, byAgent, byEffort } = idx.queries.insights(scope);
  return { bySkill, byMcpServer, byAgent, byEffort };
};

const ALL = deduped(entries());
const t = suite('cost by cause');

t('the fixture holds what the suite means to test', () => {
  assert.is(entries().length - ALL.length, 3, 'a streaming copy in one file and two responses replayed by a resumed session');
  assert.is(ALL.length, 13);
  const names = (k: keyof Entry['cause']) => [...new Set(ALL.map((e) => e.cause[k] ?? 'DIRECT'))].sort();
  assert.equal(names('skill'), ['DIRECT', 'gns-cowork:gns-bootstrap', 'pdf', 'review']);
  assert.equal(names('mcpServer'), ['DIRECT', 'github', 'linear']);
  assert.equal(names('agentType'), ['DIRECT', 'Explore', 'statusline-setup']);
  assert.equal(names('effort'), ['DIRECT', 'high', 'low', 'medium', 'ultracode', 'xhigh']);
});

t('every breakdown equals the sums of its messages and adds up to the totals: a month, cut hours, a project', async () => {
  const { dir, cleanup } = tempDir('causes-');
  const idx = await indexDir(CAUSES_PROJECTS, { file: path.join(dir, 'index.db') });
  try {
    const o = idx.queries.overview(month());
    assert.is(o.totals.messages, 13);
    const c = causesOf(idx, month());
    check(c, ALL, o.totals, prices, 'month');
    // What a reader of the answer sees, spelled out once.
    assert.equal(c.bySkill.map((r) => [r.name, r.messages]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      [['gns-cowork:gns-bootstrap', 1], [null, 9], ['pdf', 1], ['review', 2]]);
    const github = c.byMcpServer.find((s) => s.name === 'github')!;
    assert.equal(github.tools.map((x) => x.name).sort(), ['create_issue', 'list_pull_requests', 'search_code']);
    assert.equal(c.byMcpServer.find((s) => s.name === 'linear')!.tools.map((x) => [x.name, x.messages]), [[null, 1]], 'a server named without its tool');
    assert.equal(c.byMcpServer.find((s) => s.name === null)!.tools, [], 'direct has no tools');
    assert.is(c.byAgent.find((r) => r.name === 'Explore')!.messages, 2);
    assert.ok(c.byEffort.every((r, i) => i === 0 || r.cost <= c.byEffort[i - 1]!.cost), 'most expensive first');

    // A local day cuts UTC hours at both ends: those edges read the messages (18:05 is in, 18:20 is the next day's).
    const day = ALL.filter((e) => e.ts >= DAY16.range.fromMs && e.ts < DAY16.range.toMs);
    assert.ok(day.some((e) => e.ts === utc('2026-11-16T18:05:00')) && ALL.some((e) => e.ts === utc('2026-11-16T18:20:00')), 'entries on both sides of the edge');
    check(causesOf(idx, DAY16), day, idx.queries.overview(DAY16).totals, prices, 'a local day');
    // A rolling range reads whole UTC hours, as every figure of the answer does (calendar/resolve.ts rangeSpan).
    const [from, to] = [utc('2026-11-16T09:30:00'), utc('2026-11-17T14:30:00')];
    const hours = ALL.filter((e) => e.ts >= Math.ceil(from / HOUR_MS) * HOUR_MS && e.ts < Math.ceil(to / HOUR_MS) * HOUR_MS);
    check(causesOf(idx, rolling(from, to)), hours, idx.queries.overview(rolling(from, to)).totals, prices, 'a rolling range');

    const docs = month('-home-dev-docs');
    check(causesOf(idx, docs), ALL.filter((e) => e.project === '-home-dev-docs'), idx.queries.overview(docs).totals, prices, 'a project');
    assert.equal(causesOf(idx, month('-nope')), { bySkill: [], byMcpServer: [], byAgent: [], byEffort: [] }, 'an unknown project');

    // A reprice of one model rebuilds its rows of the rollup: the breakdowns follow the new prices.
    const dearer = structuredClone(catalogue) as Record<string, Record<string, number>>;
    const haiku = dearer['claude-haiku-4-5-20251001']!;
    for (const k of Object.keys(haiku)) if (k.endsWith('_cost_per_token')) haiku[k] = haiku[k]! * 3;
    const repriced = PriceTable.fromCatalogue(dearer, 'dearer');
    idx.setPrices(repriced);
    const after = idx.queries.overview(month());
    assert.ok(after.totals.cost > o.totals.cost, 'the reprice took');
    check(causesOf(idx, month()), ALL, after.totals, repriced, 'after a reprice');
  } finally {
    idx.close();
    cleanup();
  }
});

t('the direct part is the range\'s totals as the answer sums them, not the hourly totals read again', async () => {
  const { dir, cleanup } = tempDir('causes-direct-');
  const file = path.join(dir, 'index.db');
  (await indexDir(CAUSES_PROJECTS, { file })).close();
  const reader = openIndexReader(file, { prices: () => prices });
  const db = new Database(file);
  try {
    const before = [causesOf(reader, month()), causesOf(reader, DAY16)];
    check(before[0]!, ALL, reader.queries.overview(month()).totals, prices, 'month');
    // usage_hourly_model's rows made wrong: a day range's answer sums the local days (usage_daily), and so does its
    // direct part; one that read the hours' totals again would follow these rows.
    db.prepare('UPDATE usage_hourly_model SET messages = messages + 5, output = output + 5, cost = cost + 1').run();
    assert.equal([causesOf(reader, month()), causesOf(reader, DAY16)], before);
  } finally {
    db.close();
    reader.close();
    cleanup();
  }
});

t('an index from before the causes migrates with every row direct; what is read next keeps its causes', async () => {
  const { dir, cleanup } = tempDir('causes-v13-');
  const file = path.join(dir, 'index.db');
  try {
    (await indexDir(CAUSES_PROJECTS, { file })).close();
    const db = new Database(file);
    db.exec(`BEGIN; ${UNDO_CAUSES} PRAGMA user_version = ${versionBefore(CAUSES_MIGRATION)}; COMMIT;`);
    db.close();
    const idx = openIndex(file, { log: () => {} });
    try {
      idx.setPrices(prices);
      const o = idx.queries.overview(month());
      const c = causesOf(idx, month());
      const direct = ALL.map((e) => ({ ...e, cause: { skill: null, mcpServer: null, mcpTool: null, agentType: null, effort: null } }));
      check(c, direct, o.totals, prices, 'migrated');
      assert.equal(c.bySkill.map((r) => r.name), [null]);
    } finally {
      idx.close();
    }
    // The files are read again from scratch into a new index: their causes come back.
    const again = await indexDir(CAUSES_PROJECTS, { file: path.join(dir, 'new.db') });
    try {
      check(causesOf(again, month()), ALL, again.queries.overview(month()).totals, prices, 'a new index');
    } finally {
      again.close();
    }
  } finally {
    cleanup();
  }
});

t('a damaged index is rebuilt with every message\'s causes and their names', async () => {
  const { dir, cleanup } = tempDir('causes-damaged-');
  const file = path.join(dir, 'index.db');
  try {
    (await indexDir(CAUSES_PROJECTS, { file })).close();
    const NAMES = "SELECT json_group_array(id || ' ' || name) FROM (SELECT id, name FROM causes ORDER BY id)";
    const names = sqlValue(file, NAMES) as string;
    assert.is((JSON.parse(names) as string[]).length, 15, 'three skills, two servers, three tools, two agent types, five efforts');
    // Killed while writing (the next open checks the file), and the page of the causes' rollup went bad.
    const db = new Database(file);
    db.exec("UPDATE meta SET value = '1' WHERE key = 'open'");
    db.close();
    damagePage(file, rootPage(file, 'usage_hourly_cause'));
    const idx = openIndex(file, { log: () => {} });
    try {
      idx.setPrices(prices);
      assert.ok(idx.recovered(), 'recovered from the damage');
      assert.is(sqlValue(file, NAMES), names, 'the names carried, under their ids');
      check(causesOf(idx, month()), ALL, idx.queries.overview(month()).totals, prices, 'recovered');
    } finally {
      idx.close();
    }
  } finally {
    cleanup();
  }
});

t.run();
