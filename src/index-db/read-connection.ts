// A connection that only reads an index another process (or nobody) writes: query-only, and only once the file
// holds this code's schema. Shared by the full reader (index.ts openIndexReader) and the statusline's
// (status-reader.ts), which loads nothing else.
import Database from 'better-sqlite3';
import { IndexWriteError, NewerSchemaError, writeErrorOf } from './errors.ts';
import { SCHEMA_VERSION } from './migrate.ts';
import { dropReadOnlySideFiles, sideFilesOf } from './side-files.ts';

/**
 * The file holds an older schema: this code was upgraded and no writer has opened the file since. Busy like a file being
 * created (a writer may be migrating it right now), but when no writer runs, only starting one (the server,
 * `cost-dashboard update`) brings it to this code's schema; waiting does not.
 */
export class OlderSchemaError extends IndexWriteError {
  constructor(file: string, version: number) {
    super('busy', `index ${file} has schema version ${version}, older than ${SCHEMA_VERSION}: a writer migrates it when it opens it`, null);
  }
}

/**
 * Throws IndexWriteError('busy') while the file does not hold the schema yet (its writer is creating it), and
 * OlderSchemaError (also 'busy') while it holds an older one.
 */
export function openReadConnection(file: string): Database.Database {
  let db: Database.Database;
  const sides = sideFilesOf(file);
  try {
    db = new Database(file, { fileMustExist: true, timeout: 5000 });
    // A read-only index file gets read-only side files from this connection: removed when it closes (side-files.ts).
    const close = db.close.bind(db);
    db.close = () => {
      close();
      dropReadOnlySideFiles(file, sides);
      return db;
    };
  } catch (err) {
    const e = writeErrorOf(err);
    throw new IndexWriteError(e.kind === 'io' ? 'busy' : e.kind, `index ${file} cannot be read yet (${e.message})`, e.code);
  }
  try {
    db.pragma('query_only = ON');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > 0 && version < SCHEMA_VERSION) throw new OlderSchemaError(file, version);
    if (version > SCHEMA_VERSION) throw new NewerSchemaError(file, version, SCHEMA_VERSION);
    if (version !== SCHEMA_VERSION) {
      throw new IndexWriteError('busy', `index ${file} has schema version ${String(version)}, not ${SCHEMA_VERSION} (yet)`, null);
    }
  } catch (err) {
    db.close();
    throw err instanceof IndexWriteError ? err : writeErrorOf(err);
  }
  return db;
}

/**
 * A function that runs `read` against one state of the file: inside one read transaction, so that a commit of the
 * writer (another process) cannot land between its statements. Without it an answer could mix two states: a model
 * read before a commit and the rows of that commit read after it (a reader's overview failed so, once, on CI). The
 * snapshot is taken at once (a deferred BEGIN would take it at the first read). `read` may return a promise: the
 * statements of its synchronous part are the ones held to one state. Nested, it runs inside the open transaction.
 */
export function snapshotOf(db: Database.Database): <T>(read: () => T) => T {
  const start = db.prepare('SELECT 1 FROM sqlite_schema LIMIT 1').pluck();
  return (read) => {
    if (db.inTransaction) return read();
    db.exec('BEGIN');
    try {
      start.get();
      return read();
    } finally {
      db.exec('COMMIT');
    }
  };
}

/**
 * `open()` again every 50 ms while it fails as busy (a writer still creating the file), for at most `waitMs`, and as
 * long as `retry` accepts the failure.
 */
export async function retryWhileBusy<T>(open: () => T, waitMs: number, retry: (e: IndexWriteError) => boolean = () => true): Promise<T> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      return open();
    } catch (e) {
      if (!(e instanceof IndexWriteError) || e.kind !== 'busy' || !retry(e) || Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
