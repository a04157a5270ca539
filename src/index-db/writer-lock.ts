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
  const lockFile = `${indexFile}.lock`;
  let held: Database.Database | null;
  try {
    // The default lives in the user data dir, which a fresh machine may not have yet.
    fs.mkdirSync(path.dirname(indexFile), { recursive: true });
    held = lockOn(lockFile);
  } catch (err) {
    if (failureOf(err) !== 'corrupt') throw openError(indexFile, err);
    // Not a database (garbage written over it): nobody can hold it, and it holds no data. Emptied in place, never
    // replaced by another file, so every process still locks the one inode; an empty file is an empty database.
    try {
      fs.truncateSync(lockFile, 0);
      held = lockOn(lockFile);
    } catch (again) {
      throw openError(indexFile, again);
    }
  }
  if (!held) return null;
  const db = held;
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      try {
        db.exec('ROLLBACK');
      } finally {
        db.close();
      }
    },
  };
}

/** An exclusive lock on the file through a connection of its own; null when another connection holds it. */
function lockOn(lockFile: string): Database.Database | null {
  let db: Database.Database | null = null;
  try {
    db = new Database(lockFile, { timeout: 0 });
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    return db;
  } catch (err) {
    db?.close();
    if (failureOf(err) === 'busy') return null;
    throw err;
  }
}

/** Whether another process writes the index now (the lock is taken and given back at once when free). */
export function writerIsLive(indexFile: string): boolean {
  const lock = acquireWriterLock(indexFile);
  lock?.release();
  return lock === null;
}
