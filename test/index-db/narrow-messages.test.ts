// Migrations 009 and 020: an API response's dedup key is stored packed (without its constant parts; ids of Claude
// Code's lengths as a 32-byte BLOB) and read back whole by unpackKey, any other key whole; one index on (file_id, ts)
// replaces those by file and by time, and the messages of a time span are found through the files of the sessions the
// hourly rollup has there. An index of schema v8 is migrated keeping every row, key and answer. Real SQLite files,
// real transcripts.
process.env.TZ = 'Asia/Kathmandu'; // +05:45: every local day cuts a UTC hour, so reports and blocks read entries
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRange } from '../../src/http/params.ts';
import { openIndex, openIndexReader } from '../../src/index-db/index.ts';
import { packKey, unpackKey } from '../../src/index-db/key-packing.ts';
import { SCHEMA_VERSION } from '../../src/index-db/migrate.ts';
import { HOUR_COL, Reader } from '../../src/index-db/queries/reader.ts';
import { spanFiles } from '../../src/index-db/queries/span-files.ts';
import type { FileRole } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { MESSAGES_OF_V8, openKeyed } from '../helpers/sqlite.ts';
import { FIXTURE_CONFIG_DIR, PRICES_FILE } from '../helpers/paths.ts';
import { near } from '../helpers/near.ts';
import { indexDir } from '../helpers/pipeline.ts';

const prices = PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Record<string, unknown>, 'fixture');
const T0 = Date.UTC(2026, 10, 20, 10, 15);
const NOW = Date.UTC(2026, 11, 1);
const role = (session: string | null): FileRole => ({ project: '-home-u-odd', session, agentId: null, agentType: null, agentDescription: null });

/** Ids of the lengths Claude Code's have (22 and 20), every digit of the packing in them. */
const A22 = '0123456789ABCDEFGHIJKL';
const B20 = 'MNOPQRSTUVWXYZabcdef';
const Z22 = 'zyxwvutsrqponmlkjihgfe';
const Z20 = 'dcbaZYXWVUTSRQPONMLK';

/**
 * The 32-byte BLOB of two ids, written here bit by bit (an implementation of its own): each character's place in
 * 0-9A-Za-z as 6 bits, the 42 of them in order, the last byte's low 4 bits 0. Pins the stored format.
 */
function blobOf(a: string, b: string): string {
  const digits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const bits = [...a + b].map((c) => digits.indexOf(c).toString(2).padStart(6, '0')).join('').padEnd(256, '0');
  return Array.from({ length: 32 }, (_, i) => parseInt(bits.slice(i * 8, i * 8 + 8), 2).toString(16).padStart(2, '0')).join('').toUpperCase();
}

/**
 * Keys of every form, and how each must be stored: [message id, request id, key, its packed form: text, or hex of a
 * BLOB, or null: whole].
 */
