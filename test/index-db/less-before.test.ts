// A year's or all time's sums of every project are read as all time less the days before the range (queries/
// less-before.ts): per project x model (`groups`, the overview) from usage_total, and per model x main/subagent
// (`modelGroups`, the insights) from usage_total_model (migration 024). Both must equal the days' own grouped rows
// (integers exactly, cost within a rounding), drop a model whose messages all lie before the range, and read no daily
// row of the range; a folder's range and a short range still read the days. Real SQLite file, in a zone of its own.
process.env.TZ = 'America/Denver';

import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { lessBefore } from '../../src/index-db/queries/less-before.ts';
import { ROLL_COL, Reader, type RollRow, type Span } from '../../src/index-db/queries/reader.ts';
import { dayOf, systemZone } from '../../src/calendar/zone.ts';
import type { FileRole } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { sequence } from '../helpers/sequence.ts';

const { dir } = tempDir('less-before-');
const file = path.join(dir, 'l.db');
const HOUR = 3_600_000;
const START = Date.UTC(2026, 3, 1);
const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-5-20251101', 'claude-haiku-4-5-20251001'];
/** Used on the history's first day only: all its messages lie before any later range. */
const EARLY = 'claude-3-5-haiku-20241022';
const next = sequence(11);

const idx = openIndex(file, { log: () => {} });
idx.setPrices(PriceTable.builtin());
for (let p = 0; p < 3; p++) {
  const project = `-home-u-p${p}`;
  for (const agent of [null, `a${p}`]) {
    const role: FileRole = { project, session: `s${p}`, agentId: agent, agentType: null, agentDescription: null };
    const rows = Array.from({ length: 200 }, (_, i) => ({
      ts: START + 24 * HOUR + next(120 * 24) * HOUR + next(HOUR), messageId: `m${p}-${agent}-${i}`, requestId: `r${p}-${agent}-${i}`,
      model: MODELS[next(MODELS.length)]!, input: 1 + next(99_991), output: 1 + next(9_973), cacheCreate: next(50_000), cacheRead: next(999_983),
      cache1h: next(2) * 1000, sidechain: agent !== null,
    }));
    if (agent === null) rows.push({ ts: START + next(HOUR), messageId: `early${p}`, requestId: `early${p}`, model: EARLY, input: 7, output: 7, cacheCreate: 0, cacheRead: 0, cache1h: 0, sidechain: false });
    const f = path.join(dir, 'projects', project, agent ? `s${p}/subagents/agent-${agent}.jsonl` : `s${p}.jsonl`);
    idx.applyBatch(batchOf(f, rows), role, 20_000, 1);
  }
}
idx.close();

const MODEL_COLS = `0, model_id, sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read), sum(cost), max(last_ts), sub, sum(cache_1h)`;
const GROUP_COLS = 'project_id, model_id, sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read), sum(cost), max(last_ts)';
/** The days' own grouped rows, as a short range reads them. */
const byDays = (db: Database.Database, span: Span, kind: 'groups' | 'models'): RollRow[] =>
  db.prepare(kind === 'models'
    ? `SELECT ${MODEL_COLS} FROM usage_daily_all WHERE day >= ? AND day < ? GROUP BY model_id, sub`
    : `SELECT ${GROUP_COLS} FROM usage_daily WHERE day >= ? AND day < ? GROUP BY project_id, model_id`).raw(true).all(span.from, span.to) as RollRow[];

/** The same rows: every integer exactly, the cost within a rounding. */
function assertSameRows(got: RollRow[], want: RollRow[], what: string): void {
  assert.is(got.length, want.length, `${what}: rows`);
  got.forEach((r, i) => {
    const w = want[i]!;
    assert.equal(r.filter((_, c) => c !== ROLL_COL.cost), w.filter((_, c) => c !== ROLL_COL.cost), `${what}: row ${i}`);
    assert.ok(Math.abs(r[ROLL_COL.cost]! - w[ROLL_COL.cost]!) < 1e-12 * Math.max(1, w[ROLL_COL.cost]!), `${what}: cost ${r[ROLL_COL.cost]} != ${w[ROLL_COL.cost]}`);
  });
}

