// What a damaged index still holds, carried into a new file. The history tables (every message, the copies that lost
// to them, the files read, the names, the settings) are copied row by row through their own b-trees, skipping the rows
// of a page that cannot be read; nothing else is: the indexes are built anew by the new file's schema, and the rollups
// are derived from the messages: the UTC and all-time ones here, the local ones by the writer that opens it (the new
// file has no zone), which also reprices it when it gets its prices (the new file has no price fingerprint).
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { rebuildSql } from './schema/rollup-sql.ts';
import { CAUSE_KEYS, ROLLUPS } from './schema/rollups.ts';
import { HOUR_MS } from './time.ts';

/** Tables with a rowid, in an order that names come before the rows that use them. */
const ROWID_TABLES = ['machines', 'projects', 'sessions', 'models', 'agents', 'branches', 'entrypoints', 'causes', 'files', 'messages', 'alternates'] as const;
/** Meta rows the new file must not inherit: the rollups and the key dump are not the new file's. */
const NOT_CARRIED = ['open', 'key_dump', 'daily_tz', 'price_fingerprint', 'price_models', 'recovered'];
/** Rows a read takes at a time. */
const CHUNK = 500;
/** Ids looked past a page that cannot be read, doubling: beyond this the rest of the table is unreadable. */
const MAX_SKIP = 2 ** 42;

/** Rows of each history table carried into the new file and rows that could not be read. */
export interface Carried {
  carried: Record<string, number>;
  lost: Record<string, number>;
  /** Rows of messages, alternates or files were lost: every transcript is read again (see resetCursors). */
  reread: boolean;
}

/**
 * Copies every readable row of `from`'s history tables into `to`, a new file that already holds this code's schema.
 * Returns null when `from` does not hold that schema (not a database, another version): nothing can be carried.
 */
export function carryHistory(from: string, to: Database.Database, schema: number): Carried | null {
  let src: Database.Database;
  try {
    src = openDamaged(from);
  } catch {
    return null;
  }
  try {
    let version: unknown;
    try {
      version = src.pragma('user_version', { simple: true });
    } catch {
      return null;
    }
    if (version !== schema) return null;
    const out: Carried = { carried: {}, lost: {}, reread: false };
    to.transaction(() => {
      for (const table of ROWID_TABLES) copyRowid(src, to, table, out);
      copyWhole(src, to, 'settings', '', out);
      // Plan limit readings and hits hang on no transcript: the index is their only copy.
      copyAll(src, to, 'limit_readings', out);
      copyAll(src, to, 'limit_hits', out);
      copyWhole(src, to, 'meta', `WHERE key NOT IN (${NOT_CARRIED.map((k) => `'${k}'`).join(', ')})`, out);
      nameTheLost(to);
      out.reread = (out.lost.messages ?? 0) + (out.lost.alternates ?? 0) + (out.lost.files ?? 0) > 0;
      if (out.reread) readAgain(to);
      to.exec(UTC_ROLLUPS);
    })();
    return out;
  } finally {
    src.close();
  }
}

/** The damaged file, read only: it is set aside as it is. */
function openDamaged(file: string): Database.Database {
  return new Database(file, { readonly: true, fileMustExist: true });
}

/** The columns `to` stores for `table` (a generated column is not stored). */
function columnsOf(to: Database.Database, table: string): string {
  const cols = to.prepare(`PRAGMA table_xinfo(${table})`).all() as { name: string; hidden: number }[];
  return cols.filter((c) => c.hidden === 0).map((c) => c.name).join(', ');
}

/**
 * Copies a rowid table in id order, a chunk at a time. A chunk that cannot be read is read again a row at a time up to
 * the row that cannot be (a page that cannot be read); the first readable row past it is then searched for (see
 * nextReadable), and the ids between are counted as lost (ids are given in order, so they are the rows that were there).
 */
function copyRowid(src: Database.Database, to: Database.Database, table: string, out: Carried): void {
  const cols = columnsOf(to, table);
  let read: Database.Statement;
  try {
    read = src.prepare(`SELECT ${cols} FROM ${table} WHERE id > ? ORDER BY id LIMIT ?`).raw(true);
  } catch {
    out.lost[table] = 1; // the table itself cannot be read: at least a row of it is gone
    return;
  }
  const insert = to.prepare(`INSERT OR IGNORE INTO ${table} (${cols}) VALUES (${cols.split(', ').map(() => '?').join(', ')})`);
  let after = 0;
  let carried = 0;
  let lost = 0;
  let careful = false;
  for (;;) {
    const limit = careful ? 1 : CHUNK;
    let rows: unknown[][];
    try {
      rows = read.all(after, limit) as unknown[][];
    } catch {
      if (!careful) {
        careful = true;
        continue;
      }
      const next = nextReadable(read, after);
      if (next === null) {
        lost++;
        break;
      }
      lost += Math.max(1, next - after - 1);
      after = next - 1;
      careful = false;
      continue;
    }
    for (const row of rows) {
      if (insert.run(...row).changes === 1) carried++;
      else lost++;
    }
    if (rows.length < limit) break;
    after = rows[rows.length - 1]![0] as number;
  }
  out.carried[table] = carried;
  if (lost) out.lost[table] = lost;
}

