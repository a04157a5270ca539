// The session rows of a range with partial UTC hours at its edges (a :30 or :45 zone: India, Iran, Nepal, parts of
// Australia, Newfoundland) read those hours' entries one edge at a time through the (file_id, ts) index. With both
// edges' times ORed in one condition SQLite scanned every message for each answer (~0.5 s at 10 GiB, even for an
// empty today). The plan must not scan `messages`, and the cells must be the ones the ORed read gave, to the last bit.
// Real SQLite file.
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { cellsSql, createSessionCosts, SESSION_COSTS_SQL } from '../../src/index-db/queries/session-rows.ts';
import { coversMost, spanFiles, spanHours } from '../../src/index-db/queries/span-files.ts';
import type { FileRole } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { sequence } from '../helpers/sequence.ts';

const { dir } = tempDir('session-edges-');
const file = path.join(dir, 'e.db');
const HOUR = 3_600_000;
const START = Date.UTC(2026, 8, 1);
const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-5-20251101', 'claude-haiku-4-5-20251001'];
const next = sequence(7);

const idx = openIndex(file, { log: () => {} });
idx.setPrices(PriceTable.builtin());
for (let p = 0; p < 4; p++) {
  const project = `-home-u-p${p}`;
  for (let s = 0; s < 5; s++) {
    for (const agent of [null, `a${p}${s}`]) {
      const role: FileRole = { project, session: `s${p}-${s}`, agentId: agent, agentType: null, agentDescription: null };
      const rows = Array.from({ length: 60 }, (_, i) => ({
        ts: START + next(48) * HOUR + next(HOUR), messageId: `m${p}-${s}-${agent}-${i}`, requestId: `r${p}-${s}-${agent}-${i}`,
        model: MODELS[next(MODELS.length)]!, input: 1 + next(99_991), output: 1 + next(9_973), cacheRead: next(999_983), sidechain: agent !== null,
      }));
      const f = path.join(dir, 'projects', project, agent ? `s${p}-${s}/subagents/agent-${agent}.jsonl` : `s${p}-${s}.jsonl`);
      idx.applyBatch(batchOf(f, rows), role, 6000, 1);
    }
  }
}
idx.close();

const SUMS = 'project_id, session_id, model_id, sub, sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read), sum(cost), min(first_ts), max(last_ts)';
const GROUP = 'project_id, session_id, model_id, sub';
const IN_SCOPE = 'project_id IN (SELECT value FROM json_each(@ps))';
/** The read it replaced: both edges' files in one list, their times ORed. */
const edgeFiles = `${spanFiles('?', '?', `AND ${IN_SCOPE}`)} UNION ALL ${spanFiles('?', '?', `AND ${IN_SCOPE}`)}`;
const ORED = `SELECT ${SUMS} FROM (
    SELECT project_id, session_id, model_id, sub, messages, input, output, cache_create, cache_read, cost, first_ts, last_ts
      FROM usage_hourly WHERE hour >= ? AND hour < ? AND ${IN_SCOPE}
    UNION ALL
    SELECT project_id, session_id, model_id, agent_id IS NOT NULL, 1, input, output, cache_create, cache_read, cost, ts, ts
      FROM messages WHERE file_id IN (${edgeFiles}) AND (ts >= ? AND ts < ? OR ts >= ? AND ts < ?) AND ${IN_SCOPE})
  GROUP BY ${GROUP}`;

/** The steps of a statement's query plan. */
function planOf(db: Database.Database, sql: string, args: unknown[]): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail);
}

const t = suite('session rows at a :30 zone\'s edges');

t('each edge is read through the (file_id, ts) index; the cells are the ORed read\'s to the last bit', () => {
  const db = new Database(file, { readonly: true });
  try {
    const sql = cellsSql(SUMS, GROUP, false).edges;
    const ps = { ps: JSON.stringify(db.prepare('SELECT id FROM projects').pluck().all()) };
    let compared = 0;
    for (const [first, last] of [[3, 20], [10, 11], [0, 47], [30, 46]] as const) {
      const a: [number, number] = [START + (first - 1) * HOUR + HOUR / 2, START + first * HOUR];
      const b: [number, number] = [START + last * HOUR, START + last * HOUR + HOUR / 2];
      const now = [START / HOUR + first, START / HOUR + last, ...spanHours(...a), ...a, ...spanHours(...b), ...b, ps];
      const ored = [START / HOUR + first, START / HOUR + last, ...spanHours(...a), ...spanHours(...b), ...a, ...b, ps];
      const got = db.prepare(sql).raw(true).all(...now);
      assert.equal(got, db.prepare(ORED).raw(true).all(...ored), `hours ${first}-${last}`);
      compared += got.length;
      const plan = planOf(db, sql, now);
      assert.not.ok(plan.some((d) => d.startsWith('SCAN messages')), plan.join('; '));
      assert.ok(planOf(db, ORED, ored).some((d) => d.startsWith('SCAN messages')), 'the ORed read scanned every message');
    }
    assert.ok(compared > 100, `${compared} cells compared`);
    // The edges' entries count: a cell of an edge hour alone exists.
    const edgeOnly = db.prepare(sql).raw(true).all(START / HOUR + 5, START / HOUR + 5, ...spanHours(START + 4.5 * HOUR, START + 5 * HOUR),
      START + 4.5 * HOUR, START + 5 * HOUR, 0, 0, 0, 0, 0, 0, ps) as number[][];
    assert.ok(edgeOnly.length > 0 && edgeOnly.every((c) => c[4]! >= 1));
  } finally {
    db.close();
  }
});

