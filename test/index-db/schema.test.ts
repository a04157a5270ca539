// The rollups' declaration (src/index-db/schema) against the real file: after every migration each declared rollup
// table has the declared columns (name, type, NOT NULL, primary key position), no index but its primary key and the
// declared one (its columns in order), no rowid, and no rollup table exists that is not declared. Then the SQL made
// from the declaration against the writer's own rollups: rebuilding every rollup from the messages (rebuildSql) yields
// the rows the writer folded batch by batch, in whole-hour and :45 zones, with tools, subagents, a replaced winner and
// a rewritten file. Real SQLite files.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { MEASURES } from '../../src/index-db/schema/measures.ts';
import { rebuildSql } from '../../src/index-db/schema/rollup-sql.ts';
import { columnsOf, KEY_TYPES, ROLLUPS, type Rollup } from '../../src/index-db/schema/rollups.ts';
import { HOUR_MS, LocalClock } from '../../src/index-db/time.ts';
import type { FileRole, IndexDb } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { PRICES_FILE } from '../helpers/paths.ts';

const prices = PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Record<string, unknown>, 'fixture');
const { dir } = tempDir('schema-');
const HAIKU = 'claude-haiku-4-5-20251001';
const OPUS = 'claude-opus-4-5-20251101';
const role = (project: string, session: string, agentId: string | null = null): FileRole =>
  ({ project, session, agentId, agentType: null, agentDescription: null });
const utc = (s: string): number => Date.parse(`${s}Z`);

/** The rollup tables' names as the file has them: every table of a rollup family. */
const ROLLUP_TABLE = /^(usage|tools|cost|sessions)_/;

const Shape = suite('schema: the declaration and the migrated file');

Shape('every declared rollup has its declared columns, primary key and no other index than the declared one; nothing else looks like a rollup', () => {
  const file = path.join(dir, 'shape.db');
  openIndex(file, { log: () => {} }).close();
  const db = new Database(file, { readonly: true });
  try {
    const declared = Object.values(ROLLUPS) as Rollup[];
    const tables = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[]).filter((t) => ROLLUP_TABLE.test(t));
    assert.equal(tables.sort(), declared.map((r) => r.table).sort(), 'the rollup tables');
    for (const r of declared) {
      // By name: statements name their columns, so a migration may add a measure's column at the end.
      const byName = (a: unknown[], b: unknown[]): number => String(a[0]).localeCompare(String(b[0]));
      const got = (db.prepare(`PRAGMA table_info(${r.table})`).all() as { name: string; type: string; notnull: number; pk: number }[])
        .map((c) => [c.name, c.type, c.notnull, c.pk]).sort(byName);
      const want = [
        ...r.keys.map((k, i) => [k, KEY_TYPES[k], 1, i + 1]),
        ...r.measures.map((m) => [m.column, m.type, m.nullable ? 0 : 1, 0]),
      ].sort(byName);
      assert.equal(got, want, `${r.table}: columns (name, type, NOT NULL, position in the primary key)`);
      const indexes = (db.prepare(`PRAGMA index_list(${r.table})`).all() as { name: string; origin: string; unique: number }[])
        .map((i) => [i.origin === 'pk' ? 'pk' : i.name, i.origin, i.unique]).sort(byName);
      const wantIndexes = [['pk', 'pk', 1], ...(r.index ? [[r.index.name, 'c', 0]] : [])].sort(byName);
      assert.equal(indexes, wantIndexes, `${r.table}: the primary key and the declared index are its only indexes`);
      if (r.index) {
        const cols = (db.prepare(`PRAGMA index_info(${r.index.name})`).all() as { name: string }[]).map((c) => c.name);
        assert.equal(cols, r.index.columns, `${r.index.name}: the declared columns, in order`);
      }
      const list = db.prepare('PRAGMA table_list').all() as { name: string; wr: number }[];
      assert.is(list.find((t) => t.name === r.table)?.wr, 1, `${r.table}: WITHOUT ROWID`);
      for (const m of r.measures) assert.ok(MEASURES.includes(m), `${r.table}.${m.column} is a measure of the one list`);
    }
  } finally {
    db.close();
  }
});

Shape.run();

const Rebuild = suite('schema: rollups rebuilt from the declaration');

/**
 * Every rollup table's rows, ordered by key, costs rounded (the writer adds them in another order than SQL sums), and
 * apart their first and last times: the writer keeps those as bounds when a message moves out of a row.
 */
