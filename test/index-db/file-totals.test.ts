// Each transcript's cost, all time (usage_total_file, migration 018), as the retention figures read it: always the sum
// of the index's own copies read from that file (a copy that lost to another file's counts there, not here), through
// a better copy arriving in another file, a reprice, and the migration of an index built before the table existed.
// Real SQLite file.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ianaZone } from '../../src/calendar/zone.ts';
import { openIndex } from '../../src/index-db/index.ts';
import { sql as fileTotals } from '../../src/index-db/migrations/018-file-totals.ts';
import type { FileRole, IndexDb } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { versionBefore } from '../helpers/schema-undo.ts';

const catalogue = JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Record<string, Record<string, number>>;
const prices = PriceTable.fromCatalogue(catalogue, 'fixture');
const SONNET = 'claude-sonnet-4-5-20250929';
const T = Date.UTC(2026, 9, 1, 12);
const role = (session: string): FileRole => ({ project: '-home-u-p', session, agentId: null, agentType: null, agentDescription: null });

/** Per file path: [messages, cost] as the index's messages hold them, and as the rollup and the retention read say. */
function perFile(file: string, idx: IndexDb, projects: string): { messages: Map<string, [number, number]>; rollup: Map<string, [number, number]>; live: Map<string, number> } {
  const db = new Database(file, { readonly: true });
  try {
    const of = (sql: string): Map<string, [number, number]> =>
      new Map((db.prepare(sql).raw().all() as [string, number, number][]).map(([p, n, c]) => [p, [n, c]]));
    return {
      messages: of('SELECT f.path, count(*), sum(m.cost) FROM messages m JOIN files f ON f.id = m.file_id GROUP BY f.path'),
      rollup: of('SELECT f.path, t.messages, t.cost FROM usage_total_file t JOIN files f ON f.id = t.file_id'),
      live: new Map(idx.queries.retention.liveFiles(projects).map((f) => [f.path, f.cost])),
    };
  } finally {
    db.close();
  }
}

function assertExact(file: string, idx: IndexDb, projects: string, what: string): void {
  const { messages, rollup, live } = perFile(file, idx, projects);
  assert.ok(messages.size >= 2, `${what}: files with entries`);
  assert.equal([...rollup.keys()].sort(), [...messages.keys()].sort(), `${what}: a row for each file with entries, none other`);
  for (const [p, [n, cost]] of messages) {
    assert.is(rollup.get(p)![0], n, `${what}: ${p} messages`);
    assert.ok(Math.abs(rollup.get(p)![1] - cost) < 1e-12, `${what}: ${p} cost ${rollup.get(p)![1]} != ${cost}`);
    assert.ok(Math.abs(live.get(p)! - cost) < 1e-12, `${what}: ${p} as the retention figures read it`);
  }
  // The retention gauges' one read of the folder gives each live file's cost and cursor as liveFiles does.
  const rows = (list: [number | null, number, number, number][]) => list.map((r) => r.join(' ')).sort();
  const withPaths = idx.queries.retention.liveFiles(projects);
  assert.equal(rows(idx.queries.retention.dirFiles(projects, ianaZone('UTC')).live), rows(withPaths.map((f) => [f.session, f.size, f.mtimeMs, f.cost])), `${what}: dirFiles`);
}

test('each file\'s cost follows its stored copies through a better copy elsewhere, a reprice and the migration', () => {
  const { dir, cleanup } = tempDir('file-totals-');
  const file = path.join(dir, 'index.db');
  const projects = path.join(dir, 'projects');
  const one = path.join(projects, '-home-u-p', 's1.jsonl');
  const two = path.join(projects, '-home-u-p', 's2.jsonl');
  const empty = path.join(projects, '-home-u-p', 's3.jsonl');
  try {
    let idx = openIndex(file, { log: () => {} });
    idx.setPrices(prices);
    idx.applyBatch(batchOf(one, [
      { ts: T, messageId: 'a', requestId: 'ra', model: SONNET, input: 10, output: 100 },
      { ts: T + 60_000, messageId: 'b', requestId: 'rb', model: SONNET, input: 20, output: 200, cacheRead: 5_000 },
    ]), role('s1'), 200, 1);
    idx.applyBatch(batchOf(two, [{ ts: T + 120_000, messageId: 'c', requestId: 'rc', model: SONNET, output: 300 }]), role('s2'), 100, 1);
    // A file with no usage entry: a live file of cost 0.
    idx.applyBatch(batchOf(empty, []), role('s3'), 0, 1);
    idx.commit();
    assertExact(file, idx, projects, 'written');
    assert.is(idx.queries.retention.liveFiles(projects).find((f) => f.path === empty)?.cost, 0);

    // The same response in s2, complete (its output larger): the stored copy moves from s1 to s2.
    idx.applyBatch(batchOf(two, [{ ts: T, messageId: 'a', requestId: 'ra', model: SONNET, input: 10, output: 900 }], { from: 100 }), role('s2'), 200, 2);
    idx.commit();
    const moved = perFile(file, idx, projects);
    assert.is(moved.messages.get(one)![0], 1, 'the copy left s1');
    assertExact(file, idx, projects, 'a better copy in another file');

    const dearer = structuredClone(catalogue);
    dearer[SONNET]!.output_cost_per_token = dearer[SONNET]!.output_cost_per_token! * 3;
    idx.setPrices(PriceTable.fromCatalogue(dearer, 'dearer'));
    idx.commit();
    assertExact(file, idx, projects, 'repriced');
    const want = perFile(file, idx, projects).rollup;
    idx.close();

    // An index from before migration 018: the table made and filled when it opens.
    const db = new Database(file);
    db.exec(`BEGIN; DROP TABLE usage_total_file; PRAGMA user_version = ${versionBefore(fileTotals)}; COMMIT;`);
    db.close();
    idx = openIndex(file, { log: () => {} });
    idx.setPrices(PriceTable.fromCatalogue(dearer, 'dearer'));
    assertExact(file, idx, projects, 'migrated');
    assert.equal(perFile(file, idx, projects).rollup, want, 'the rows the writer kept, to the last bit');
    idx.close();
  } finally {
    cleanup();
  }
});

test('a projects folder\'s files are those under it: not a sibling folder whose name it begins', () => {
  const { dir, cleanup } = tempDir('file-totals-range-');
  try {
    const idx = openIndex(path.join(dir, 'index.db'), { log: () => {} });
    idx.setPrices(prices);
    const files = ['projects/-p/s1.jsonl', 'projects/-p/deep/sub/s2.jsonl', 'projects-old/-p/s3.jsonl', 'projects0/-p/s4.jsonl', 'projectsX/s5.jsonl'];
    files.forEach((f, i) => {
      idx.applyBatch(batchOf(path.join(dir, f), [{ ts: T + i, messageId: `m${i}`, requestId: `r${i}`, model: SONNET, output: 10 }]), role(`s${i}`), 100, 1);
    });
    idx.markGone(path.join(dir, 'projects-old/-p/s3.jsonl'));
    idx.markGone(path.join(dir, 'projects/-p/deep/sub/s2.jsonl'));
    idx.commit();
    for (const projects of [path.join(dir, 'projects'), `${path.join(dir, 'projects')}/`]) {
      assert.equal(idx.queries.retention.liveFiles(projects).map((f) => f.path), [path.join(dir, files[0]!)]);
      assert.is(idx.queries.retention.dirFiles(projects, ianaZone('UTC')).onlyInIndex.messages, 1, 'the gone file under it, not the sibling\'s');
    }
    idx.close();
  } finally {
    cleanup();
  }
});

test.run();
