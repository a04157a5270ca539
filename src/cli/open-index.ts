// One writer per index file (src/index-db/writer-lock.ts): a command that gets the lock writes, one that
// does not reads what the writer (a server, another command) has committed, as a second server would.
import Database from 'better-sqlite3';
import { IndexLockedError, IndexWriteError, openIndex, openIndexReader } from '../index-db/index.ts';
import type { IndexDb, IndexReader } from '../index-db/types.ts';
import { acquireWriterLock } from '../index-db/writer-lock.ts';

export type OpenedIndex =
  | { kind: 'writer'; index: IndexDb }
  | { kind: 'reader'; index: IndexReader; writer: string };

/**
 * Throws IndexWriteError when the file can be neither written nor read (read-only, busy past `readerWaitMs`,
 * not a database yet because its writer is still creating it).
 */
export async function openForCommand(
  file: string,
  opts: { log: (msg: string) => void; readerWaitMs: number; write?: boolean },
): Promise<OpenedIndex> {
  try {
    if (opts.write === false) throw new IndexLockedError(file, 'none: reading only');
    return { kind: 'writer', index: openIndex(file, { log: opts.log }) };
  } catch (err) {
    if (!(err instanceof IndexLockedError)) throw err;
    const until = Date.now() + opts.readerWaitMs;
    for (;;) {
      try {
        return { kind: 'reader', index: openIndexReader(file), writer: err.writer };
      } catch (e) {
        // The writer may still be creating the file.
        if (!(e instanceof IndexWriteError) || e.kind !== 'busy' || Date.now() > until) throw e;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }
}

/**
 * The file's last writer ended without closing it (a crash, kill -9) and no process writes it now. Its next
 * writer runs SQLite's integrity check before anything else (seconds on a big index), which a statusline leaves
 * to a background update.
 */
export function lastWriterDied(file: string): boolean {
  const lock = acquireWriterLock(file);
  if (!lock) return false;
  try {
    const db = new Database(file, { fileMustExist: true, timeout: 1000 });
    try {
      db.pragma('query_only = ON');
      return db.prepare("SELECT value FROM meta WHERE key = 'open'").pluck().get() === '1';
    } finally {
      db.close();
    }
  } catch {
    return false; // not an index yet, or unreadable: opening it says what is wrong
  } finally {
    lock.release();
  }
}