const firstDay = dayOf(systemZone, START);
const lastDay = dayOf(systemZone, START + 122 * 24 * HOUR);
/** A year-like range (from the history's 10th day past its end), all time, and a short one (10 days). */
const LONG: Span = { unit: 'day', from: firstDay + 10, to: lastDay + 30 };
const ALL: Span = { unit: 'day', from: -1e8, to: 1e8 };
const SHORT: Span = { unit: 'day', from: firstDay + 50, to: firstDay + 60 };

const t = suite('less-before');

t('lessBefore: each key less its rows before, in the all-time order; a key with no message left dropped, one in two rows added', () => {
  const total = [[5, 1, 10, 2.5], [3, 0, 4, 1], [5, 1, 1, 0.25], [9, 0, 2, 0.5]];
  const before = [[3, 0, 4, 1], [9, 0, 1, 0.125], [7, 7, 7, 7]];
  assert.equal(lessBefore(total, before, { keys: [0, 1], messages: 2, sums: [2, 3] }), [[5, 1, 11, 2.75], [9, 0, 1, 0.375]]);
  assert.equal(lessBefore([[4, 6, 1], [4, 2, 1]], [[4, 3, 1]], { keys: [0], messages: 1, sums: [1, 2] }), [[4, 5, 1]]);
});

t('every project\'s year and all time: all time less the days before, equal to the days\' rows, the early model dropped', () => {
  const db = new Database(file, { readonly: true });
  try {
    const reader = new Reader(db);
    for (const [span, what] of [[LONG, 'a year'], [ALL, 'all time']] as const) {
      assertSameRows(reader.modelGroups(span, null), byDays(db, span, 'models'), `${what}: per model x main/subagent`);
      assertSameRows(reader.groups(span, null), byDays(db, span, 'groups'), `${what}: per project x model`);
    }
    const early = (db.prepare('SELECT id FROM models WHERE name = ?').pluck().get(EARLY)) as number;
    assert.ok(reader.modelGroups(ALL, null).some((r) => r[ROLL_COL.model] === early), 'all time holds the first day');
    assert.not.ok(reader.modelGroups(LONG, null).some((r) => r[ROLL_COL.model] === early), 'a range after it lists no row of it');
    assert.ok(reader.modelGroups(LONG, null).some((r) => r[ROLL_COL.sub] === 1) && reader.modelGroups(LONG, null).some((r) => r[ROLL_COL.sub] === 0));
  } finally {
    db.close();
  }
});

t('a long range reads the all-time rows, not its days\'; a folder\'s range and a short one read their days', () => {
  const db = new Database(file);
  try {
    const reader = new Reader(db);
    const pid = (db.prepare('SELECT id FROM projects ORDER BY id LIMIT 1').pluck().get()) as number;
    const was = { long: reader.modelGroups(LONG, null), folder: reader.modelGroups(LONG, [pid]), short: reader.modelGroups(SHORT, null) };
    db.prepare('UPDATE usage_daily_all SET input = input + 7 WHERE day >= ?').run(LONG.from);
    db.prepare('UPDATE usage_daily SET input = input + 7 WHERE day >= ?').run(LONG.from);
    assert.equal(reader.modelGroups(LONG, null), was.long, 'the year reads no daily row of its own');
    assert.not.equal(reader.modelGroups(LONG, [pid]), was.folder, 'a folder\'s year reads its days');
    assert.not.equal(reader.modelGroups(SHORT, null), was.short, 'ten days read their days');
    db.prepare('UPDATE usage_total_model SET output = output + 1').run();
    assert.equal(reader.modelGroups(LONG, null).map((r) => r[ROLL_COL.output]! - 1), was.long.map((r) => r[ROLL_COL.output]), 'the year follows the all-time rows');
  } finally {
    db.close();
  }
});

t.run();
