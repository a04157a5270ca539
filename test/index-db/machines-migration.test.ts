// Migration 005 (machines) on an index of schema v4 with history: every figure stays the same, every folder is this
// machine's, and a folder of the same name from a labelled dir is a row of its own afterwards.
process.env.TZ = 'UTC';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Database from 'better-sqlite3';
import path from 'node:path';
import { SCHEMA_VERSION } from '../../src/index-db/migrate.ts';
import type { IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { parseRange } from '../../src/http/params.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { FIXTURES } from '../helpers/paths.ts';
import { indexDir } from '../helpers/pipeline.ts';
import { MESSAGES_OF_V8, openKeyed } from '../helpers/sqlite.ts';

const fixture = path.join(FIXTURES, 'transcripts/worktrees/projects');
const NOW = Date.UTC(2026, 1, 13);
const scope: QueryScope = { range: parseRange({}, 'all', NOW), project: null, now: NOW };

const open = (file: string, dirs: string[], machines: (string | null)[] = []): Promise<IndexDb> =>
  indexDir(dirs, { file, machines, mode: 'calculate' });

/** Fractions to 12 significant digits: migration 007 sums its rollups in another order than the writer's deltas did. */
const rounded = (v: unknown): unknown =>
  typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(12))
    : Array.isArray(v) ? v.map(rounded)
      : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rounded(x)])) : v;

const figures = (index: IndexDb) => rounded({
  overview: index.queries.overview(scope, 'ws'),
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
    const db = openKeyed(file);
    db.exec(`${MESSAGES_OF_V8} CREATE TABLE p4 (id INTEGER PRIMARY KEY, encoded TEXT NOT NULL UNIQUE, cwd TEXT, cwd_ts INTEGER, repo TEXT);
      INSERT INTO p4 SELECT id, encoded, cwd, cwd_ts, repo FROM projects; DROP TABLE projects; ALTER TABLE p4 RENAME TO projects;
      DROP TABLE machines; DROP TABLE usage_daily_all; DROP TABLE usage_total; DROP TABLE sessions_daily; DROP TABLE usage_hourly_all;
      DROP TABLE cost_local_hourly_all; DROP TABLE tools_daily_all; PRAGMA user_version = 4;`);
    db.close();

    const laptop = path.join(dir, 'laptop/projects');
    const folder = want.projects[0]!.id;
    writeJsonl(path.join(laptop, folder, 'l1.jsonl'), [usageLine({ sessionId: 'l1', messageId: 'lap-1', requestId: 'lap-r1', timestamp: '2026-02-11T10:00:00.000Z', output: 100 })]);
    const after = await open(file, [fixture]);
    assert.equal(figures(after), want, 'the same figures, metrics included');
    assert.equal(after.queries.overview(scope, 'ws').machines, [], 'one machine');
    after.close();

    const labelled = await open(file, [laptop, fixture], ['laptop', null]);
    const o = labelled.queries.overview(scope, 'ws');
    assert.equal(o.machines.map((m) => [m.machine, m.messages]), [['ws', want.overview.totals.messages], ['laptop', 1]]);
    assert.is(o.projects.length, want.projects.length, 'the laptop\'s folder merges into the row of its name');
    labelled.close();
    const raw = new Database(file, { readonly: true });
    assert.is(raw.pragma('user_version', { simple: true }), SCHEMA_VERSION, 'migrated to the current schema');
    assert.equal(raw.prepare('SELECT count(*) FROM projects WHERE encoded = ?').pluck().get(folder), 2);
    raw.close();
  } finally {
    cleanup();
  }
});

t.run();
