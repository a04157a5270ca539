// Opens (or creates) the index file. The index is the only copy of the history of transcripts that
// Claude Code has deleted, so it is never deleted: a damaged file (not a database, a failed integrity
// check) is renamed aside and a new one is built from what it still holds (recovery.ts); a
// file that is busy, read-only or cannot be opened is a clear error and is left as it is.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { failureOf, IndexWriteError, NewerSchemaError, writeErrorOf } from './errors.ts';
import { migrate } from './migrate.ts';
import { recoverFile } from './recovery.ts';
import { dropReadOnlySideFiles, readOnlySideFiles, sideFilesOf } from './side-files.ts';

/** How long opening waits for a lock another program holds on the index file itself. */
const BUSY_MS = 5000;

/** The file's schema is not one this code knows; the file is treated as damaged. */
class SchemaError extends Error {}

/**
 * Opens the file and hands it to `init` (which loads what it needs, so damage anywhere it reads also leads to a
 * recovery rather than a crash). `damaged`: a statement already found the file damaged (its check confirmed it), so it
 * is recovered without opening it as it is. Throws IndexWriteError for what a recovery cannot mend.
 */
export function openDatabase<T>(file: string, log: (msg: string) => void, init: (db: Database.Database) => T, damaged?: string): T {
  if (file === ':memory:') return init(prepare(new Database(':memory:'), log));
  try {
    // The default lives in the user cache dir, which a fresh machine may not have yet.
    fs.mkdirSync(path.dirname(file), { recursive: true });
  } catch (err) {
    throw openError(file, err);
  }
  if (damaged !== undefined) return recover(file, damaged, log, init);
  let db: Database.Database | null = null;
  const sides = sideFilesOf(file);
  try {
    db = new Database(file, { timeout: BUSY_MS });
    return init(prepare(db, log));
  } catch (err) {
    closeQuietly(db);
    dropReadOnlySideFiles(file, sides);
    if (err instanceof NewerSchemaError) throw err;
    const kind = err instanceof SchemaError ? 'corrupt' : failureOf(err);
    // 'rejected' at open is a statement that does not fit the file's tables: a schema we do not know.
    if (kind !== 'corrupt' && kind !== 'rejected') throw openError(file, err);
    return recover(file, (err as Error).message, log, init);
  }
}

/** Sets the damaged file aside, carries what it still holds into a new one (recovery.ts), and opens that. */
function recover<T>(file: string, why: string, log: (msg: string) => void, init: (db: Database.Database) => T): T {
  const { aside, summary } = recoverFile(file);
  log(`index ${file} is damaged (${why}); kept it as ${aside} and rebuilding it from what it still holds: ${summary}`);
  return init(prepare(new Database(file, { timeout: BUSY_MS }), log));
}

/** Marks the file closed cleanly, so the next open can skip the integrity check. */
export function closeDatabase(db: Database.Database): void {
  try {
    db.prepare("INSERT INTO meta (key, value) VALUES ('open', '0') ON CONFLICT (key) DO UPDATE SET value = excluded.value").run();
  } finally {
    db.close();
  }
}

function writable(file: string): boolean {
  try {
    fs.accessSync(fs.existsSync(file) ? file : path.dirname(file), fs.constants.W_OK);
    fs.accessSync(path.dirname(file), fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function closeQuietly(db: Database.Database | null): void {
  try {
    db?.close();
  } catch {
    // already unusable
  }
}

/** A clear error for a file (or its lock beside it) that cannot be opened for writing. */
export function openError(file: string, err: unknown): IndexWriteError {
  const e = writeErrorOf(err);
  // SQLite says only "unable to open" when it cannot create the -wal or -shm beside a file it may not write.
  if (e.kind === 'io' && !writable(file)) return openError(file, new IndexWriteError('readonly', e.message, e.code));
  const what: Record<string, string> = {
    busy: 'is locked by another program',
    readonly: 'cannot be written (read-only file, folder or file system, or no permission)',
    full: 'cannot be written: the disk is full',
    io: 'cannot be opened',
  };
  const stale = e.kind === 'readonly' ? readOnlySideFiles(file) : [];
  const hint = stale.length ? `; ${stale.join(' and ')} beside it ${stale.length > 1 ? 'are' : 'is'} read-only: remove ${stale.length > 1 ? 'them' : 'it'} once the index is writable` : '';
  return new IndexWriteError(e.kind, `index ${file} ${what[e.kind] ?? 'cannot be opened'} (${e.message}); it was left as it is${hint}`, e.code);
}

function prepare(db: Database.Database, log: (msg: string) => void): Database.Database {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('temp_store = MEMORY');
  // 32 MB: a bigger cache raised a big cold index's peak memory and made neither the writer nor any query faster in an
  // interleaved A/B; pages beyond it are read from the OS's page cache.
  db.pragma('cache_size = -32768');
  if (!migrate(db, log)) throw new SchemaError(`unknown schema version ${String(db.pragma('user_version', { simple: true }))}`);
  // The full check reads the whole file (seconds for a big index): only after an unclean shutdown.
  // Damage found later by any statement is reported by the writer and the queries (onCorrupt).
  const wasOpen = db.prepare("SELECT value FROM meta WHERE key = 'open'").pluck().get() === '1';
  if (wasOpen) {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new SchemaError(`integrity check: ${String(check)}`);
  }
  try {
    db.prepare("INSERT INTO meta (key, value) VALUES ('open', '1') ON CONFLICT (key) DO UPDATE SET value = excluded.value").run();
  } catch (err) {
    // A full disk must not keep the committed history from being served; the writer retries its writes.
    if (failureOf(err) !== 'full') throw err;
    log(`index ${db.name}: the disk is full; serving what is committed`);
  }
  return db;
}
