// A damaged index is never deleted and never mended in place: it is renamed aside (`<index>.damaged-<time>`, with its
// -wal and -shm) and a new file is built beside it from what it still holds (salvage.ts). Damage to what derives from
// the messages (a rollup, an index b-tree) then costs nothing; damage to the history itself costs only the rows of the
// pages that cannot be read, and the transcripts still on disk are read again to bring theirs back. What was carried
// and what was lost is told in the log and kept in the new file's meta row `recovered`, which the dashboard shows.
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { migrate, SCHEMA_VERSION } from './migrate.ts';
import { carryHistory, type Carried } from './salvage.ts';

/** What the user is told of a recovery (meta `recovered`, JSON). */
export interface Recovery {
  /** ISO time of the recovery. */
  at: string;
  /** Where the damaged file was kept. */
  aside: string;
  /** One sentence: what was carried, what was lost, what is read again. */
  summary: string;
}

/** Renames the file (with its -wal and -shm, which belong to it) to a free `<file>.damaged-<time>` name. */
function setAside(file: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let aside = `${file}.damaged-${stamp}`;
  for (let n = 2; fs.existsSync(aside); n++) aside = `${file}.damaged-${stamp}-${n}`;
  for (const suffix of ['', '-wal', '-shm']) {
    if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, aside + suffix);
  }
  return aside;
}

/**
 * Builds a new index beside the damaged `file` holding every history row it could still read, then sets the damaged
 * file aside and puts the new one in its place. The caller holds the writer lock. Returns what to tell the user.
 */
export function recoverFile(file: string): Recovery {
  const tmp = `${file}.salvage.${process.pid}.tmp`;
  fs.rmSync(tmp, { force: true });
  const to = new Database(tmp);
  let summary: string;
  try {
    migrate(to);
    try {
      summary = summaryOf(carryHistory(file, to, SCHEMA_VERSION));
    } catch (err) {
      // Its transaction rolled back: the new file is empty, and the transcripts are all there is to read.
      summary = `nothing could be carried over (${(err as Error).message}); the history is read again from the transcripts on disk`;
    }
  } catch (err) {
    to.close();
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  // The damaged file stays at its path until the new one is whole: a process killed before this point leaves it there,
  // and the next start recovers it again.
  const aside = setAside(file);
  const recovery: Recovery = { at: new Date().toISOString(), aside, summary };
  try {
    to.prepare("INSERT INTO meta (key, value) VALUES ('recovered', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
      .run(JSON.stringify(recovery));
  } finally {
    to.close();
  }
  fs.renameSync(tmp, file);
  return recovery;
}

function summaryOf(c: Carried | null): string {
  if (!c) return 'nothing in it could be read; the history is read again from the transcripts on disk';
  const n = (table: string): number => c.carried[table] ?? 0;
  const lostTables = Object.entries(c.lost);
  const kept = `${n('messages')} messages, ${n('alternates')} copies, ${n('files')} files and ${n('settings')} settings carried over`;
  if (!lostTables.length) return `${kept}, nothing lost; the totals were rebuilt from the messages`;
  const lost = lostTables.map(([table, rows]) => `${rows} of ${table}`).join(', ');
  return `${kept}; rows that could not be read: ${lost}${c.reread ? '; the transcripts on disk are read again to restore theirs' : ''}`;
}

/** The last recovery recorded in an index, or null. */
export function recoveryOf(value: string | undefined): Recovery | null {
  if (!value) return null;
  try {
    const r = JSON.parse(value) as Recovery;
    return typeof r.at === 'string' && typeof r.aside === 'string' && typeof r.summary === 'string' ? r : null;
  } catch {
    return null;
  }
}
