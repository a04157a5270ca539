// Opens (or creates) the index file. A file that is not a database, fails its integrity check or
// carries a schema version we do not know is deleted with its -wal/-shm and rebuilt empty: the
// index is a cache of the transcripts, so starting over is always safe.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate.ts';

/**
 * Opens the file and hands it to `init` (which loads what it needs, so corruption anywhere it
 * reads also leads to a rebuild rather than a crash).
 */
export function openDatabase<T>(file: string, log: (msg: string) => void, init: (db: Database.Database) => T): T {
  if (file === ':memory:') return init(prepare(new Database(':memory:')));
  // The default lives in the user cache dir, which a fresh machine may not have yet.
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let db: Database.Database | null = null;
  try {
    db = new Database(file);
    return init(prepare(db));
  } catch (err) {
    db?.close();
    log(`index ${file} is unusable (${(err as Error).message}); rebuilding it`);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    return init(prepare(new Database(file)));
  }
}

/** Marks the file closed cleanly, so the next open can skip the integrity check. */
export function closeDatabase(db: Database.Database): void {
  db.prepare("INSERT INTO meta (key, value) VALUES ('open', '0') ON CONFLICT (key) DO UPDATE SET value = excluded.value").run();
  db.close();
}

function prepare(db: Database.Database): Database.Database {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -65536');
  if (!migrate(db)) throw new Error(`unknown schema version ${String(db.pragma('user_version', { simple: true }))}`);
  // The full check reads the whole file (seconds for a big index): only after an unclean shutdown.
  const wasOpen = db.prepare("SELECT value FROM meta WHERE key = 'open'").pluck().get() === '1';
  if (wasOpen) {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`integrity check: ${String(check)}`);
  }
  db.prepare("INSERT INTO meta (key, value) VALUES ('open', '1') ON CONFLICT (key) DO UPDATE SET value = excluded.value").run();
  return db;
}
