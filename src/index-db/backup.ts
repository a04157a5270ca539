// Copies of the index file (issue 34): the index is the only copy of the history of deleted transcripts. A backup is
// SQLite's online backup, every page in one step, so it is one consistent state of the file however a server writes
// meanwhile; a restore puts a checked backup in the index's place and keeps the replaced file aside (nothing deletes an
// index). The note of the last backup (`<index>.backup.json`) is what GET /api/retention shows.
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { migrations } from './migrations/index.ts';
import { acquireWriterLock } from './writer-lock.ts';

/** What a copy of the index holds, read from the copy itself. */
export interface IndexSummary {
  messages: number;
  cost: number;
  /** Newest usage entry (epoch ms), null when there is none. */
  newestEntry: number | null;
}

export class BackupError extends Error {
  override name = 'BackupError';
}

export const backupNoteFile = (indexFile: string): string => `${indexFile}.backup.json`;

/** Every page in one step: one read transaction, so nothing a writer commits meanwhile makes the copy start over. */
const ALL_PAGES = 0x7fffffff;

function summaryOf(db: Database.Database): IndexSummary {
  const r = db.prepare('SELECT count(*) AS messages, total(cost) AS cost, max(ts) AS newestEntry FROM messages').get() as IndexSummary;
  return { messages: r.messages, cost: r.cost, newestEntry: r.newestEntry ?? null };
}

/** Opens a copy read-only and checks it whole: an index this code can read, undamaged. Throws BackupError. */
export function checkCopy(file: string): IndexSummary {
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > migrations.length) throw new BackupError(`${file} was made by a newer version of cost-dashboard (index format ${version})`);
    const check = db.pragma('integrity_check', { simple: true }) as string;
    if (check !== 'ok') throw new BackupError(`${file} is damaged: ${check}`);
    return summaryOf(db);
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${file} is not a readable cost-dashboard index: ${(err as Error).message}`);
  } finally {
    db?.close();
  }
}

/** The summary of the index as it is now; null when there is no index file. */
export function currentSummary(indexFile: string): IndexSummary | null {
  if (!fs.existsSync(indexFile)) return null;
  const db = new Database(indexFile, { readonly: true, fileMustExist: true });
  try {
    return summaryOf(db);
  } finally {
    db.close();
  }
}

/**
 * Backs `indexFile` up into `target` (which must not exist), checks the copy, and notes it beside the index. Throws
 * BackupError with one line; a failed copy leaves no file behind at `target`.
 */
export async function backupIndex(indexFile: string, target: string, now: Date = new Date()): Promise<IndexSummary> {
  if (!fs.existsSync(indexFile)) throw new BackupError(`no index at ${indexFile} (start the dashboard or run cost-dashboard update first)`);
  if (fs.existsSync(target)) throw new BackupError(`${target} exists; give a new file name (or --keep N for dated, rotated backups)`);
  const temp = `${target}.${process.pid}.tmp`;
  let db: Database.Database | null = null;
  try {
    db = new Database(indexFile, { readonly: true, fileMustExist: true });
    await db.backup(temp, { progress: () => ALL_PAGES });
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw new BackupError(`cannot back up to ${target}: ${(err as Error).message}`);
  } finally {
    db?.close();
  }
  let summary: IndexSummary;
  try {
    standalone(temp);
    summary = checkCopy(temp);
    fs.renameSync(temp, target);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err instanceof BackupError ? err : new BackupError(`cannot back up to ${target}: ${(err as Error).message}`);
  }
  try {
    fs.writeFileSync(backupNoteFile(indexFile), `${JSON.stringify({ lastAt: now.toISOString(), path: target })}\n`);
  } catch {
    // The backup itself is made; only the dashboard's note of it is missing.
  }
  return summary;
}

/** A copy keeps the index's WAL mode, whose readers leave -wal and -shm files beside it: a backup is one file. */
function standalone(file: string): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
}

/** The note of the last backup; null when there is none or it cannot be read. */
export function readBackupNote(indexFile: string): { lastAt: string; path: string } | null {
  try {
    const note = JSON.parse(fs.readFileSync(backupNoteFile(indexFile), 'utf8')) as { lastAt?: unknown; path?: unknown };
    return typeof note.lastAt === 'string' && typeof note.path === 'string' ? { lastAt: note.lastAt, path: note.path } : null;
  } catch {
    return null;
  }
}

/** Whether `a` holds usage `b` does not: a newer entry, or as new and more of them. */
export function isNewer(a: IndexSummary, b: IndexSummary): boolean {
  const an = a.newestEntry ?? -Infinity;
  const bn = b.newestEntry ?? -Infinity;
  return an > bn || (an === bn && a.messages > b.messages);
}

/**
 * Puts the backup `source` in the index's place. Refuses (BackupError) a damaged or unknown backup, an index a process
 * writes, and, unless `force`, an index newer than the backup. The replaced index (with its WAL) is kept as
 * `<index>.before-restore-<time>`; returns that path (null when there was no index) and the backup's summary.
 */
export function restoreIndex(indexFile: string, source: string, force: boolean, now: Date = new Date()): { aside: string | null; summary: IndexSummary } {
  const summary = checkCopy(source);
  const lock = acquireWriterLock(indexFile);
  if (!lock) throw new BackupError(`a server or command writes ${indexFile}; stop it before restoring`);
  try {
    const current = currentSummary(indexFile);
    if (current && !force && isNewer(current, summary)) {
      const at = (ms: number | null): string => (ms === null ? 'none' : new Date(ms).toISOString());
      throw new BackupError(`${indexFile} is newer than ${source} (newest entry ${at(current.newestEntry)}, ${current.messages} entries; the backup: ${at(summary.newestEntry)}, ${summary.messages}); --force replaces it`);
    }
    const temp = `${indexFile}.restore.${process.pid}.tmp`;
    fs.copyFileSync(source, temp);
    let aside: string | null = null;
    try {
      if (fs.existsSync(indexFile)) {
        aside = `${indexFile}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
        fs.renameSync(indexFile, aside);
        // The replaced file's log belongs with it: left beside the restored file, SQLite would apply it there.
        for (const side of ['-wal', '-shm']) if (fs.existsSync(indexFile + side)) fs.renameSync(indexFile + side, aside + side);
      }
      fs.renameSync(temp, indexFile);
    } finally {
      fs.rmSync(temp, { force: true });
    }
    return { aside, summary };
  } finally {
    lock.release();
  }
}
