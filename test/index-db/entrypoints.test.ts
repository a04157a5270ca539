// Every usage entry keeps its line's `entrypoint` (issue 33), and /api/overview's byEntrypoint sums a range's entries
// per entrypoint from a real index file (its rollup usage_hourly_entrypoint, the messages of the hours a range cuts):
// the copies of one response in two files count once (under the winning copy's entrypoint), a scope keeps its folders'
// entries, and an index of schema v11 migrates with its rows' entrypoint unknown.
process.env.TZ = 'Europe/Berlin';

import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex, openIndexReader } from '../../src/index-db/index.ts';
import { sql as entrypointsMigration } from '../../src/index-db/migrations/012-entrypoints.ts';
import type { FileRole, QueryScope } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import type { EntrypointCost, RangeInfo } from '../../src/shared/api-types.ts';
import { batchOf } from '../helpers/batches.ts';
import { UNDO_CAUSES, versionBefore } from '../helpers/schema-undo.ts';
import { BEFORE_013 } from '../helpers/sqlite.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { PRICES_FILE } from '../helpers/paths.ts';

const prices = PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Record<string, unknown>, 'fixture');
const HAIKU = 'claude-haiku-4-5-20251001'; // per M: out 5
const utc = (s: string): number => Date.parse(`${s}Z`);
const NOW = utc('2026-11-18T14:30:00');
const NOV: RangeInfo = { from: '2026-11-01', to: '2026-11-30', fromMs: Date.UTC(2026, 9, 31, 23), toMs: Date.UTC(2026, 10, 30, 23), bucket: 'day', kind: 'month', days: null };
const scope = (project: string | null = null): QueryScope => ({ range: NOV, project, now: NOW });
const role = (project: string, session: string): FileRole => ({ project, session, agentId: null, agentType: null, agentDescription: null });
const near = (a: number, b: number, what: string): void => assert.ok(Math.abs(a - b) < 1e-12, `${what}: ${a} != ${b}`);

/** [entrypoint, messages, output tokens, cost] per row of byEntrypoint. */
const brief = (rows: EntrypointCost[]): [string | null, boolean, number, number][] =>
  rows.map((r) => [r.entrypoint, r.programmatic, r.messages, r.outputTokens]);

/** Two folders; a response of session s2 copied into a resumed session's file s3, the copy with more output winning. */
function build(file: string, root: string): ReturnType<typeof openIndex> {
  const idx = openIndex(file, { log: () => {} });
  idx.setPrices(prices);
  idx.applyBatch(batchOf(path.join(root, 'p1', 's1.jsonl'), [
    { ts: utc('2026-11-16T08:10:00'), messageId: 'a', requestId: 'ra', model: HAIKU, output: 1000, entrypoint: 'cli' },
    { ts: utc('2026-11-16T08:20:00'), messageId: 'b', requestId: 'rb', model: HAIKU, output: 2000, entrypoint: 'claude-vscode' },
    { ts: utc('2026-11-16T08:30:00'), messageId: 'c', requestId: 'rc', model: HAIKU, output: 3000 }, // a line before the field
    { ts: utc('2026-10-20T08:30:00'), messageId: 'old', requestId: 'ro', model: HAIKU, output: 9000, entrypoint: 'cli' }, // before the range
  ]), role('p1', 's1'), 400, 1);
  idx.applyBatch(batchOf(path.join(root, 'p2', 's2.jsonl'), [
    { ts: utc('2026-11-17T09:00:00'), messageId: 'd', requestId: 'rd', model: HAIKU, output: 4000, entrypoint: 'sdk-ts' },
    { ts: utc('2026-11-17T09:05:00'), messageId: 'e', requestId: 're', model: HAIKU, output: 500, entrypoint: 'sdk-cli' },
  ]), role('p2', 's2'), 200, 1);
  idx.applyBatch(batchOf(path.join(root, 'p2', 's3.jsonl'), [
    { ts: utc('2026-11-17T09:00:00'), messageId: 'd', requestId: 'rd', model: HAIKU, output: 5000, entrypoint: 'sdk-py' },
  ]), role('p2', 's3'), 100, 1);
  return idx;
}

const t = suite('entrypoints');

