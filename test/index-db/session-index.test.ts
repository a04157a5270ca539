// The command line's sessions (queries/reports.ts SESSION_SQL) over most of the history read usage_hourly through its
// declared index (usage_hourly_session, migration 017): the plan must use that index alone, with no sort of the hourly
// rows (the slow read of issue 35), for every project and for a project's folders; over a shorter part the primary
// key's range of hours. And the figures must be those of the read it replaced (the table in its primary key order,
// sorted by session and model), to the last bit, after the writer has added to existing rows and after a reprice has
// changed every cost: SQLite keeps the index, no code of ours does. The Sessions view's cost per session over most of
// the history reads that index too, and the listed sessions' gone files are found by session. Real SQLite file.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { SESSION_SQL } from '../../src/index-db/queries/reports.ts';
import { GONE_SQL, SESSION_COSTS_SQL } from '../../src/index-db/queries/session-rows.ts';
import { ROLLUPS } from '../../src/index-db/schema/rollups.ts';
import type { FileRole, IndexDb } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { sequence } from '../helpers/sequence.ts';
import { PRICES_FILE } from '../helpers/paths.ts';

const { dir } = tempDir('session-index-');
const file = path.join(dir, 's.db');
const HOUR = 3_600_000;
const START = Date.UTC(2026, 8, 1);
const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-5-20251101', 'claude-haiku-4-5-20251001'];
const INDEX = ROLLUPS.usage_hourly.index.name;

const next = sequence(11);

/** `n` more lines in each session's file and its subagent's, spread over many hours, written from `at` on. */
function write(idx: IndexDb, round: number, n: number): void {
  for (let p = 0; p < 6; p++) {
    const project = `-home-u-p${p}`;
    for (let s = 0; s < 4; s++) {
      for (const agent of [null, `a${p}${s}`]) {
        const role: FileRole = { project, session: `s${p}-${s}`, agentId: agent, agentType: null, agentDescription: null };
        const rows = [];
        for (let i = 0; i < n; i++) {
          rows.push({
            ts: START + next(400) * HOUR + next(3_600_000), messageId: `m${p}-${s}-${agent}-${round}-${i}`, requestId: `r${p}-${s}-${agent}-${round}-${i}`,
            model: MODELS[next(MODELS.length)]!, input: 1 + next(99_991), output: 1 + next(9_973), cacheRead: next(999_983), cacheCreate: next(99_989),
            sidechain: agent !== null,
          });
        }
        const f = agent ? path.join(dir, 'projects', project, `s${p}-${s}`, 'subagents', `agent-${agent}.jsonl`) : path.join(dir, 'projects', project, `s${p}-${s}.jsonl`);
        idx.applyBatch(batchOf(f, rows, { from: round * n * 100 }), role, (round + 1) * n * 100, 1);
      }
    }
  }
}

/** The read the index replaced: the hourly rows in primary key order, sorted by session and model. */
const SORTED_SQL = SESSION_SQL.whole.replace(`INDEXED BY ${INDEX}`, 'NOT INDEXED');
const scoped = (sql: string): string => sql.replace(' GROUP BY', ' AND project_id IN (SELECT value FROM json_each(?)) GROUP BY');

const t = suite('session report: usage_hourly through its index');

const idx = openIndex(file, { log: () => {} });
idx.setPrices(PriceTable.builtin());
write(idx, 0, 30);
idx.close();

function withDb(run: (db: Database.Database) => void): void {
  const db = new Database(file, { readonly: true });
  try {
    run(db);
  } finally {
    db.close();
  }
}

