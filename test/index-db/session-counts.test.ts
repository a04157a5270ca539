// The distinct sessions per project of a range (queries/reader.ts sessionCounts), which every overview and projects
// answer counts: a range of more than a month reads sessions_daily through its declared index (sessions_daily_project,
// migration 019), whose plan must use that index alone and sort nothing (the two sorts a year cost at 10 GiB); a few
// days read the primary key's range of days. Both give the counts of the table itself, for every project, one and
// several, and in a zone other than the rollups' (rows derived from the messages, no index). Real SQLite file.
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { Reader } from '../../src/index-db/queries/reader.ts';
import { ROLLUPS } from '../../src/index-db/schema/rollups.ts';
import { LocalClock } from '../../src/index-db/time.ts';
import type { FileRole } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { sequence } from '../helpers/sequence.ts';

const { dir } = tempDir('session-counts-');
const file = path.join(dir, 's.db');
const HOUR = 3_600_000;
const START = Date.UTC(2026, 6, 1);
const INDEX = ROLLUPS.sessions_daily.index.name;

const next = sequence(7);

// 8 projects x 6 sessions, each with lines over 90 days, some sessions over a few days only.
const idx = openIndex(file, { log: () => {} });
idx.setPrices(PriceTable.builtin());
for (let p = 0; p < 8; p++) {
  for (let s = 0; s < 6; s++) {
    const role: FileRole = { project: `-home-u-p${p}`, session: `s${p}-${s}`, agentId: null, agentType: null, agentDescription: null };
    const days = s % 2 ? 3 : 90;
    const first = next(90 - 3) * 24;
    const rows = Array.from({ length: 25 }, (_, i) => ({ ts: START + (first + next(days * 24)) * HOUR + next(HOUR), messageId: `m${p}-${s}-${i}`, requestId: `r${p}-${s}-${i}` }));
    idx.applyBatch(batchOf(path.join(dir, 'projects', role.project, `${role.session}.jsonl`), rows), role, 2500, 1);
  }
}
idx.close();

const db = new Database(file, { readonly: true });
const prepared: string[] = [];
const prepare = db.prepare.bind(db);
db.prepare = ((sql: string) => (prepared.push(sql), prepare(sql))) as typeof db.prepare;
const reader = new Reader(db);
const dayOf = (ms: number): number => Math.floor(ms / 86_400_000);
const first = dayOf(START);
const pids = db.prepare('SELECT id FROM projects ORDER BY id').pluck().all() as number[];
const SCOPES = [null, [pids[2]!], [pids[1]!, pids[4]!, pids[6]!]];
const SPANS: [number, number][] = [[first + 10, first + 11], [first + 20, first + 27], [first + 5, first + 36], [first + 5, first + 37], [first, first + 60], [first - 400, first + 400]];

/** The table's own counts, read without any index. */
function counted(from: number, to: number, scope: number[] | null): Map<number, number> {
  const where = scope ? ` AND project_id IN (${scope.join(',')})` : '';
  return new Map(db.prepare(`SELECT project_id, count(DISTINCT session_id) FROM sessions_daily NOT INDEXED WHERE day >= ? AND day < ?${where} GROUP BY project_id`).raw(true).all(from, to) as [number, number][]);
}
const sorted = (m: Map<number, number>): [number, number][] => [...m].sort((a, b) => a[0] - b[0]);

const t = suite('distinct sessions per project');

t('a long range reads sessions_daily through its index alone and sorts nothing; a few days by their range', () => {
  for (const scope of SCOPES) reader.sessionCounts({ unit: 'day', from: first, to: first + 60 }, scope);
  const long = prepared.filter((sql) => sql.includes(`INDEXED BY ${INDEX}`));
  assert.is(long.length, 3, 'every project, one and several');
  for (const sql of long) {
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(first, first + 60, { p: '[1,2]' }) as { detail: string }[]).map((r) => r.detail);
    // every project: a scan of the index; one project: a search of its part of it
    assert.ok(plan.some((d) => /^(SCAN|SEARCH) sessions_daily USING COVERING INDEX /.test(d) && d.includes(INDEX)), plan.join('; '));
    assert.not.ok(plan.some((d) => d.includes('TEMP B-TREE')), `no sort: ${plan.join('; ')}`);
  }
  prepared.length = 0;
  reader.sessionCounts({ unit: 'day', from: first + 20, to: first + 27 }, null);
  const short = prepared.find((sql) => sql.includes('sessions_daily'))!;
  const plan = (db.prepare(`EXPLAIN QUERY PLAN ${short}`).all(first + 20, first + 27) as { detail: string }[]).map((r) => r.detail);
  assert.ok(plan.some((d) => d.startsWith('SEARCH sessions_daily USING PRIMARY KEY (day>? AND day<?)')), plan.join('; '));
});

t('every range, short and long, counts what the table holds, for every scope', () => {
  for (const [from, to] of SPANS) {
    for (const scope of SCOPES) {
      const want = counted(from, to, scope);
      assert.equal(sorted(reader.sessionCounts({ unit: 'day', from, to }, scope)), sorted(want), `days ${from - first}..${to - first} ${JSON.stringify(scope)}`);
    }
  }
  assert.ok(sum(counted(first, first + 60, null)) > sum(counted(first + 20, first + 27, null)), 'the ranges differ');
});

t('in another zone (rows derived from the messages) a long range counts the local days of that zone', () => {
  const before = process.env.TZ;
  process.env.TZ = 'Asia/Kolkata';
  try {
    const clock = new LocalClock();
    const rows = db.prepare('SELECT ts, project_id, session_id FROM messages').raw(true).all() as [number, number, number][];
    for (const [from, to] of SPANS) {
      const want = new Map<number, Set<number>>();
      for (const [ts, p, s] of rows) {
        const day = Math.floor(clock.lhour(ts) / 24);
        if (day < from || day >= to) continue;
        if (!want.has(p)) want.set(p, new Set());
        want.get(p)!.add(s);
      }
      const got = reader.sessionCounts({ unit: 'day', from, to }, null);
      assert.equal(sorted(got), sorted(new Map([...want].map(([p, set]) => [p, set.size]))), `days ${from - first}..${to - first}`);
    }
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
});

function sum(m: Map<number, number>): number {
  let s = 0;
  for (const v of m.values()) s += v;
  return s;
}

t.after(() => {
  db.close();
});
t.run();
