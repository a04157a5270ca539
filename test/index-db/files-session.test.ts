// Migration 008: a session's files are found by index (files_session), so the statusline's session cost and the
// dashboard's session view no longer scan every file row. An index of schema v7 gets it at the writer's next open,
// keeps its figures, and the status query then searches the index instead of scanning `files`.
process.env.TZ = 'UTC';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SCHEMA_VERSION } from '../../src/index-db/migrate.ts';
import { OlderSchemaError } from '../../src/index-db/read-connection.ts';
import { openStatusReader } from '../../src/index-db/status-reader.ts';
import { FIXTURES } from '../helpers/paths.ts';
import { indexDir } from '../helpers/pipeline.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { MESSAGES_OF_V8, openKeyed } from '../helpers/sqlite.ts';

const fixture = path.join(FIXTURES, 'transcripts/worktrees/projects');
const NOW = Date.UTC(2026, 1, 13);

/** How SQLite runs the status query's session cost (status.ts) for a session of the file. */
function sessionCostPlan(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const [session, project] = db.prepare('SELECT id, project_id FROM sessions ORDER BY id LIMIT 1').raw(true).get() as [number, number];
    return (db.prepare(`EXPLAIN QUERY PLAN SELECT coalesce(sum(cost), 0) FROM messages
      WHERE file_id IN (SELECT id FROM files WHERE session_id = @session OR (session_id IS NULL AND project_id = @project))
        AND session_id = @session`).all({ session, project }) as { detail: string }[]).map((r) => r.detail).join(' | ');
  } finally {
    db.close();
  }
}

/** Every session's cost as the statusline reads it. */
function sessionCosts(file: string): Map<string, number | null> {
  const sids = (() => {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare('SELECT sid FROM sessions ORDER BY sid').pluck().all() as string[];
    } finally {
      db.close();
    }
  })();
  const reader = openStatusReader(file);
  try {
    return new Map(sids.map((sid) => [sid, reader.status(sid, NOW).sessionCost]));
  } finally {
    reader.close();
  }
}

const t = suite('migration 008');

t('a v7 index gets files_session at the next open, keeps every session cost, and the session cost searches it', async () => {
  const { dir, cleanup } = tempDir('migrate-008-');
  try {
    const file = path.join(dir, 'index.db');
    (await indexDir([fixture], { file, mode: 'calculate' })).close();
    assert.match(sessionCostPlan(file), /SEARCH files USING COVERING INDEX files_session/);
    const want = sessionCosts(file);
    assert.ok(want.size > 1 && [...want.values()].some((c) => (c ?? 0) > 0), 'sessions with costs');

    // What schema v7 left: no such index.
    const db = openKeyed(file);
    db.exec(`${MESSAGES_OF_V8} DROP INDEX files_session; PRAGMA user_version = 7;`);
    db.close();
    assert.match(sessionCostPlan(file), /SCAN files/, 'v7 scans every file row');
    assert.throws(() => openStatusReader(file), (e: unknown) => e instanceof OlderSchemaError, 'a reader is told the schema is older');

    (await indexDir([fixture], { file, mode: 'calculate' })).close();
    const raw = new Database(file, { readonly: true });
    assert.is(raw.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    raw.close();
    assert.match(sessionCostPlan(file), /SEARCH files USING COVERING INDEX files_session/);
    assert.equal(sessionCosts(file), want, 'the same session costs');
  } finally {
    cleanup();
  }
});

t.run();
