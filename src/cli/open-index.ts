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
 * The writer when the lock is free (and `write` is not false), else a reader. Throws IndexWriteError when the
 * file can be neither written nor read (read-only, busy past `readerWaitMs`, not a database yet because its
 * writer is still creating it).
 */
export async function openForCommand(
  file: string,
  opts: { log: (msg: string) => void; readerWaitMs: number; write?: boolean },
): Promise<OpenedIndex> {
  let writer = 'none: reading only';
  if (opts.write !== false) {
    try {
      return { kind: 'writer', index: openIndex(file, { log: opts.log }) };
    } catch (err) {
      if (!(err instanceof IndexLockedError)) throw err;
      writer = err.writer;
    }
  }
  const until = Date.now() + opts.readerWaitMs;
  for (;;) {
    try {
      return { kind: 'reader', index: openIndexReader(file), writer };
    } catch (e) {
      // The writer may still be creating the file.
      if (!(e instanceof IndexWriteError) || e.kind !== 'busy' || Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * Who writes the file: a live process ('live'), nobody ('none'), or nobody while the file is still marked open
 * because its last writer ended without closing it, a crash or kill -9 ('died'). The next writer of such a file
 * runs SQLite's integrity check before anything else (seconds on a big index), which a statusline leaves to a
 * background update.
 */
export function writerState(file: string): 'live' | 'none' | 'died' {
  const lock = acquireWriterLock(file);
  if (!lock) return 'live';
  try {
    const db = new Database(file, { fileMustExist: true, timeout: 1000 });
    try {
      db.pragma('query_only = ON');
      return db.prepare("SELECT value FROM meta WHERE key = 'open'").pluck().get() === '1' ? 'died' : 'none';
    } finally {
      db.close();
    }
  } catch {
    return 'none'; // not an index yet, or unreadable: opening it says what is wrong
  } finally {
    lock.release();
  }
}
