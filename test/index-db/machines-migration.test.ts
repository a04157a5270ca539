// Migration 005 (machines) on an index of schema v4 with history: every figure stays the same, every folder is this
// machine's, and a folder of the same name from a labelled dir is a row of its own afterwards.
process.env.TZ = 'UTC';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openIndex } from '../../src/index-db/index.ts';
import { SCHEMA_VERSION } from '../../src/index-db/migrate.ts';
import { PriceTable } from '../../src/index-db/pricing/table.ts';
import type { IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { parseRange } from '../../src/http/params.ts';
import { startPipeline } from '../../src/main/pipeline.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = path.resolve(root, '../shared/fixtures/transcripts/worktrees/projects');
const catalogue = JSON.parse(fs.readFileSync(path.resolve(root, '../shared/fixtures/prices/catalogue.json'), 'utf8')) as unknown;
const NOW = Date.UTC(2026, 1, 13);
const scope: QueryScope = { range: parseRange({}, 'all', NOW), project: null, now: NOW };
const indexing = { done: true, filesTotal: 0, filesDone: 0, bytesTotal: 0, bytesDone: 0 };

async function open(file: string, dirs: string[], machines: (string | null)[] = []): Promise<IndexDb> {
  const index = openIndex(file, { log: () => undefined });
  index.setPrices(PriceTable.fromCatalogue(catalogue, 'fixture', 'calculate'));
  const pipeline = await startPipeline({ projectsDirs: dirs, machines, index, log: () => undefined, threads: 1 });
  await pipeline.ingest.idle();
  await pipeline.close();
  return index;
}

/** Fractions to 12 significant digits: migration 007 sums its rollups in another order than the writer's deltas did. */
const rounded = (v: unknown): unknown =>
  typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(12))
    : Array.isArray(v) ? v.map(rounded)
      : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rounded(x)])) : v;

const figures = (index: IndexDb) => rounded({
  overview: index.queries.overview(scope, indexing, [], 'ws'),
  projects: index.queries.projects(scope),
  metrics: index.queries.metrics(NOW).series,
}) as { overview: ReturnType<IndexDb['queries']['overview']>; projects: ReturnType<IndexDb['queries']['projects']> };

const t = suite('migration 005');

t('a v4 index with history keeps every figure; a labelled folder of the same name is its own row after it', async () => {
  const { dir, cleanup } = tempDir('migrate-005-');
  try {
    const file = path.join(dir, 'index.db');
    const before = await open(file, [fixture]);
    const want = figures(before);
    before.close();
    // What schema v4 left: folder names unique alone, no machines, none of the later rollups.
    const db = new Database(file);
    db.exec(`CREATE TABLE p4 (id INTEGER PRIMARY KEY, encoded TEXT NOT NULL UNIQUE, cwd TEXT, cwd_ts INTEGER, repo TEXT);
      INSERT INTO p4 SELECT id, encoded, cwd, cwd_ts, repo FROM projects; DROP TABLE projects; ALTER TABLE p4 RENAME TO projects;
      DROP TABLE machines; DROP TABLE usage_daily_all; DROP TABLE usage_total; DROP TABLE sessions_daily; DROP TABLE usage_hourly_all;
      DROP TABLE cost_local_hourly_all; DROP TABLE tools_daily_all; PRAGMA user_version = 4;`);
    db.close();

    const laptop = path.join(dir, 'laptop/projects');
    const folder = want.projects[0]!.id;
    writeJsonl(path.join(laptop, folder, 'l1.jsonl'), [usageLine({ sessionId: 'l1', messageId: 'lap-1', requestId: 'lap-r1', timestamp: '2026-02-11T10:00:00.000Z', output: 100 })]);
    const after = await open(file, [fixture]);
    assert.equal(figures(after), want, 'the same figures, metrics included');
    assert.equal(after.queries.overview(scope, indexing, [], 'ws').machines, [], 'one machine');
    after.close();

    const labelled = await open(file, [laptop, fixture], ['laptop', null]);
    const o = labelled.queries.overview(scope, indexing, [], 'ws');
    assert.equal(o.machines.map((m) => [m.machine, m.messages]), [['ws', want.overview.totals.messages], ['laptop', 1]]);
    assert.is(o.projects.length, want.projects.length, 'the laptop\'s folder merges into the row of its name');
    labelled.close();
    const raw = new Database(file, { readonly: true });
    assert.is(raw.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.equal(raw.prepare('SELECT count(*) FROM projects WHERE encoded = ?').pluck().get(folder), 2);
    raw.close();
  } finally {
    cleanup();
  }
});

t.run();
