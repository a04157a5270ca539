// The index's side of GET /api/retention (issue 34): what it holds of transcripts that are gone from disk, and the
// transcripts it read under a projects folder that are still there (their modification times are read from disk by
// src/main/retention.ts, as Claude Code's cleanup reads them).
import type Database from 'better-sqlite3';
import { dayKey } from '../../calendar/days.ts';
import { dayOf, type Zone } from '../../calendar/zone.ts';
import type { OnlyInIndex, OnlyInIndexMonth } from '../../shared/retention-types.ts';

/** A transcript the index read that was not gone at its last check. */
export interface LiveFile {
  id: number;
  path: string;
  /** Its session's row id; null for a project-root file that is no session's own. */
  session: number | null;
  /** Its size and modification time as the index last saw them on disk (its cursor: the watcher and the re-check). */
  size: number;
  mtimeMs: number;
  /** The cost of the usage entries read from it (the index's copy of each: a copy that lost to another file's is not). */
  cost: number;
}

/** A transcript not marked gone, as the retention figures sum it: [its session's row id or null, size, mtimeMs, cost]. */
export type LiveRow = [session: number | null, size: number, mtimeMs: number, cost: number];

/** What the index holds of one projects folder, from one read of its files. */
export interface DirFiles {
  /** The transcripts under it not marked gone (as LiveFile, without the path and the id). */
  live: LiveRow[];
  /** Usage of the transcripts under it that are gone, all time and per local month of the zone asked for. */
  onlyInIndex: OnlyInIndex;
}

export interface RetentionQueries {
  /** The retention figures' reading of the files under `projectsDir` (months in `zone`). */
  dirFiles(projectsDir: string, zone: Zone): DirFiles;
  /** The transcripts under `projectsDir` not marked gone, with what their entries cost. */
  liveFiles(projectsDir: string): LiveFile[];
  /** The folder the dashboard's offer turned keeping on with (settings key KEEP_SETTING); null when it did not. */
  keptFolder(): string | null;
}

/** The settings key (settings.ts' table) of the folder keeping was turned on with from the dashboard. */
export const KEEP_SETTING = 'keep-transcripts';

/** Every zone's offset is a multiple of 15 minutes, so no quarter hour of UTC straddles a local month. */
const QUARTER_MS = 900_000;

const under = (dir: string): string => (dir.endsWith('/') || dir.endsWith('\\') ? dir : `${dir}${dir.includes('\\') ? '\\' : '/'}`);

/**
 * The paths under `dir` as a range of the files' path index: [dir + separator, dir + the separator's next character).
 * SQLite compares paths byte by byte, so the range holds exactly the paths with that prefix, read through the index
 * instead of a test of every file's path (most of a scrape's retention read at 10 GiB, ten dirs).
 */
function pathRange(dir: string): { from: string; to: string } {
  const from = under(dir);
  return { from, to: `${from.slice(0, -1)}${String.fromCharCode(from.charCodeAt(from.length - 1) + 1)}` };
}

export function createRetention(db: Database.Database): RetentionQueries {
  // Every file under a folder once, live and gone: the costs from the per-file rollup (one row a file, not its messages).
  const filesUnder = db.prepare(`SELECT f.id, f.session_id, f.size, f.mtime, f.gone, coalesce(t.cost, 0) FROM files f
    LEFT JOIN usage_total_file t ON t.file_id = f.id WHERE f.path >= @from AND f.path < @to`).raw(true);
  // A gone file's entries in quarter hours, with their sessions: a month's sessions are those with an entry in it.
  const quarters = db.prepare(`SELECT ts / ${QUARTER_MS}, session_id, count(*), total(cost) FROM messages WHERE file_id = ? GROUP BY 1, 2`).raw(true);
  // The costs from the per-file rollup: one row a file, not its messages (migration 018).
  const live = db.prepare(`SELECT f.id, f.path, f.session_id, f.size, f.mtime, coalesce(t.cost, 0) FROM files f
    LEFT JOIN usage_total_file t ON t.file_id = f.id WHERE f.path >= @from AND f.path < @to AND f.gone != 1`).raw(true);
  const kept = db.prepare('SELECT value FROM settings WHERE key = ?').pluck();

  return {
    dirFiles(projectsDir, zone) {
      const rows = filesUnder.all(pathRange(projectsDir)) as [id: number, session: number | null, size: number, mtime: number, gone: number, cost: number][];
      const live: LiveRow[] = [];
      // A session is kept only here when it has transcripts and every one of them is gone.
      const sessionGone = new Map<number, boolean>();
      for (const [, session, size, mtime, gone, cost] of rows) {
        if (gone !== 1) live.push([session, size, mtime, cost]);
        if (session !== null) sessionGone.set(session, (sessionGone.get(session) ?? true) && gone === 1);
      }
      const months = new Map<string, OnlyInIndexMonth & { ids: Set<number> }>();
      let messages = 0;
      let total = 0;
      for (const [id, , , , gone] of rows) {
        if (gone !== 1) continue;
        for (const [q, session, n, c] of quarters.all(id) as [number, number, number, number][]) {
          messages += n;
          total += c;
          const month = dayKey(dayOf(zone, q * QUARTER_MS)).slice(0, 7);
          let m = months.get(month);
          if (!m) months.set(month, (m = { month, sessions: 0, messages: 0, cost: 0, ids: new Set() }));
          m.messages += n;
          m.cost += c;
          if (sessionGone.get(session) === true) m.ids.add(session);
        }
      }
      const onlyInIndex = {
        sessions: [...sessionGone.values()].filter(Boolean).length,
        messages,
        cost: total,
        months: [...months.values()]
          .sort((a, b) => (a.month < b.month ? -1 : 1))
          .map(({ month, messages: n, cost: c, ids }) => ({ month, sessions: ids.size, messages: n, cost: c })),
      };
      return { live, onlyInIndex };
    },
    liveFiles(projectsDir) {
      return (live.all(pathRange(projectsDir)) as [number, string, number | null, number, number, number][])
        .map(([id, path, session, size, mtimeMs, cost]) => ({ id, path, session, size, mtimeMs, cost }));
    },
    keptFolder: () => (kept.get(KEEP_SETTING) as string | undefined) ?? null,
  };
}
