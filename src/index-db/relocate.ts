// The default index lives in the user data dir; versions before issue 37 kept it in the user cache dir, the one place
// cleaners wipe on purpose. An index found in the former place (and none in the new one) is moved once, with the files
// that belong to it, before anything opens it. It moves only while nothing has it open: an older server or command
// still using it would go on writing the moved file through its own WAL at the old path, so then it stays where it is
// for this run (and is read there) and moves on a later start.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { failureOf } from './errors.ts';
import { acquireWriterLock, type WriterLock } from './writer-lock.ts';

/**
 * Files beside an index that describe what it holds (its dedup keys, folder listings, price catalogue, the stamp of its
 * last full check): they move with it. The writer lock file stays (see writer-lock.ts), and so does `.update-pid`.
 */
const COMPANIONS = ['.keys', '.listing.json', '.prices.json', '.updated'];
/** How long a start waits for another process that holds the former index (it may be moving it) before reading it there. */
const BUSY_WAIT_MS = 2000;
const BUSY_POLL_MS = 100;

export interface SettleOptions {
  /** Whether this process may move the index (a writer); a reader (the statusline) only finds it. */
  move: boolean;
  log: (msg: string) => void;
}

/**
 * The index file to use: `indexPath`, unless the only index is still at `formerPath` (then it is moved there when
 * `move` allows and nothing has it open, else it is used where it is).
 */
export function settleIndexFile(indexPath: string, formerPath: string | null, opts: SettleOptions): string {
  if (formerPath === null || fs.existsSync(indexPath) || !fs.existsSync(formerPath)) return indexPath;
  if (!opts.move) return formerPath;
  return moveIndex(formerPath, indexPath, opts.log) ? indexPath : fs.existsSync(indexPath) ? indexPath : formerPath;
}

/** Moves the index `from` to `to` with its companions; false (and a log line) when it cannot now. */
function moveIndex(from: string, to: string, log: (msg: string) => void): boolean {
  const stays = (why: string) => {
    log(`index ${from} stays in the cache dir for now (${why}); it moves to ${to} on a start when nothing has it open`);
    return false;
  };
  let lock: WriterLock | null | 'moved';
  try {
    lock = lockWithin(from, to);
  } catch (err) {
    return stays((err as Error).message);
  }
  if (lock === 'moved') return true;
  if (lock === null) return stays('another process writes it');
  try {
    if (fs.existsSync(to) || !fs.existsSync(from)) return fs.existsSync(to); // another start moved it meanwhile
    let db: Database.Database | null = null;
    try {
      db = new Database(from, { fileMustExist: true, timeout: 0 });
      // Exclusive locking mode: the lock fails while any other connection has the file open, a reader included.
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE; COMMIT');
      // Every committed page into the file itself, so the file alone is the index.
      const [done] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      if (done?.busy !== 0) throw new Error('its WAL could not be written into it');
    } catch (err) {
      db?.close();
      return stays(failureOf(err) === 'busy' ? 'another process has it open' : (err as Error).message);
    }
    fs.mkdirSync(path.dirname(to), { recursive: true });
    // Renamed while the lock is held, so nothing can open the old path in between (Windows renames no open file).
    if (process.platform === 'win32') db.close();
    try {
      moveFile(from, to);
    } catch (err) {
      return stays((err as Error).message);
    } finally {
      if (db.open) db.close();
    }
    // The checkpoint emptied the WAL and nothing else has the file open: what is left at the old path is derived.
    for (const derived of [`${from}-wal`, `${from}-shm`]) if (fs.existsSync(derived) && (derived.endsWith('-shm') || fs.statSync(derived).size === 0)) fs.rmSync(derived);
    for (const companion of companionsOf(from)) {
      const target = path.join(path.dirname(to), path.basename(to) + companion.slice(path.basename(from).length));
      try {
        if (!fs.existsSync(target)) moveFile(path.join(path.dirname(from), companion), target);
      } catch (err) {
        log(`index ${from}: ${companion} not moved (${(err as Error).message}); it stays in the cache dir`);
      }
    }
    log(`index moved from ${from} to ${to} (the user data dir: cleaners wipe the cache dir)`);
    return true;
  } finally {
    lock.release();
  }
}

/** The writer lock of `from`, waiting a little while another process holds it; 'moved' when `to` appears meanwhile. */
function lockWithin(from: string, to: string): WriterLock | null | 'moved' {
  const until = Date.now() + BUSY_WAIT_MS;
  for (;;) {
    const lock = acquireWriterLock(from);
    if (lock) return lock;
    if (fs.existsSync(to)) return 'moved';
    if (Date.now() >= until) return null;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, BUSY_POLL_MS);
  }
}

/** The names beside `file` that belong to it: its companions and the damaged copies kept aside. */
function companionsOf(file: string): string[] {
  const base = path.basename(file);
  const names = fs.readdirSync(path.dirname(file));
  return names.filter((n) => COMPANIONS.some((c) => n === base + c) || n.startsWith(`${base}.damaged-`));
}

/**
 * Renames `from` to `to`; across file systems, copies it to a temporary name beside `to`, flushes it, renames that
 * into place and only then removes `from`, so a crash leaves one whole copy or the other.
 */
function moveFile(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
  }
  const temp = `${to}.moving-${process.pid}`;
  try {
    fs.copyFileSync(from, temp, fs.constants.COPYFILE_EXCL);
    const fd = fs.openSync(temp, 'r+');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, to);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
  fs.unlinkSync(from);
}
