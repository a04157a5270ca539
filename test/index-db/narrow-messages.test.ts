// Migration 009: an API response's dedup key is stored packed (without its constant parts) and read back whole
// through the virtual `key` column, any other key whole; one index on (file_id, ts) replaces those by file and by
// time, and the messages of a time span are found through the files of the sessions the hourly rollup has there.
// An index of schema v8 is migrated keeping every row, key and answer. Real SQLite files, real transcripts.
process.env.TZ = 'Asia/Kathmandu'; // +05:45: every local day cuts a UTC hour, so reports and blocks read entries
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRange } from '../../src/http/params.ts';
import { openIndex, openIndexReader } from '../../src/index-db/index.ts';
import { SCHEMA_VERSION } from '../../src/index-db/migrate.ts';
import { HOUR_COL, Reader } from '../../src/index-db/queries/reader.ts';
import { spanFiles } from '../../src/index-db/queries/span-files.ts';
import type { FileRole } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { MESSAGES_OF_V8 } from '../helpers/sqlite.ts';
import { FIXTURE_CONFIG_DIR, PRICES_FILE } from '../helpers/paths.ts';
import { indexDir } from '../helpers/pipeline.ts';

const prices = PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Record<string, unknown>, 'fixture');
const T0 = Date.UTC(2026, 10, 20, 10, 15);
const NOW = Date.UTC(2026, 11, 1);
const role = (session: string | null): FileRole => ({ project: '-home-u-odd', session, agentId: null, agentType: null, agentDescription: null });

/** Keys of every form, and how each must be stored: [message id, request id, key, its packed form or null: whole]. */
const ODD: [string, string, string, string | null][] = [
  ['msg_01AbCdEf', 'req_011CxYz', 'rmsg_01AbCdEf req_011CxYz', 'RAbCdEf xYz'],
  ['msg_01é', 'req_011Cü', 'rmsg_01é req_011Cü', 'Ré ü'],
  ['msg_01', 'req_011C', 'rmsg_01 req_011C', 'R '],
  ['msg_01a', 'req_011Cb c', 'rmsg_01a req_011Cb c', null], // a second space: the split would be ambiguous
  ['msg_bdrk_01X', 'req_011CY', 'rmsg_bdrk_01X req_011CY', null],
  ['msg_01X', 'req_01Y', 'rmsg_01X req_01Y', null],
  ['msg_01Z', '', 'ms-odd msg_01Z', null],
];

/**
 * The odd keys into a v9 index, each from two files (a winner and an alternate): a session's transcript, and a project
 * file outside any session whose lines name it (the winner of every other key).
 */
function writeOdd(file: string, root: string): void {
  const idx = openIndex(file, { log: () => {} });
  idx.setPrices(prices);
  const rows = (output: (i: number) => number) => ODD.map(([messageId, requestId], i) => ({ ts: T0 + i * 60_000, messageId, requestId, output: output(i) }));
  idx.applyBatch(batchOf(path.join(root, 's-odd.jsonl'), rows(() => 10)), role('s-odd'), 10_000, 1);
  idx.applyBatch(batchOf(path.join(root, 'other.jsonl'), rows((i) => (i % 2 ? 20 : 5)).map((r) => ({ ...r, sessionId: 's-odd' }))), role(null), 10_000, 1);
  idx.close();
}

const COLS = `id, hkey, key, typeof(key) AS keyType, hex(stored_key) AS stored, typeof(stored_key) AS storedType, file_id, off, ts, project_id,
  session_id, model_id, agent_id, input, output, cache_create, cache_read, cache_1h, web_search, fast, cost_usd, cost, tools, branch_id`;

/** What schema v8 stored: the key as text in its own column, messages indexed by file and by time. */
function downgradeToV8(file: string): void {
  const db = new Database(file);
  db.exec(`BEGIN; ${MESSAGES_OF_V8} PRAGMA user_version = 8; COMMIT;`);
  db.close();
}

function rowsOf(file: string, table: string): Record<string, unknown>[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(`SELECT ${COLS} FROM ${table} ORDER BY id`).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

function indexesOf(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name IN ('messages', 'alternates') ORDER BY name").pluck().all() as string[];
  } finally {
    db.close();
  }
}

/** The reports of the whole history (days, sessions and blocks read the entries of cut hours in this zone). */
function answers(file: string): unknown {
  const reader = openIndexReader(file, { prices: () => prices });
  try {
    const range = parseRange({}, 'all', NOW);
    return { days: reader.reports.days(range, null), sessions: reader.reports.sessions(range, null, 'here'), blocks: reader.reports.blocks(range, null, NOW) };
  } finally {
    reader.close();
  }
}

const t = suite('narrow messages');

