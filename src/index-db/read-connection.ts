// A connection that only reads an index another process (or nobody) writes: query-only, and only once the file
// holds this code's schema. Shared by the full reader (index.ts openIndexReader) and the statusline's
// (status-reader.ts), which loads nothing else.
import Database from 'better-sqlite3';
import { IndexWriteError, writeErrorOf } from './errors.ts';
import { SCHEMA_VERSION } from './migrate.ts';

/** Throws IndexWriteError('busy') while the file does not hold the schema yet (its writer is creating it). */
export function openReadConnection(file: string): Database.Database {
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true, timeout: 5000 });
  } catch (err) {
    const e = writeErrorOf(err);
    throw new IndexWriteError(e.kind === 'io' ? 'busy' : e.kind, `index ${file} cannot be read yet (${e.message})`, e.code);
  }
  try {
    db.pragma('query_only = ON');
    const version = db.pragma('user_version', { simple: true });
    if (version !== SCHEMA_VERSION) {
      throw new IndexWriteError('busy', `index ${file} has schema version ${String(version)}, not ${SCHEMA_VERSION} (yet)`, null);
    }
  } catch (err) {
    db.close();
    throw err instanceof IndexWriteError ? err : writeErrorOf(err);
  }
  return db;
}

/** `open()` again every 50 ms while it fails as busy (a writer still creating the file), for at most `waitMs`. */
export async function retryWhileBusy<T>(open: () => T, waitMs: number): Promise<T> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      return open();
    } catch (e) {
      if (!(e instanceof IndexWriteError) || e.kind !== 'busy' || Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
