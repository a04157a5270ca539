// Issue 32's price rules through the real pipeline, over a hand-written config dir (test/fixtures/price-rules): US-only
// inference x 1.1 (not a line's own costUSD), cache writes from the breakdown, web fetches counted and not priced,
// advisor iterations as rows of their own model deduplicated part by part, also in a progress line, a `[1m]` suffix
// not part of the model. The expected figures are worked out here from the catalogue's numbers, not by the pricing
// code. Then the rows keep what a reprice, a reset file (an alternate promoted) and a recovery need, and an index of
// schema v12 migrates.
process.env.TZ = 'UTC';

import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { SCHEMA_VERSION } from '../../src/index-db/migrate.ts';
import { sql as PRICE_RULES_MIGRATION } from '../../src/index-db/migrations/013-price-rules.ts';
import { recoverFile } from '../../src/index-db/recovery.ts';
import type { IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import type { RangeInfo } from '../../src/shared/api-types.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { UNDO_CAUSES, versionBefore } from '../helpers/schema-undo.ts';
import { BEFORE_013, openKeyed } from '../helpers/sqlite.ts';
import { indexDir } from '../helpers/pipeline.ts';
import { PRICES_FILE, ROOT } from '../helpers/paths.ts';

const SOURCE = path.join(ROOT, 'test/fixtures/price-rules/projects');
const S2 = 'a1b2c3d4-0000-4000-8000-000000000002';
type Catalogue = Record<string, Record<string, number>>;
const catalogue = (): Catalogue => JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Catalogue;

const NOV: RangeInfo = { from: '2026-11-01', to: '2026-11-30', fromMs: Date.UTC(2026, 10, 1), toMs: Date.UTC(2026, 11, 1), bucket: 'day', kind: 'month', days: null };
const scope: QueryScope = { range: NOV, project: null, now: Date.UTC(2026, 10, 20) };

interface Tok { input?: number; output?: number; read?: number; w5m?: number; w1h?: number; searches?: number }
/** A request's cost from the catalogue's own numbers: tokens x prices, x fast, + $0.01 a search, all x 1.1 when US-only. */
function priced(c: Catalogue, model: string, t: Tok, o: { fast?: number; us?: boolean } = {}): number {
  const p = c[model]!;
  const tokens = (t.input ?? 0) * p.input_cost_per_token! + (t.output ?? 0) * p.output_cost_per_token!
    + (t.read ?? 0) * p.cache_read_input_token_cost! + (t.w5m ?? 0) * p.cache_creation_input_token_cost!
    + (t.w1h ?? 0) * p.cache_creation_input_token_cost_above_1hr!;
  const cost = tokens * (o.fast ?? 1) + (t.searches ?? 0) * 0.01;
  return o.us ? cost * 1.1 : cost;
}

/** Each model's messages and cost over the fixture, by the rules (the fixture's lines, one by one, in the comments). */
function expected(c: Catalogue): Record<string, [number, number]> {
  // L1: US-only, cache writes only in the breakdown (2000 5m + 1000 1h), 2 searches, 3 fetches (no fee)
  const l1 = priced(c, 'claude-sonnet-4-6', { input: 1000, output: 500, w5m: 2000, w1h: 1000, searches: 2 }, { us: true });
  const progressTop = priced(c, 'claude-sonnet-4-6', { input: 10, output: 10 });
  const l5Top = priced(c, 'claude-sonnet-4-6', { input: 20, output: 20 });
  const l6 = priced(c, 'claude-sonnet-4-6', { input: 30, output: 30 }); // served as claude-sonnet-4-6[1m]: the same model
  const l2Top = priced(c, 'claude-fable-5-1', { input: 100, output: 50 }); // beats the resumed session's copy (30 out)
  const l2Advisor1 = priced(c, 'claude-fable-5-1', { input: 300, output: 60 }); // no model of its own: the response's
  // the resumed session's copy of the first advisor part has more output (500 > 400): it wins; fast x the catalogue's 2
  const advisor0 = priced(c, 'claude-opus-4-8', { input: 2000, output: 500, read: 10_000 }, { fast: OPUS_48_FAST });
  const l5Advisor = priced(c, 'claude-opus-4-8', { input: 100, output: 10 });
  const l4 = 0.25; // its own costUSD: final, US-only or not
  const progressAdvisor = priced(c, 'claude-haiku-4-5', { input: 100, output: 100 });
  const l7 = priced(c, 'claude-haiku-4-5', { input: 1000, output: 100 }, { fast: ESTIMATED_FAST }); // no known multiplier
  return {
    'claude-sonnet-4-6': [4, l1 + progressTop + l5Top + l6],
    'claude-fable-5-1': [2, l2Top + l2Advisor1],
    'claude-opus-4-8': [2, advisor0 + l5Advisor],
    'claude-haiku-4-5': [3, l4 + progressAdvisor + l7],
  };
}

/** The catalogue's `provider_specific_entry.fast` of claude-opus-4-8 (checked in the first test). */
const OPUS_48_FAST = 2;
/** Issue 32 rule 4: a fast entry on a model with no known multiplier (Haiku) is priced at 2, as an estimate. */
const ESTIMATED_FAST = 2;

const near = (a: number, b: number, what: string): void => assert.ok(Math.abs(a - b) < 1e-12, `${what}: ${a} != ${b}`);

function assertModels(idx: Pick<IndexDb, 'queries'>, c: Catalogue, what: string): void {
  const o = idx.queries.overview(scope);
  const want = expected(c);
  assert.equal(o.costByModel.map((m) => m.model).sort(), Object.keys(want).sort(), `${what}: the models`);
  for (const m of o.costByModel) {
    assert.is(m.messages, want[m.model]![0], `${what}: ${m.model} messages`);
    near(m.cost, want[m.model]![1], `${what}: ${m.model} cost`);
  }
  near(o.totals.cost, Object.values(want).reduce((s, [, cost]) => s + cost, 0), `${what}: total cost`);
  assert.is(o.totals.messages, 11, `${what}: messages`);
  assert.equal([o.totals.webSearchRequests, o.totals.webFetchRequests], [2, 3], `${what}: web searches and fetches`);
  const sonnet = o.costByModel.find((m) => m.model === 'claude-sonnet-4-6')!;
  assert.equal([sonnet.webSearchRequests, sonnet.webFetchRequests], [2, 3], `${what}: the model row's`);
  assert.ok(o.costByModel.filter((m) => m !== sonnet).every((m) => m.webSearchRequests === 0 && m.webFetchRequests === 0));
  assert.equal(o.estimatedFastModels.map((m) => [m.model, m.messages, m.multiplier]), [['claude-haiku-4-5', 1, ESTIMATED_FAST]],
    `${what}: the fast Haiku entry is an estimate, the fast Opus 4.8 advisor part is not`);
  near(o.estimatedFastModels[0]!.cost, priced(c, 'claude-haiku-4-5', { input: 1000, output: 100 }, { fast: ESTIMATED_FAST }), `${what}: its cost`);
}

/** The stored copies' flags and fetches: [key, model, geo, advisor, web_fetch, cost] of messages and alternates. */
function stored(file: string): { messages: unknown[][]; alternates: unknown[][]; fetches: number[] } {
  const db = openKeyed(file, { readonly: true });
  try {
    const rows = (t: string) => db.prepare(`SELECT unpack_key(t.stored_key) AS key, d.name, t.geo, t.advisor, t.web_fetch, t.cost FROM ${t} t JOIN models d ON d.id = t.model_id
      ORDER BY key, t.off`).raw().all() as unknown[][];
    const fetches = ['messages', 'usage_hourly', 'usage_hourly_model', 'usage_daily', 'usage_daily_all', 'usage_total']
      .map((t) => db.prepare(`SELECT coalesce(sum(web_fetch), 0) FROM ${t}`).pluck().get() as number);
    return { messages: rows('messages'), alternates: rows('alternates'), fetches };
  } finally {
    db.close();
  }
}

const flags = (rows: unknown[][]): unknown[][] => rows.map((r) => [String(r[0]).replace(/^f\d+ /, 'f '), r[1], r[2], r[3], r[4]]);

const t = suite('price rules in the index');
const { dir, cleanup } = tempDir('price-rules-');

t('overview per model: US-only, breakdown cache writes, advisor rows and their dedup, a line\'s own cost', async () => {
  assert.is((catalogue()['claude-opus-4-8'] as unknown as { provider_specific_entry: { fast: number } }).provider_specific_entry.fast, OPUS_48_FAST);
  const file = path.join(dir, 'rules.db');
  const idx = await indexDir(SOURCE, { file });
  try {
    assertModels(idx, catalogue(), 'indexed');
    const day16: RangeInfo = { ...NOV, from: '2026-11-16', to: '2026-11-16', fromMs: Date.UTC(2026, 10, 16), toMs: Date.UTC(2026, 10, 17), kind: 'custom' };
    assert.equal(idx.queries.overview({ ...scope, range: day16 }).estimatedFastModels, [], 'a range without the fast entry');
    assert.is(idx.queries.overview({ ...scope, project: '-home-dev-shop' }).estimatedFastModels.length, 1, 'its project');
    assert.equal(idx.queries.overview({ ...scope, project: '-home-dev-other' }).estimatedFastModels, [], 'another project');
  } finally {
    idx.close();
  }
  const s = stored(file);
  const byKey = new Map(s.messages.map((r) => [String(r[0]), r]));
  assert.equal(byKey.get('rmsg_01L1 req_011CL1')!.slice(1, 5), ['claude-sonnet-4-6', 1, 0, 3], 'L1: US-only, 3 fetches');
  assert.equal(byKey.get('rmsg_01L4 req_011CL4')!.slice(1, 4), ['claude-haiku-4-5', 1, 0], 'L4: US-only');
  assert.equal(byKey.get('rmsg_01L2:advisor:0 req_011CL2')!.slice(1, 4), ['claude-opus-4-8', 0, 1]);
  assert.equal(byKey.get('rmsg_01L2:advisor:1 req_011CL2')!.slice(1, 4), ['claude-fable-5-1', 0, 1]);
  assert.equal(byKey.get('rmsg_01N1:advisor:0 req_011CN1')!.slice(1, 4), ['claude-haiku-4-5', 0, 1], 'the progress line\'s advisor part');
  const noId = s.messages.filter((r) => String(r[0]).startsWith('f'));
  assert.equal(noId.map((r) => [r[1], r[3]]), [['claude-sonnet-4-6', 0], ['claude-opus-4-8', 1]], 'a line without ids: both rows count');
  assert.equal(flags(s.alternates).map((r) => r.slice(0, 4)), [
    ['rmsg_01L2 req_011CL2', 'claude-fable-5-1', 0, 0], // the resumed session's top-level copy (30 output)
    ['rmsg_01L2:advisor:0 req_011CL2', 'claude-opus-4-8', 0, 1], // the first session's advisor part (400 output)
    ['rmsg_01L2:advisor:1 req_011CL2', 'claude-fable-5-1', 0, 1], // the tie: the earlier file's copy stays
  ]);
  assert.equal(s.fetches, [3, 3, 3, 3, 3, 3], 'web fetches in the messages and every usage rollup');
});

t('a new catalogue reprices geo and advisor rows exactly, the alternates too', async () => {
  const file = path.join(dir, 'reprice.db');
  (await indexDir(SOURCE, { file })).close();
  const dearer = catalogue();
  dearer['claude-opus-4-8']!.output_cost_per_token! *= 3;
  dearer['claude-sonnet-4-6']!.input_cost_per_token! *= 2;
  dearer['claude-fable-5-1']!.output_cost_per_token! *= 5;
  const idx = openIndex(file, { log: () => {} });
  try {
    idx.setPrices(PriceTable.fromCatalogue(dearer, 'dearer'));
    idx.commit();
    assertModels(idx, dearer, 'repriced');
  } finally {
    idx.close();
  }
  const alt = stored(file).alternates.find((r) => r[0] === 'rmsg_01L2:advisor:0 req_011CL2')!;
  near(alt[5] as number, priced(dearer, 'claude-opus-4-8', { input: 2000, output: 400, read: 10_000 }, { fast: OPUS_48_FAST }), 'the losing advisor copy');
});

t('a reset file promotes its rows\' alternates with their flags; a recovery carries them', async () => {
  const file = path.join(dir, 'reset.db');
  (await indexDir(SOURCE, { file })).close();
  const idx = openIndex(file, { log: () => {} });
  idx.setPrices(PriceTable.fromCatalogue(catalogue(), 'fixture'));
  idx.resetFile(path.join(SOURCE, '-home-dev-shop', `${S2}.jsonl`));
  idx.commit();
  const o = idx.queries.overview(scope);
  const opus = o.costByModel.find((m) => m.model === 'claude-opus-4-8')!;
  near(opus.cost, priced(catalogue(), 'claude-opus-4-8', { input: 2000, output: 400, read: 10_000 }, { fast: OPUS_48_FAST })
    + priced(catalogue(), 'claude-opus-4-8', { input: 100, output: 10 }), 'the promoted advisor copy, fast as stored');
  idx.close();
  const before = stored(file);
  assert.ok(before.messages.some((r) => r[0] === 'rmsg_01L2:advisor:0 req_011CL2' && r[3] === 1), 'promoted as an advisor row');
  recoverFile(file);
  const after = stored(file);
  assert.equal(after.messages, before.messages, 'a recovery carries geo, advisor and web fetches');
  assert.equal(after.alternates, before.alternates);
});

t('an index of schema v12 migrates: its rows count no fetches and are neither US-only nor advisor rows', async () => {
  const file = path.join(dir, 'v12.db');
  (await indexDir(SOURCE, { file })).close();
  const db = new Database(file);
  // Later migrations' additions out too, so the file is what version 12 wrote.
  db.exec(`BEGIN; ${UNDO_CAUSES} ${BEFORE_013} PRAGMA user_version = ${versionBefore(PRICE_RULES_MIGRATION)}; COMMIT;`);
  const rows = db.prepare('SELECT count(*) FROM messages').pluck().get();
  db.close();
  const idx = openIndex(file, { log: () => {} });
  idx.setPrices(PriceTable.fromCatalogue(catalogue(), 'fixture'));
  idx.commit();
  idx.close();
  const s = stored(file);
  assert.is(s.messages.length, rows, 'every row kept');
  assert.ok(s.messages.every((r) => r[2] === 0 && r[3] === 0 && r[4] === 0));
  assert.equal(s.fetches, [0, 0, 0, 0, 0, 0]);
  const raw = new Database(file, { readonly: true });
  assert.is(raw.pragma('user_version', { simple: true }), SCHEMA_VERSION);
  raw.close();
});

t.after(cleanup);
t.run();