t('the whole history: the plan reads the index alone and sorts nothing, for every project and for some', () => {
  withDb((db) => {
    const planOf = (sql: string, ...args: (number | string)[]): string[] =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail);
    for (const plan of [planOf(SESSION_SQL.whole, 0, 1e9), planOf(scoped(SESSION_SQL.whole), 0, 1e9, '[1,2]')]) {
      assert.ok(plan.some((d) => d === `SCAN usage_hourly USING COVERING INDEX ${INDEX}`), plan.join('; '));
      assert.not.ok(plan.some((d) => d.includes('TEMP B-TREE')), `no sort: ${plan.join('; ')}`);
    }
    // A part of the history: only its hours are read.
    const part = planOf(SESSION_SQL.part, START / HOUR, START / HOUR + 24);
    assert.ok(part.some((d) => d.startsWith('SEARCH usage_hourly USING PRIMARY KEY (hour>? AND hour<?)')), part.join('; '));
    // The Sessions view's costs per session over the whole history (session-rows.ts), for every project.
    const costs = planOf(SESSION_COSTS_SQL.index.replace(/@ps/g, "'[1,2]'"), 0, 1e9);
    assert.ok(costs.some((d) => d === `SCAN usage_hourly USING COVERING INDEX ${INDEX}`), costs.join('; '));
    assert.not.ok(costs.some((d) => d.includes('TEMP B-TREE')), `no sort: ${costs.join('; ')}`);
    // The read it replaced did sort: the test above would catch that read coming back.
    const old = (db.prepare(`EXPLAIN QUERY PLAN ${SORTED_SQL}`).all(0, 1e9) as { detail: string }[]).map((r) => r.detail);
    assert.ok(old.some((d) => d.includes('TEMP B-TREE FOR GROUP BY')), old.join('; '));
  });
});

t('whether the listed sessions\' files are gone: found by session, not by every session x folder pair', () => {
  withDb((db) => {
    const pids = db.prepare('SELECT id FROM projects').pluck().all() as number[];
    const ids = db.prepare('SELECT id FROM sessions').pluck().all() as number[];
    const named = { ps: JSON.stringify(pids), ids: JSON.stringify(ids.slice(0, 10)) };
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${GONE_SQL.few}`).all(named) as { detail: string }[]).map((r) => r.detail);
    assert.ok(plan.includes('SEARCH files USING INDEX files_session (session_id=?)'), plan.join('; '));
    // The same answer as the read of every session's, for those sessions, and for some of the folders.
    const few = (pids: number[]): unknown[] => db.prepare(GONE_SQL.few).raw(true).all({ ps: JSON.stringify(pids), ids: JSON.stringify(ids) });
    const all = (pids: number[]): unknown[] => db.prepare(GONE_SQL.all).raw(true).all({ ps: JSON.stringify(pids) });
    assert.equal(few(pids), all(pids));
    assert.ok(all(pids).length >= 24, 'every session');
    assert.equal(few(pids.slice(0, 2)), all(pids.slice(0, 2)));
    assert.ok(all(pids.slice(0, 2)).length < all(pids).length, 'two folders hold fewer');
  });
});

/** Both reads over the whole range, a part of it, and two projects' folders: equal to the last bit. */
function sameAsSorted(what: string): void {
  withDb((db) => {
    const hours = [[0, 1e9], [START / HOUR + 50, START / HOUR + 200]] as const;
    const pids = JSON.stringify(db.prepare('SELECT id FROM projects ORDER BY id LIMIT 2').pluck().all());
    for (const [from, to] of hours) {
      const sorted = db.prepare(SORTED_SQL).raw(true).all(from, to);
      assert.ok(sorted.length > 20, 'sessions x models');
      const sortedOfTwo = db.prepare(scoped(SORTED_SQL)).raw(true).all(from, to, pids);
      for (const sql of [SESSION_SQL.whole, SESSION_SQL.part]) {
        assert.equal(db.prepare(sql).raw(true).all(from, to), sorted, `${what}: hours ${from}-${to}`);
        assert.equal(db.prepare(scoped(sql)).raw(true).all(from, to, pids), sortedOfTwo, `${what}: two projects`);
      }
    }
  });
}

t('the figures are the sorted read\'s, to the last bit', () => sameAsSorted('first write'));

t('still after lines added to existing hours and a reprice of every cost', () => {
  const allCost = (): number => {
    let cost = 0;
    withDb((db) => (cost = db.prepare('SELECT sum(cost) FROM usage_hourly').pluck().get() as number));
    return cost;
  };
  const before = allCost();
  const again = openIndex(file, { log: () => {} });
  again.setPrices(PriceTable.builtin());
  write(again, 1, 20);
  // Another table (the fixture's catalogue): every stored cost is computed again, in place.
  again.setPrices(PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Record<string, unknown>, 'fixture'));
  again.finishReprice();
  again.close();
  assert.ok(Math.abs(allCost() - before) > 1, 'the reprice and the new lines changed the costs');
  withDb((db) => assert.is(db.pragma('integrity_check', { simple: true }), 'ok'));
  sameAsSorted('after more lines and a reprice');
});

t.run();
