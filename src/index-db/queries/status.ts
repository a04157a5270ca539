// What a statusline shows: one session's cost, today's and the active 5-hour block, with the fewest reads. Today
// is every entry of the local day: its whole UTC hours from the hourly rollup and the partial hours at its edges
// (a :30 or :45 zone) from the messages, so it is exact in any zone without asking which zone the daily rollup
// was built in (Intl's zone lookup alone is a large share of a render).
import type Database from 'better-sqlite3';
import type { Block } from '../../shared/api-types.ts';
import { todaySpan } from '../../calendar/resolve.ts';
import { systemZone } from '../../calendar/zone.ts';
import { blocksOverlapping } from './blocks.ts';
import { Reader } from './reader.ts';

/** One session's cost (null when the index does not know it), today's, the active block. */
export interface StatusFigures {
  sessionCost: number | null;
  todayCost: number;
  block: Block | null;
  /** Whether today's figure is final: no first index (or catch-up) is reading transcripts that may hold today. */
  todayFinal: boolean;
}

export interface StatusQueries {
  /** The figures at `now` (today = the local day of `now`). */
  status(sessionId: string | null, now: number): StatusFigures;
  /** What the index knows of a transcript's size and mtime (its cursor), null for a file it never read. */
  fileState(path: string): { size: number; mtimeMs: number; gone: boolean } | null;
}

export function createStatusQueries(db: Database.Database): StatusQueries {
  const reader = new Reader(db);
  const fileState = db.prepare('SELECT size, mtime AS mtimeMs, gone = 1 AS gone FROM files WHERE path = ?');
  const finalSince = db.prepare("SELECT value FROM meta WHERE key = 'final_since'").pluck();
  // A reprice under way (write/reprice.ts): some of today's costs may still be the old table's.
  const repricing = db.prepare("SELECT 1 FROM meta WHERE key = 'reprice'").pluck();
  const sessionByName = db.prepare('SELECT id, project_id FROM sessions WHERE sid = ?').raw(true);
  // The rows of the dashboard's session query (session.ts): the session's files and the project-root
  // files attributed to it line by line.
  const sessionCost = db.prepare(`SELECT coalesce(sum(cost), 0) FROM messages
    WHERE file_id IN (SELECT id FROM files WHERE session_id = @session OR (session_id IS NULL AND project_id = @project))
      AND session_id = @session`).pluck();

  return {
    status(sessionId, now) {
      const s = sessionId ? (sessionByName.get(sessionId) as [number, number] | undefined) : undefined;
      const session = s ? (sessionCost.get({ session: s[0], project: s[1] }) as number) : null;
      const today = reader.spanCost(todaySpan(now, systemZone).hours, null);
      const block = blocksOverlapping(reader, null, reader.models(), now, now + 1, now).blocks.find((b) => b.active) ?? null;
      const since = finalSince.get() as string | undefined;
      const todayFinal = (!since || Date.parse(since) <= todaySpan(now, systemZone).fromMs) && repricing.get() === undefined;
      return { sessionCost: session, todayCost: today, block, todayFinal };
    },
    fileState(path) {
      const r = fileState.get(path) as { size: number; mtimeMs: number; gone: number } | undefined;
      return r ? { size: r.size, mtimeMs: r.mtimeMs, gone: r.gone === 1 } : null;
    },
  };
}
