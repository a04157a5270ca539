// One writer per index file. The lock is an exclusive SQLite lock (an OS file lock) on `<index>.lock`,
// held for the writer's lifetime: the OS drops it when the process ends, even on kill -9, so there is
// no stale lock to clean up. Other processes still read the index itself (WAL readers never block).
// The lock file is never deleted: a process that deleted it could leave two writers on two inodes.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { failureOf } from './errors.ts';
import { openError } from './open.ts';

export interface WriterLock {
  release(): void;
}

/** The lock, or null when another connection (this process or another) holds it. */
export function acquireWriterLock(indexFile: string): WriterLock | null {
  let db: Database.Database | null = null;
  try {
    // The default lives in the user data dir, which a fresh machine may not have yet.
    fs.mkdirSync(path.dirname(indexFile), { recursive: true });
    db = new Database(`${indexFile}.lock`, { timeout: 0 });
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db?.close();
    if (failureOf(err) === 'busy') return null;
    throw openError(indexFile, err);
  }
  const held = db;
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      try {
        held.exec('ROLLBACK');
      } finally {
        held.close();
      }
    },
  };
}

/** Whether another process writes the index now (the lock is taken and given back at once when free). */
export function writerIsLive(indexFile: string): boolean {
  const lock = acquireWriterLock(indexFile);
  lock?.release();
  return lock === null;
}