/** The smallest id after a gap that can be read again (binary search over the doubling gap), or null. */
function nextReadable(read: Database.Statement, after: number): number | null {
  const firstAfter = (at: number): number | null | 'bad' => {
    try {
      const row = read.get(at, 1) as unknown[] | undefined;
      return row ? (row[0] as number) : null;
    } catch {
      return 'bad';
    }
  };
  let bad = after;
  let skip = 1;
  let good: number | null = null;
  for (; skip <= MAX_SKIP; skip *= 2) {
    const got = firstAfter(after + skip);
    if (got === null) return null;
    if (got !== 'bad') {
      good = after + skip;
      break;
    }
    bad = after + skip;
  }
  if (good === null) return null;
  while (good - bad > 1) {
    const mid = Math.floor((good + bad) / 2);
    if (firstAfter(mid) === 'bad') bad = mid;
    else good = mid;
  }
  const first = firstAfter(good);
  return typeof first === 'number' ? first : null;
}

/** A small table without rowid, whole or not at all. */
function copyWhole(src: Database.Database, to: Database.Database, table: string, where: string, out: Carried): void {
  try {
    const rows = src.prepare(`SELECT key, value FROM ${table} ${where}`).raw(true).all() as unknown[][];
    const insert = to.prepare(`INSERT OR REPLACE INTO ${table} (key, value) VALUES (?, ?)`);
    for (const row of rows) insert.run(...row);
    out.carried[table] = rows.length;
  } catch {
    out.lost[table] = 1;
  }
}

/** Every readable row of a small table without rowids, column by column as the new file declares them. */
function copyAll(src: Database.Database, to: Database.Database, table: string, out: Carried): void {
  try {
    const cols = (to.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
    const rows = src.prepare(`SELECT ${cols.join(', ')} FROM ${table}`).raw(true).all() as unknown[][];
    const insert = to.prepare(`INSERT OR IGNORE INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
    for (const row of rows) insert.run(...row);
    out.carried[table] = rows.length;
  } catch {
    out.lost[table] = 1;
  }
}

/**
 * Rows whose names were lost (a row of files, projects, sessions, models, agents, branches, entrypoints or causes that could not be read)
 * get a stand-in name, so that every carried message is still counted and shown.
 */
function nameTheLost(to: Database.Database): void {
  const used = (col: string): string => `(SELECT ${col} AS id FROM messages UNION SELECT ${col} FROM alternates)`;
  to.exec(`
    INSERT INTO projects (id, encoded) SELECT id, '(lost project ' || id || ')' FROM ${used('project_id')}
      WHERE id NOT IN (SELECT id FROM projects);
    INSERT INTO sessions (id, sid, project_id) SELECT id, '(lost session ' || id || ')', 0 FROM ${used('session_id')}
      WHERE id NOT IN (SELECT id FROM sessions);
    INSERT INTO models (id, name, priced) SELECT id, '(lost model ' || id || ')', 0 FROM ${used('model_id')}
      WHERE id NOT IN (SELECT id FROM models);
    INSERT INTO agents (id, session_id, agent) SELECT id, 0, '(lost agent ' || id || ')' FROM ${used('agent_id')}
      WHERE id IS NOT NULL AND id NOT IN (SELECT id FROM agents);
    INSERT INTO branches (id, name) SELECT id, '(lost branch ' || id || ')' FROM ${used('branch_id')}
      WHERE id IS NOT NULL AND id NOT IN (SELECT id FROM branches);
    INSERT INTO entrypoints (id, name) SELECT id, '(lost entrypoint ' || id || ')' FROM ${used('entrypoint_id')}
      WHERE id != 0 AND id NOT IN (SELECT id FROM entrypoints);
    INSERT INTO causes (id, name) SELECT id, '(lost cause ' || id || ')' FROM (${CAUSE_KEYS.map((k) => `SELECT id FROM ${used(k)}`).join(' UNION ')})
      WHERE id != 0 AND id NOT IN (SELECT id FROM causes);
    INSERT INTO files (id, path, gone) SELECT id, '(lost file ' || id || ')', 1 FROM ${used('file_id')}
      WHERE id NOT IN (SELECT id FROM files);`);
}

/**
 * Rows were lost: every transcript still on disk is read again from its start. Its messages that were carried are
 * found by their keys (the same file and offset: kept as they are); those that were lost are stored again. The copies
 * that lost to other files are dropped for the files read again (reading them makes them again); those of deleted
 * transcripts stay, and so do the messages and the counts of every deleted transcript.
 */
function readAgain(to: Database.Database): void {
  const files = to.prepare('SELECT id, path FROM files').raw(true).all() as [number, string][];
  const reset = to.prepare(`UPDATE files SET size = 0, mtime = 0, off = 0, head = '', lines = 0, usage_lines = 0, blank = 0,
    malformed = 0, giant = 0, out_of_range = 0, error = NULL WHERE id = ?`);
  const dropCopies = to.prepare('DELETE FROM alternates WHERE file_id = ?');
  for (const [id, file] of files) {
    if (!fs.existsSync(file)) continue;
    reset.run(id);
    dropCopies.run(id);
  }
}

/**
 * The UTC and all-time rollups from the carried messages, finer ones first (the zone's rebuild makes the local ones),
 * at the costs the messages carry: the reprice the new file's writer runs (it has no price fingerprint) only adds each
 * message's change of cost to them.
 */
const UTC_ROLLUPS = rebuildSql(
  Object.values(ROLLUPS).filter((r) => r.grain === 'utc-hour' || r.grain === 'all-time'),
  'messages',
  { hour: `CAST(ts / ${HOUR_MS} AS INTEGER)`, sub: 'agent_id IS NOT NULL' },
  '',
);