t('each session\'s cost over most of the history: by the session index or all time less the hours before, the edges\' entries added apart', () => {
  const db = new Database(file, { readonly: true });
  try {
    const pids = db.prepare('SELECT id FROM projects').pluck().all() as number[];
    const costs = createSessionCosts(db);
    const last = db.prepare('SELECT max(hour) FROM usage_hourly').pluck().get() as number;
    assert.is(last, START / HOUR + 47);
    let compared = 0;
    // [how, first hour, end hour]: the all-time reads reach past the last hour (48 on).
    const cases = [['index', 3, 47], ['index', 1, 40], ['index', 0, 48], ['total', 3, 60], ['total', 20, 60], ['total', 0, 60]] as const;
    for (const [read, first, end] of cases) {
      const edges: [number, number][] = [
        [START + (first - 1) * HOUR + HOUR / 2, START + first * HOUR],
        [START + end * HOUR, START + end * HOUR + HOUR / 2],
      ];
      const hours = { from: START / HOUR + first, to: START / HOUR + end, edges };
      const sorted = new Map(costs(pids, hours, 'part'));
      const got = costs(pids, hours, read);
      assert.equal(got.map(([id]) => id).sort(), [...sorted.keys()].sort(), `${read} ${first}-${end}: the same sessions`);
      for (const [id, cost] of got) {
        const want = sorted.get(id)!;
        assert.ok(Math.abs(cost - want) <= 1e-12 * Math.max(1, want), `${read} ${first}-${end}, session ${id}: ${cost} vs ${want}`);
      }
      compared += got.length;
      // Some folders only.
      const two = pids.slice(0, 2);
      assert.equal(new Map(costs(two, hours, read)).size, new Map(costs(two, hours, 'part')).size, `${read} ${first}-${end}: two folders`);
    }
    assert.ok(compared >= 6 * 15, `${compared} sessions compared`);
    // A session whose usage all lies before the range is not listed with a cost of a rounding.
    const late = (from: number) => ({ from: START / HOUR + from, to: START / HOUR + 60, edges: [] });
    assert.equal(costs(pids, late(48), 'total'), []);
    assert.equal(costs(pids, late(47), 'total').map(([id]) => id).sort(), costs(pids, late(47), 'part').map(([id]) => id).sort());
    // Neither read sorts the hourly rows nor scans the messages.
    const ps = { ps: JSON.stringify(pids) };
    const plan = (sql: string, args: unknown[]): string => planOf(db, sql, args).join('; ');
    const indexed = plan(SESSION_COSTS_SQL.index, [0, 1e9, ps]);
    assert.ok(indexed.includes('SCAN usage_hourly USING COVERING INDEX usage_hourly_session') && !indexed.includes('TEMP B-TREE'), indexed);
    const edgeRows = plan(SESSION_COSTS_SQL.edges, [...spanHours(START, START + HOUR / 2), START, START + HOUR / 2, 0, 0, 0, 0, 0, 0, ps]);
    assert.not.ok(edgeRows.includes('SCAN messages'), edgeRows);
    const total = plan(SESSION_COSTS_SQL.total, [ps]);
    assert.ok(total.includes('SEARCH cost_total_session USING PRIMARY KEY (project_id=?)') && !total.includes('TEMP B-TREE'), total);
    const before = plan(SESSION_COSTS_SQL.before, [{ ...ps, from: START / HOUR + 3 }]);
    assert.ok(before.includes('SEARCH usage_hourly USING PRIMARY KEY (hour<?)'), before);
  } finally {
    db.close();
  }
});

t('most of the history: at least half of its hours', () => {
  assert.ok(coversMost(0, 100, 0, 99), 'all of it');
  assert.ok(coversMost(50, 1000, 0, 99), 'its second half');
  assert.not.ok(coversMost(51, 1000, 0, 99), 'less than half');
  assert.ok(coversMost(-10, 50, 0, 99), 'its first half');
  assert.not.ok(coversMost(200, 300, 0, 99), 'after it');
  assert.not.ok(coversMost(20, 60, 0, 99), 'two fifths in the middle');
});

t.run();
