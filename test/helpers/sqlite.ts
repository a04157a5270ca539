// Index files seen from outside: one value read by a second, read-only connection (what another process would see),
// and damage done to the file as a failing disk would.
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { unpackKey, type StoredKey } from '../../src/index-db/key-packing.ts';

/**
 * A connection to an index file whose SQL can read a message's dedup key back from its stored form:
 * `unpack_key(stored_key)`, the writer's own unpackKey (a packed key is a BLOB no SQL expression reads).
 */
export function openKeyed(file: string, opts?: Database.Options): Database.Database {
  const db = new Database(file, opts);
  db.function('unpack_key', { deterministic: true }, (stored: StoredKey) => unpackKey(stored));
  return db;
}

export function sqlValue(file: string, query: string): unknown {
  const db = openKeyed(file, { readonly: true });
  try {
    return db.prepare(query).pluck().get();
  } finally {
    db.close();
  }
}

/**
 * Overwrites the root page of each rollup table with garbage, as a failing disk would. Opening the index reads none
 * of them (the writer loads names and keys only), so only a query or a write can find the damage.
 */
export function damageRollupPages(file: string): void {
  const page = sqlValue(file, 'PRAGMA page_size') as number;
  const fd = fs.openSync(file, 'r+');
  try {
    for (const table of ['usage_hourly', 'usage_hourly_model', 'usage_daily']) {
      const root = sqlValue(file, `SELECT rootpage FROM sqlite_schema WHERE name = '${table}'`) as number;
      fs.writeSync(fd, Buffer.alloc(page, 0x5a), 0, page, (root - 1) * page);
    }
  } finally {
    fs.closeSync(fd);
  }
}

const V8_COLS = `id, hkey, unpack_key(stored_key), file_id, off, ts, project_id, session_id, model_id, agent_id, input, output, cache_create, cache_read,
  cache_1h, web_search, fast, cost_usd, cost, tools, branch_id`;
const v8Table = (name: string): string => `
  CREATE TABLE ${name}_v8 (id INTEGER PRIMARY KEY, hkey INTEGER NOT NULL, key TEXT NOT NULL, file_id INTEGER NOT NULL,
    off INTEGER NOT NULL, ts INTEGER NOT NULL, project_id INTEGER NOT NULL, session_id INTEGER NOT NULL, model_id INTEGER NOT NULL,
    agent_id INTEGER, input INTEGER NOT NULL, output INTEGER NOT NULL, cache_create INTEGER NOT NULL, cache_read INTEGER NOT NULL,
    cache_1h INTEGER NOT NULL, web_search INTEGER NOT NULL, fast INTEGER NOT NULL, cost_usd REAL, cost REAL NOT NULL,
    tools TEXT NOT NULL, branch_id INTEGER);
  INSERT INTO ${name}_v8 SELECT ${V8_COLS} FROM ${name};
  DROP TABLE ${name};
  ALTER TABLE ${name}_v8 RENAME TO ${name};`;

/** The usage rollups' columns that migration 013 added (web fetches): an older schema's rollups lack them. */
const ROLLUPS_BEFORE_013 = ['usage_hourly', 'usage_hourly_model', 'usage_daily', 'usage_daily_all', 'usage_total']
  .map((t) => `ALTER TABLE ${t} DROP COLUMN web_fetch;`).join(' ');

/** SQL that takes an index of the current schema back to schema v12 (before migration 013); the version is the caller's. */
export const BEFORE_013 = `DROP INDEX messages_fast; ${ROLLUPS_BEFORE_013} ${['messages', 'alternates'].map((t) => ['geo', 'advisor', 'web_fetch']
  .map((c) => `ALTER TABLE ${t} DROP COLUMN ${c};`).join(' ')).join(' ')}`;

/**
 * SQL that turns the message tables of the current schema back into those of schema v8 (before migration 009): the key
 * as text in a column of its own, indexes by file and by time (and the rollups without migration 013's columns). Tests
 * of an older schema start with it, on a connection of `openKeyed`.
 */
export const MESSAGES_OF_V8 = `${ROLLUPS_BEFORE_013} ${v8Table('messages')} ${v8Table('alternates')}
  CREATE INDEX messages_file ON messages (file_id); CREATE INDEX messages_ts ON messages (ts);
  CREATE INDEX alternates_key ON alternates (hkey); CREATE INDEX alternates_file ON alternates (file_id);`;

/** Overwrites page `page` (1-based) of the file with garbage, as a failing disk would (a `dd` of one page). */
export function damagePage(file: string, page: number): void {
  const size = sqlValue(file, 'PRAGMA page_size') as number;
  const fd = fs.openSync(file, 'r+');
  try {
    fs.writeSync(fd, Buffer.alloc(size, 0x5a), 0, size, (page - 1) * size);
  } finally {
    fs.closeSync(fd);
  }
}

/** The root page of a table or index. */
export function rootPage(file: string, name: string): number {
  return sqlValue(file, `SELECT rootpage FROM sqlite_schema WHERE name = '${name}'`) as number;
}

/**
 * A leaf page in the middle of a rowid table's b-tree, read from its root (an interior page: type 5, cells of a 4-byte
 * child page number then the rowid), so that damage there leaves rows on both sides readable.
 */
export function middleLeafOf(file: string, table: string): number {
  const size = sqlValue(file, 'PRAGMA page_size') as number;
  const root = rootPage(file, table);
  const page = Buffer.alloc(size);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, page, 0, size, (root - 1) * size);
  } finally {
    fs.closeSync(fd);
  }
  const at = root === 1 ? 100 : 0;
  if (page[at] !== 5) throw new Error(`${table}'s root is not an interior table page: add rows`);
  const cells = page.readUInt16BE(at + 3);
  const cell = page.readUInt16BE(at + 12 + 2 * Math.floor(cells / 2));
  return page.readUInt32BE(cell);
}