t('keys of the API shape are stored packed, any other whole, and every one reads back as the same text', () => {
  const { dir, cleanup } = tempDir('narrow-keys-');
  try {
    const file = path.join(dir, 'index.db');
    writeOdd(file, path.join(dir, 'projects', '-home-u-odd'));
    for (const table of ['messages', 'alternates']) {
      const rows = rowsOf(file, table);
      assert.equal(rows.map((r) => r.key).sort(), ODD.map(([, , key]) => key).sort(), table);
      for (const [, , key, packed] of ODD) {
        const r = rows.find((x) => x.key === key)!;
        assert.is(r.keyType, 'text');
        assert.is(r.storedType, 'text');
        assert.is(r.stored, Buffer.from(packed ?? key).toString('hex').toUpperCase(), key);
      }
    }
  } finally {
    cleanup();
  }
});

t('an index of schema v8 is migrated: every row kept with its key and columns, packed as the writer packs, the same answers', async () => {
  const { dir, cleanup } = tempDir('narrow-migrate-');
  try {
    const file = path.join(dir, 'index.db');
    (await indexDir([path.join(FIXTURE_CONFIG_DIR, 'projects')], { file })).close();
    writeOdd(file, path.join(dir, 'projects', '-home-u-odd'));
    const want = { messages: rowsOf(file, 'messages'), alternates: rowsOf(file, 'alternates'), answers: answers(file) };
    assert.ok(want.messages.filter((r) => (r.stored as string).startsWith('52')).length > 100, 'real keys stored packed'); // 'R'
    assert.ok(want.alternates.length >= ODD.length);

    downgradeToV8(file);
    const v8 = new Database(file, { readonly: true });
    assert.is(v8.prepare("SELECT count(*) FROM messages WHERE typeof(key) != 'text'").pluck().get(), 0, 'v8 keys are text');
    v8.close();
    assert.equal(indexesOf(file), ['alternates_file', 'alternates_key', 'messages_file', 'messages_ts']);

    openIndex(file, { log: () => {} }).close();
    assert.equal(fs.readdirSync(dir).filter((f) => f.includes('.damaged-')), [], 'migrated, not set aside and rebuilt');
    const raw = new Database(file, { readonly: true });
    assert.is(raw.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    assert.is(raw.pragma('integrity_check', { simple: true }), 'ok');
    raw.close();
    // messages_fast: migration 013's partial index of the fast rows (issue 32's estimated fast multipliers)
    assert.equal(indexesOf(file), ['alternates_file', 'alternates_key', 'messages_fast', 'messages_file_ts']);
    assert.equal(rowsOf(file, 'messages'), want.messages, 'every message, the stored bytes those the writer stores');
    assert.equal(rowsOf(file, 'alternates'), want.alternates);
    assert.equal(answers(file), want.answers);
  } finally {
    cleanup();
  }
});

t('the entries of any span are those of a scan of every message, and are read through the (file_id, ts) index', async () => {
  const { dir, cleanup } = tempDir('narrow-spans-');
  try {
    const file = path.join(dir, 'index.db');
    (await indexDir([path.join(FIXTURE_CONFIG_DIR, 'projects')], { file })).close();
    writeOdd(file, path.join(dir, 'projects', '-home-u-odd'));
    const db = new Database(file, { readonly: true });
    const reader = new Reader(db);
    const scan = db.prepare(`SELECT ts, 1, input, output, cache_create, cache_read, cost, model_id FROM messages NOT INDEXED
      WHERE ts >= ? AND ts < ? AND (? IS NULL OR project_id = ?) ORDER BY ts, id`).raw(true);
    const hours = reader.hours(-1e9, 1e9, null).map((r) => r[HOUR_COL.hour]);
    const projects = [null, ...reader.projects().keys()];
    assert.ok(hours.length > 5 && projects.length > 2);
    let entries = 0;
    for (const hour of hours) {
      // The hour, a cut of it (a :45 local midnight), and a span across it and the next.
      for (const [from, to] of [[hour * 3600e3, (hour + 1) * 3600e3], [hour * 3600e3 + 45 * 60e3, (hour + 1) * 3600e3], [hour * 3600e3 - 1, (hour + 2) * 3600e3 + 1]]) {
        for (const p of projects) {
          const got = reader.entries(from!, to!, p === null ? null : [p]);
          assert.equal(got, scan.all(from, to, p, p), `[${from}, ${to}) of project ${p}`);
          entries += got.length;
        }
      }
    }
    assert.ok(entries > 100);
    const plan = (db.prepare(`EXPLAIN QUERY PLAN SELECT ts, input, cost FROM messages WHERE file_id IN (${spanFiles('?', '?')})
      AND ts >= ? AND ts < ? ORDER BY ts, id`).all(0, 1, 0, 1, 0, 1) as { detail: string }[]).map((r) => r.detail).join(' | ');
    assert.match(plan, /SEARCH messages USING INDEX messages_file_ts \(file_id=\? AND ts>\? AND ts<\?\)/);
    assert.match(plan, /SEARCH files USING COVERING INDEX files_session \(session_id=\?\)/);
    assert.match(plan, /SEARCH usage_hourly USING PRIMARY KEY \(hour>\? AND hour<\?\)/);
    db.close();
  } finally {
    cleanup();
  }
});

t.run();