function snapshot(db: Database.Database): { rows: Record<string, unknown[][]>; times: Record<string, (number | null)[][]> } {
  const rows: Record<string, unknown[][]> = {};
  const times: Record<string, (number | null)[][]> = {};
  for (const r of Object.values(ROLLUPS) as Rollup[]) {
    const cols = columnsOf(r);
    const cost = cols.indexOf('cost');
    const timed = [cols.indexOf('first_ts'), cols.indexOf('last_ts')];
    const all = db.prepare(`SELECT ${cols.join(', ')} FROM ${r.table} ORDER BY ${r.keys.join(', ')}`).raw(true).all() as unknown[][];
    rows[r.table] = all.map((row) => row.filter((_, i) => !timed.includes(i)).map((v, i) => (i === cost ? Math.round((v as number) * 1e9) : v)));
    times[r.table] = all.map((row) => (timed[0]! < 0 ? [] : timed.map((i) => row[i] as number | null)));
  }
  return { rows, times };
}

function fill(idx: IndexDb, root: string): void {
  const a = path.join(root, 'p1', 'a.jsonl');
  const b = path.join(root, 'p2', 'b.jsonl');
  const at = [utc('2026-11-15T18:10:00'), utc('2026-11-15T18:20:00'), utc('2026-11-15T18:50:00'), utc('2026-11-16T09:05:00'), utc('2026-11-17T23:59:59')];
  const rows = at.map((ts, i) => ({
    ts, messageId: `m${i}`, requestId: `r${i}`, model: i % 2 ? OPUS : HAIKU, input: 10 * i + 1, output: 100 + i, cacheCreate: 50 * i,
    cache1h: 20 * i, cacheRead: 7 + i, webSearch: i % 3, tools: i % 2 ? ['Bash', 'Read'] : i === 4 ? [] : ['Edit'],
    entrypoint: ['cli', 'sdk-ts', '', 'claude-vscode', 'cli'][i]!,
    skill: ['', 'review', 'review', '', 'pdf'][i]!, mcpServer: i === 3 ? 'github' : '', mcpTool: i === 3 ? 'create_issue' : '',
    agentType: i % 2 ? 'Explore' : '', effort: ['high', '', 'xhigh', 'high', 'low'][i]!, branch: ['main', '', 'feat', 'main', 'feat'][i]!,
  }));
  idx.applyBatch(batchOf(a, rows.slice(0, 3)), role('p1', 'a'), 300, 1);
  idx.applyBatch(batchOf(a, rows.slice(3), { from: 300 }), role('p1', 'a'), 500, 1);
  // A subagent's copy with more output (the same instant) replaces m1; m2's weaker copy is an alternate.
  idx.applyBatch(batchOf(b, [{ ...rows[1]!, output: 900, entrypoint: 'sdk-cli', effort: 'medium' }, { ...rows[2]!, output: 1 }, { ts: at[4]! + HOUR_MS, messageId: 'n', requestId: 'q', model: HAIKU, output: 3, tools: ['Grep', 'Read'] }],
    { meta: { firstTs: at[0]! - 1 } }), role('p2', 'b', 'ag'), 300, 1);
  // a.jsonl rewritten: its rows go, m2's alternate in b is promoted, the new content is read.
  idx.resetFile(a);
  idx.applyBatch(batchOf(a, [rows[3]!, { ...rows[4]!, output: 5 }]), role('p1', 'a'), 200, 2);
}

for (const zone of ['UTC', 'Asia/Kathmandu']) {
  Rebuild(`every rollup rebuilt by rebuildSql equals the writer's own (${zone})`, () => {
    process.env.TZ = zone;
    const file = path.join(dir, `rebuild-${zone.replace('/', '-')}.db`);
    const idx = openIndex(file, { log: () => {} });
    idx.setPrices(prices);
    fill(idx, path.join(dir, zone.replace('/', '-'), 'projects'));
    idx.close();
    const db = new Database(file);
    try {
      const written = snapshot(db);
      assert.ok(Object.values(written.rows).every((rows) => rows.length > 0), 'every rollup has rows');
      const clock = new LocalClock();
      db.function('t_lhour', { deterministic: true }, (ms: unknown) => clock.lhour(ms as number));
      const lhour = 'CAST(t_lhour(ts) AS INTEGER)';
      db.exec(rebuildSql(Object.values(ROLLUPS) as Rollup[], 'messages', {
        hour: `CAST(ts / ${HOUR_MS} AS INTEGER)`, lhour, day: `${lhour} / 24`, sub: 'agent_id IS NOT NULL',
      }, ''));
      const rebuilt = snapshot(db);
      assert.equal(rebuilt.rows, written.rows);
      for (const [table, rows] of Object.entries(rebuilt.times)) {
        rows.forEach(([first, last], i) => {
          const [wFirst, wLast] = written.times[table]![i]!;
          if (first !== undefined) assert.ok(wFirst! <= first! && last! <= wLast!, `${table} row ${i}: [${first}, ${last}] within [${wFirst}, ${wLast}]`);
        });
      }
    } finally {
      db.close();
    }
  });
}

Rebuild.run();
