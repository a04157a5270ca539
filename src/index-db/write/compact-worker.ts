// The server's compaction (compact.ts runInWorker), on a worker thread with a connection of its own: the VACUUM and
// the WAL's checkpoint after it hold this thread, not the main one, whose connection keeps answering from the last
// commit (WAL) while its writes wait for this to end. Posts one CompactResult and ends.
import { parentPort, workerData } from 'node:worker_threads';
import fs from 'node:fs';
import Database from 'better-sqlite3';

export interface CompactTask {
  file: string;
  busyMs: number;
  /**
   * Tests only: takes the write lock, waits until this file exists, then lets go of it and compacts: a compaction as
   * long as the test wants, with the lock held as the VACUUM holds it.
   */
  gate?: string | undefined;
}

export type CompactResult =
  | { ok: true; checkpoint: 'done' | 'partial' | string }
  | { ok: false; message: string };

function compact(task: CompactTask): CompactResult {
  let db: Database.Database;
  try {
    db = new Database(task.file, { fileMustExist: true, timeout: task.busyMs });
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  try {
    // The copy VACUUM builds goes to a temp file, not to memory: in memory it raised the process's peak by the
    // size of the file.
    db.pragma('temp_store = FILE');
    if (task.gate) {
      db.exec('BEGIN IMMEDIATE');
      while (!fs.existsSync(task.gate)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
      db.exec('ROLLBACK');
    }
    try {
      db.exec('VACUUM');
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
    // In WAL mode the new pages went through the WAL, as big as the file: copy them back and empty it now, not at the
    // next checkpoint that finds no reader. A reader of the main thread holding an older snapshot past the busy
    // timeout makes it partial: a later checkpoint finishes it.
    try {
      const [row] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      return { ok: true, checkpoint: row?.busy ? 'partial' : 'done' };
    } catch (err) {
      return { ok: true, checkpoint: (err as Error).message };
    }
  } finally {
    db.close();
  }
}

parentPort?.postMessage(compact(workerData as CompactTask));