t('byEntrypoint sums the range per entrypoint, a response copied in two files once, and a scope its folders only', () => {
  const { dir, cleanup } = tempDir('entrypoints-');
  const idx = build(path.join(dir, 'index.db'), path.join(dir, 'projects'));
  try {
    const o = idx.queries.overview(scope());
    assert.equal(brief(o.byEntrypoint), [
      ['sdk-py', true, 1, 5000], // the copy of d with more output won: its line's entrypoint
      [null, false, 1, 3000],
      ['claude-vscode', false, 1, 2000],
      ['cli', false, 1, 1000],
      ['sdk-cli', true, 1, 500],
    ]);
    near(o.byEntrypoint[0]!.cost, 5000 * 5e-6, 'cost of the winning copy');
    near(o.byEntrypoint.reduce((s, r) => s + r.cost, 0), o.totals.cost, 'the entrypoints add up to the total');
    assert.is(o.byEntrypoint.reduce((s, r) => s + r.messages, 0), o.totals.messages);
    assert.is(o.byEntrypoint.reduce((s, r) => s + r.totalTokens, 0), o.totals.totalTokens);
    assert.equal(brief(idx.queries.overview(scope('p1')).byEntrypoint), [[null, false, 1, 3000], ['claude-vscode', false, 1, 2000], ['cli', false, 1, 1000]]);
    assert.equal(idx.queries.overview(scope('nope')).byEntrypoint, []);
    // A range that cuts hours (a rolling one, or a local day of a :45 zone): the cut hours' messages, the others' rollup.
    const cut = (fromMs: number, toMs: number): QueryScope => ({ range: { ...NOV, fromMs, toMs, bucket: 'hour' }, project: null, now: NOW });
    assert.equal(brief(idx.queries.overview(cut(utc('2026-11-16T08:15:00'), utc('2026-11-16T08:25:00'))).byEntrypoint), [['claude-vscode', false, 1, 2000]]);
    assert.equal(brief(idx.queries.overview(cut(utc('2026-11-16T08:15:00'), utc('2026-11-17T09:02:00'))).byEntrypoint),
      [['sdk-py', true, 1, 5000], [null, false, 1, 3000], ['claude-vscode', false, 1, 2000]]);
  } finally {
    idx.close();
    cleanup();
  }
});

t('a range reaching past the newest hour reads all time less the hours before it, a short one the hourly rows', () => {
  const { dir, cleanup } = tempDir('entrypoints-total-');
  const file = path.join(dir, 'index.db');
  build(file, path.join(dir, 'projects')).close();
  const reader = openIndexReader(file, { prices: () => prices });
  const db = new Database(file);
  try {
    const q = reader.queries;
    const cut = (fromMs: number, toMs: number): QueryScope => ({ range: { ...NOV, fromMs, toMs, bucket: 'hour' }, project: null, now: NOW });
    const hours = cut(utc('2026-11-17T08:00:00'), utc('2026-11-17T10:00:00'));
    const month = brief(q.overview(scope()).byEntrypoint);
    const p1 = brief(q.overview(scope('p1')).byEntrypoint);
    const short = brief(q.overview(hours).byEntrypoint);
    // The hourly rollup's rows of the month made wrong: the month (the all-time rows less October's) and a folder's
    // month do not read them; a range of two hours does.
    db.prepare('UPDATE usage_hourly_entrypoint SET messages = messages + 7, output = output + 7 WHERE hour >= ?').run(Math.floor(NOV.fromMs / 3_600_000));
    assert.equal(brief(q.overview(scope()).byEntrypoint), month, 'the month reads no hourly row of its own');
    assert.equal(brief(q.overview(scope('p1')).byEntrypoint), p1, 'nor a folder\'s month');
    assert.not.equal(brief(q.overview(hours).byEntrypoint), short, 'two hours read their hourly rows');
    // The all-time rows made wrong: the month follows them, less October's hours (the message of 20 October).
    db.prepare('UPDATE usage_total_entrypoint SET output = output + 1').run();
    assert.equal(brief(q.overview(scope()).byEntrypoint).map((r) => r[3] - 1), month.map((r) => r[3]), 'the month is the all-time rows less the hours before it');
  } finally {
    db.close();
    reader.close();
    cleanup();
  }
});

t('an index of schema v11 migrates with its rows\' entrypoint unknown; new rows keep theirs', () => {
  const { dir, cleanup } = tempDir('entrypoints-v11-');
  const file = path.join(dir, 'index.db');
  const root = path.join(dir, 'projects');
  try {
    build(file, root).close();
    const db = new Database(file);
    db.exec(`BEGIN; ${UNDO_CAUSES} ${BEFORE_013} ALTER TABLE messages DROP COLUMN entrypoint_id; ALTER TABLE alternates DROP COLUMN entrypoint_id;
      DROP TABLE entrypoints; PRAGMA user_version = ${versionBefore(entrypointsMigration)}; COMMIT;`);
    db.close();
    const idx = openIndex(file, { log: () => {} });
    try {
      idx.setPrices(prices);
      const before = idx.queries.overview(scope());
      assert.equal(brief(before.byEntrypoint), [[null, false, 5, 11_500]], 'every row kept, its entrypoint unknown');
      near(before.byEntrypoint[0]!.cost, before.totals.cost, 'the one row is the total');
      idx.applyBatch(batchOf(path.join(root, 'p1', 's1.jsonl'), [
        { ts: utc('2026-11-18T10:00:00'), messageId: 'f', requestId: 'rf', model: HAIKU, output: 100, entrypoint: 'sdk-ts', offset: 400 },
      ], { from: 400 }), role('p1', 's1'), 500, 2);
      assert.equal(brief(idx.queries.overview(scope()).byEntrypoint), [[null, false, 5, 11_500], ['sdk-ts', true, 1, 100]]);
    } finally {
      idx.close();
    }
  } finally {
    cleanup();
  }
});

t.run();