const ODD: [string, string, string, string | { blob: string } | null][] = [
  [`msg_01${A22}`, `req_011C${B20}`, `rmsg_01${A22} req_011C${B20}`, { blob: blobOf(A22, B20) }],
  [`msg_01${Z22}`, `req_011C${Z20}`, `rmsg_01${Z22} req_011C${Z20}`, { blob: blobOf(Z22, Z20) }],
  [`msg_01${A22}x`, `req_011C${B20}`, `rmsg_01${A22}x req_011C${B20}`, `R${A22}x ${B20}`], // one character more
  [`msg_01${A22.slice(1)}_`, `req_011C${B20}`, `rmsg_01${A22.slice(1)}_ req_011C${B20}`, `R${A22.slice(1)}_ ${B20}`], // not a digit
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

const COLS = `id, hkey, unpack_key(stored_key) AS key, hex(stored_key) AS stored, typeof(stored_key) AS storedType, file_id, off, ts, project_id,
  session_id, model_id, agent_id, input, output, cache_create, cache_read, cache_1h, web_search, fast, cost_usd, cost, tools, branch_id`;

/** What schema v8 stored: the key as text in its own column, messages indexed by file and by time. */
function downgradeToV8(file: string): void {
  const db = openKeyed(file);
  db.exec(`BEGIN; ${MESSAGES_OF_V8} PRAGMA user_version = 8; COMMIT;`);
  db.close();
}

function rowsOf(file: string, table: string): Record<string, unknown>[] {
  const db = openKeyed(file, { readonly: true });
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

t('keys of the API shape are stored packed (ids of Claude Code\'s lengths as 32 bytes), any other whole, and every one reads back as the same text', () => {
  const { dir, cleanup } = tempDir('narrow-keys-');
  try {
    const file = path.join(dir, 'index.db');
    writeOdd(file, path.join(dir, 'projects', '-home-u-odd'));
    for (const table of ['messages', 'alternates']) {
      const rows = rowsOf(file, table);
      assert.equal(rows.map((r) => r.key).sort(), ODD.map(([, , key]) => key).sort(), table);
      for (const [, , key, packed] of ODD) {
        const r = rows.find((x) => x.key === key)!;
        if (packed !== null && typeof packed === 'object') {
          assert.is(r.storedType, 'blob', key);
          assert.is(r.stored, packed.blob, key);
        } else {
          assert.is(r.storedType, 'text', key);
          assert.is(r.stored, Buffer.from(packed ?? key).toString('hex').toUpperCase(), key);
        }
      }
    }
  } finally {
    cleanup();
  }
});

t('every key of Claude Code\'s shape packs to 32 bytes and reads back as itself; two keys pack alike only when equal', () => {
  const digits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let seed = 7;
  const id = (n: number) => Array.from({ length: n }, () => digits[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % 62]).join('');
  const seen = new Map<string, string>();
  for (let i = 0; i < 2000; i++) {
    const key = `rmsg_01${id(22)} req_011C${id(20)}`;
    const stored = packKey(key);
    assert.instance(stored, Uint8Array, key);
    assert.is((stored as Uint8Array).length, 32);
    assert.is(unpackKey(stored), key);
    const hex = Buffer.from(stored as Uint8Array).toString('hex');
    assert.is(seen.get(hex) ?? key, key);
    seen.set(hex, key);
  }
  for (const [, , key] of ODD) assert.is(unpackKey(packKey(key)), key);
});

t('an index of schema v8 is migrated: every row kept with its key and columns, packed as the writer packs, the same answers', async () => {
  const { dir, cleanup } = tempDir('narrow-migrate-');
  try {
    const file = path.join(dir, 'index.db');
    (await indexDir([path.join(FIXTURE_CONFIG_DIR, 'projects')], { file })).close();
    writeOdd(file, path.join(dir, 'projects', '-home-u-odd'));
    const want = { messages: rowsOf(file, 'messages'), alternates: rowsOf(file, 'alternates'), answers: answers(file) };
    assert.ok(want.messages.filter((r) => r.storedType === 'blob').length > 100, 'real keys stored packed');
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

t('an index of schema v19 (keys as text) is migrated to the BLOBs; copies read next dedup against them, and a reset promotes their alternates', async () => {
  const { dir, cleanup } = tempDir('narrow-v19-');
  try {
    const file = path.join(dir, 'index.db');
    (await indexDir([path.join(FIXTURE_CONFIG_DIR, 'projects')], { file })).close();
    const root = path.join(dir, 'projects', '-home-u-odd');
    writeOdd(file, root);
    const want = { messages: rowsOf(file, 'messages'), alternates: rowsOf(file, 'alternates'), answers: answers(file) };

    // What schema v19 stored: 'R<a> <b>' text for every packed key, read back by a virtual column.
    const db = openKeyed(file);
    db.exec(`BEGIN; ${['messages', 'alternates'].map((t) => `UPDATE ${t} SET stored_key = 'R' || replace(substr(unpack_key(stored_key), 8), ' req_011C', ' ')
      WHERE typeof(stored_key) = 'blob'; ALTER TABLE ${t} ADD COLUMN key TEXT GENERATED ALWAYS AS (CASE WHEN substr(stored_key, 1, 1) = 'R'
      THEN 'rmsg_01' || replace(substr(stored_key, 2), ' ', ' req_011C') ELSE stored_key END) VIRTUAL;`).join(' ')} PRAGMA user_version = 19; COMMIT;`);
    assert.is(db.prepare("SELECT count(*) FROM messages WHERE typeof(stored_key) = 'blob'").pluck().get(), 0);
    assert.ok((db.prepare("SELECT count(*) FROM messages WHERE substr(key, 1, 7) = 'rmsg_01'").pluck().get() as number) > 100);
    db.close();

    const logs: string[] = [];
    openIndex(file, { log: (m) => logs.push(m) }).close();
    assert.equal(logs.filter((m) => m.includes('updating it from schema 19 to')), [`index ${file}: updating it from schema 19 to ${SCHEMA_VERSION}, once (a big index takes a moment)`]);
    assert.equal(rowsOf(file, 'messages'), want.messages, 'every message, stored as the writer stores it');
    assert.equal(rowsOf(file, 'alternates'), want.alternates);
    assert.equal(answers(file), want.answers);
    const raw = new Database(file, { readonly: true });
    const columns = (t: string) => (raw.prepare(`PRAGMA table_xinfo(${t})`).all() as { name: string }[]).map((c) => c.name);
    assert.not.ok(columns('messages').includes('key'), 'no virtual key column');
    assert.not.ok(columns('alternates').includes('key'));
    raw.close();

    // The odd keys again from a third file, each with more output: every one replaces its stored copy (found by key).
    const again = openIndex(file, { log: () => {} });
    again.setPrices(prices);
    const third = path.join(root, 'third.jsonl');
    again.applyBatch(batchOf(third, ODD.map(([messageId, requestId], i) => ({ ts: T0 + i * 60_000, messageId, requestId, output: 50, sessionId: 's-odd' }))), role(null), 10_000, 1);
    again.commit();
    const afterThird = rowsOf(file, 'messages');
    assert.is(afterThird.length, want.messages.length, 'no key stored twice');
    assert.equal(afterThird.filter((r) => r.output === 50).map((r) => r.key).sort(), ODD.map(([, , key]) => key).sort());
    // That file reset: each key's best other copy (an alternate since the third file won) is promoted again.
    again.resetFile(third);
    again.close();
    const afterReset = rowsOf(file, 'messages');
    assert.is(afterReset.length, want.messages.length);
    const outputOf = (rows: Record<string, unknown>[]) => new Map(rows.map((r) => [r.key, r.output]));
    assert.equal(outputOf(afterReset), outputOf(want.messages), 'every key back at its best copy of the first two files');
    // The rollups moved by a copy out and back in: the same sums, taken in another order.
    near(answers(file), want.answers);
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
