// Entry point of the SQLite index: openIndex(file) -> IndexDb (see types.ts and docs/CONTRACTS.md).
import type Database from 'better-sqlite3';
import { closeDatabase, openDatabase } from './open.ts';
import { createQueries } from './queries/index.ts';
import type { IndexDb, IndexStats } from './types.ts';
import { Writer } from './writer.ts';

/** `commit()` makes pending writes durable at once (they otherwise are within 100 ms, and on close). */
export function openIndex(file: string, opts: { log?: (msg: string) => void } = {}): IndexDb & { commit(): void } {
  return openDatabase(file, opts.log ?? ((msg) => console.error(msg)), build);
}

function build(db: Database.Database): IndexDb & { commit(): void } {
  const writer = new Writer(db);
  const fileStats = db.prepare(`SELECT count(*) AS files, coalesce(sum(gone), 0) AS filesGone, coalesce(sum(lines), 0) AS lines,
      coalesce(sum(usage_lines), 0) AS usageLines, coalesce(sum(malformed), 0) AS malformed, coalesce(sum(giant), 0) AS giant,
      coalesce(sum(blank), 0) AS blank, coalesce(sum(out_of_range), 0) AS outOfRange, count(error) AS unreadable FROM files`);
  // The newest hour with usage, found from the end of the primary key, then its latest entry.
  const newestTs = db.prepare(`SELECT max(last_ts) FROM usage_hourly_model WHERE messages > 0
      AND hour = (SELECT hour FROM usage_hourly_model WHERE messages > 0 ORDER BY hour DESC LIMIT 1)`).pluck();
  const messageCount = db.prepare('SELECT count(*) FROM messages').pluck();
  return {
    cursorOf: (path) => writer.cursorOf(path),
    applyBatch: (batch, role, size, mtimeMs) => writer.applyBatch(batch, role, size, mtimeMs),
    resetFile: (path) => writer.resetFile(path),
    markGone: (path) => writer.markGone(path),
    markUnreadable: (path, error) => writer.markUnreadable(path, error),
    setPrices: (table) => writer.setPrices(table),
    dataVersion: () => writer.dataVersion(),
    stats(): IndexStats {
      const f = fileStats.get() as Omit<IndexStats, 'messages' | 'duplicates' | 'newestTs'>;
      const messages = messageCount.get() as number;
      // Every usage line that is not a stored message was a copy dropped by dedup.
      return { ...f, messages, duplicates: Math.max(0, f.usageLines - messages), newestTs: (newestTs.get() as number | null) ?? null };
    },
    queries: createQueries(db, () => writer.priceTable(), () => writer.syncTimeZone()),
    commit: () => writer.commit(),
    close() {
      writer.commit();
      closeDatabase(db);
    },
  };
}
