// The statusline's view of the index: one query-only connection with the status queries, and whether the file is
// still marked open by a writer (a live one, or one that died without closing it). It loads no writer, pricing or
// dashboard query, so a render pays only for what it shows.
import { openReadConnection, snapshotOf } from './read-connection.ts';
import { createStatusQueries, type StatusQueries } from './queries/status.ts';

export interface StatusReader extends StatusQueries {
  /** The file's last writer has not closed it: it still runs, or it ended without closing (a crash, kill -9). */
  markedOpen(): boolean;
  close(): void;
}

/** Throws IndexWriteError as openReadConnection does (busy while a writer creates the file). */
export function openStatusReader(file: string): StatusReader {
  const db = openReadConnection(file);
  const queries = createStatusQueries(db);
  const snapshot = snapshotOf(db);
  return {
    ...queries,
    // The session's, today's and the block's figures of one state of the file (a server may be writing it).
    status: (sessionId, now) => snapshot(() => queries.status(sessionId, now)),
    markedOpen: () => db.prepare("SELECT value FROM meta WHERE key = 'open'").pluck().get() === '1',
    close: () => db.close(),
  };
}
