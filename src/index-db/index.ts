// Entry point of the SQLite index: openIndex(file) -> IndexDb, the one writer of the file, or
// openIndexReader(file) -> IndexReader for a process that found another writer holding the file.
import Database from 'better-sqlite3';
import { failureOf, IndexWriteError, writeErrorOf } from './errors.ts';
import { closeDatabase, openDatabase } from './open.ts';
import { PriceTable } from '../pricing/table.ts';
import { createQueries } from './queries/index.ts';
import { createReports } from './queries/reports.ts';
import { openReadConnection, snapshotOf } from './read-connection.ts';
import { changeMark, untilChange } from './queries/until-change.ts';
import type { IndexDb, IndexReader, IndexStats, Queries } from './types.ts';
import { Writer } from './writer.ts';
import { acquireWriterLock } from './writer-lock.ts';
import { recoveryOf, type Recovery } from './recovery.ts';
import { createLimitStore } from './limit-store.ts';

export { IndexWriteError } from './errors.ts';

export interface OpenOptions {
  log?: (msg: string) => void;
  /** A statement found the file damaged and its check confirmed it: recover it (recovery.ts) before opening. */
  damaged?: string;
  /** A statement found the file damaged; the caller recovers (sets it aside and rebuilds). */
  onCorrupt?: (err: IndexWriteError) => void;
  /** Row ids per chunk of a reprice (write/reprice.ts); a test makes them few. */
  repriceChunkRows?: number;
  /** The fewest new messages that make a compaction due (write/compact.ts); a test makes them few. */
  compactMinMessages?: number;
  /** Tests only: the server's compaction worker holds the write lock until this file exists (write/compact-worker.ts). */
  compactTestGate?: string;
}

/** Another process writes this index; it can be read (openIndexReader) but not written. */
export class IndexLockedError extends Error {
  constructor(readonly file: string, readonly writer: string) {
    super(`index ${file} is being written by another process (${writer})`);
    this.name = 'IndexLockedError';
  }
}

/**
 * Opens the index as its one writer. Throws IndexLockedError when another process writes it, and
 * IndexWriteError when the file is busy, read-only or cannot be opened (a damaged file is set aside and rebuilt).
 */
export function openIndex(file: string, opts: OpenOptions = {}): IndexDb & { commit(): boolean } {
  const log = opts.log ?? ((msg) => console.error(msg));
  const onCorrupt = opts.onCorrupt ?? (() => {});
  const lock = file === ':memory:' ? null : acquireWriterLock(file);
  if (file !== ':memory:' && !lock) throw new IndexLockedError(file, writerOf(file));
  try {
    return openDatabase(file, log, (db) => build(db, { log, onCorrupt, release: () => lock?.release(), repriceChunkRows: opts.repriceChunkRows, compactMinMessages: opts.compactMinMessages, compactTestGate: opts.compactTestGate }), opts.damaged);
  } catch (err) {
    lock?.release();
    throw err;
  }
}

function build(
  db: Database.Database,
  opts: { log: (msg: string) => void; onCorrupt: (err: IndexWriteError) => void; release: () => void; repriceChunkRows?: number | undefined; compactMinMessages?: number | undefined; compactTestGate?: string | undefined },
): IndexDb & { commit(): boolean } {
  const writer = new Writer(db, {
    log: opts.log,
    onCorrupt: opts.onCorrupt,
    ...(opts.repriceChunkRows ? { repriceChunkRows: opts.repriceChunkRows } : {}),
    ...(opts.compactMinMessages ? { compactMinMessages: opts.compactMinMessages } : {}),
    ...(opts.compactTestGate ? { compactTestGate: opts.compactTestGate } : {}),
  });
  const syncTimeZone = (): void => {
    try {
      writer.syncTimeZone();
    } catch (err) {
      // A full disk: logged by the writer; the queries derive local figures from the messages until a write succeeds.
      if (!(err instanceof IndexWriteError)) throw err;
    }
  };
  // A zone change since the last run rebuilds the local rollups now; the queries never rebuild anything.
  syncTimeZone();
  if (db.name !== ':memory:') {
    writer.quietMeta('writer', `pid ${process.pid}, since ${new Date().toISOString()}`);
    writer.commit();
  }
  const stats = statsQuery(db);
  const limits = createLimitStore(db);
  // Writes that change nothing this process's queries read (setFinalSince): the generation leaves them out.
  let quietWrites = 0;
  return {
    cursorOf: (path) => writer.cursorOf(path),
    foldZone: () => writer.foldZone(),
    applyBatch: (batch, role, size, mtimeMs) => {
      writer.applyBatch(batch, role, size, mtimeMs);
      // In the writer's open transaction, so the hits are kept with the cursor that passed them.
      limits.addHits(batch.meta.hits);
    },
    resetFile: (path) => writer.resetFile(path),
    markGone: (path) => writer.markGone(path),
    markUnreadable: (path, error) => writer.markUnreadable(path, error),
    setFinalSince(iso) {
      const before = writer.dataVersion();
      writer.quietMeta('final_since', iso ?? '');
      // Only the statusline reads this row, on a connection of its own: no query of this process reads it, so the
      // generation does not move for it (it moved for every second of a scan, and each move made the server compute
      // /metrics' counters and retention figures again). A failed write may have rolled back others: then it moves.
      if (writer.failure() === null && writer.dataVersion() === before + 1) quietWrites++;
    },
    setPrices: (table) => writer.setPrices(table),
    repricing: () => writer.repricing(),
    finishReprice: () => writer.finishReprice(),
    unresolvedRepositories: () => writer.unresolvedRepositories(),
    setRepository: (project, repository) => writer.setRepository(project, repository),
    writeSettings: (changes) => writer.writeSettings(changes),
    addLimitReadings: (readings) => limits.addReadings(readings),
    takeInLimitReadings: (sideFile) => limits.takeIn(sideFile),
    syncTimeZone,
    preloadKeys: (rows) => writer.preloadKeys(rows),
    compactIfDue: () => writer.compactIfDue(),
    compactInBackground: () => writer.compactInBackground(),
    writesHeld: () => writer.writesHeld(),
    dataVersion: () => writer.dataVersion(),
    // The queries read on the writer's connection, which sees its own pending writes: every write is a new generation.
    generation: () => writer.dataVersion() - quietWrites,
    snapshot: (read) => read(),
    stats,
    recovered: recoveredQuery(db),
    queries: reportCorruption(createQueries(db, () => writer.priceTable()), opts.onCorrupt),
    reports: createReports(db),
    quickCheck: () => String(db.pragma('quick_check', { simple: true })),
    writeFailure: () => writer.failure(),
    copyTo(file) {
      writer.commit();
      db.prepare('VACUUM INTO ?').run(file);
    },
    commit: () => writer.commit(),
    close() {
      try {
        writer.commit();
        writer.close();
        // A compaction still under way (the process exits without waiting for it, under a hub): no write here, which
        // would wait on its lock. The file is not marked closed cleanly, so the next open checks it; the VACUUM,
        // one transaction, is rolled back if the process ends before it commits.
        if (writer.writesHeld()) db.close();
        else closeDatabase(db);
      } finally {
        opts.release();
      }
    },
  };
}

/**
 * Opens the index for reading only, for a process that is not its writer. Every query sees the
 * writer's latest commit. Throws IndexWriteError('busy') while the file does not hold a schema yet
 * (its writer is creating it): try again shortly.
 */
export function openIndexReader(file: string, opts: { prices?: () => PriceTable } = {}): IndexReader {
  const db = openReadConnection(file);
  const fallback = PriceTable.builtin();
  const snapshot = snapshotOf(db);
  const stats = statsQuery(db);
  return {
    stats: () => snapshot(stats),
    recovered: recoveredQuery(db),
    // SQLite's data_version moves when another connection (the writer) commits.
    generation: () => db.pragma('data_version', { simple: true }) as number,
    snapshot,
    // Each query reads one state of the file: a query reads the models and projects, then rows that name them.
    queries: eachQuery(createQueries(db, opts.prices ?? (() => fallback)), (fn) => (...args) => snapshot(() => fn(...args))),
    reports: createReports(db),
    repricing: repricingQuery(db),
    close: () => db.close(),
  };
}

/** Whether the writer has a reprice under way (write/reprice.ts records it in meta `reprice`). */
function repricingQuery(db: Database.Database): () => boolean {
  const row = db.prepare("SELECT 1 FROM meta WHERE key = 'reprice'").pluck();
  return () => row.get() !== undefined;
}

/** Who holds the writer lock, as that writer recorded it in the file. */
function writerOf(file: string): string {
  try {
    const db = new Database(file, { fileMustExist: true, readonly: true, timeout: 1000 });
    try {
      return (db.prepare("SELECT value FROM meta WHERE key = 'writer'").pluck().get() as string | undefined) ?? 'unknown';
    } finally {
      db.close();
    }
  } catch {
    return 'unknown';
  }
}

function recoveredQuery(db: Database.Database): () => Recovery | null {
  const value = db.prepare("SELECT value FROM meta WHERE key = 'recovered'").pluck();
  return () => recoveryOf(value.get() as string | undefined);
}

function statsQuery(db: Database.Database): () => IndexStats {
  const fileStats = db.prepare(`SELECT count(*) AS files, coalesce(sum(gone), 0) AS filesGone, coalesce(sum(lines), 0) AS lines,
      coalesce(sum(usage_lines), 0) AS usageLines, coalesce(sum(malformed), 0) AS malformed, coalesce(sum(giant), 0) AS giant,
      coalesce(sum(blank), 0) AS blank, coalesce(sum(out_of_range), 0) AS outOfRange, count(error) AS unreadable FROM files`);
  // The newest hour with usage, found from the end of the primary key, then its latest entry.
  const newestTs = db.prepare(`SELECT max(last_ts) FROM usage_hourly_model WHERE messages > 0
      AND hour = (SELECT hour FROM usage_hourly_model WHERE messages > 0 ORDER BY hour DESC LIMIT 1)`).pluck();
  // The rollup's count: count(*) walks the whole table, on every overview.
  const messageCount = db.prepare('SELECT coalesce(sum(messages), 0) FROM usage_total').pluck();
  return untilChange(changeMark(db), () => {
    const f = fileStats.get() as Omit<IndexStats, 'messages' | 'duplicates' | 'newestTs'>;
    const messages = messageCount.get() as number;
    // Every usage line that is not a stored message was a copy dropped by dedup.
    return { ...f, messages, duplicates: Math.max(0, f.usageLines - messages), newestTs: (newestTs.get() as number | null) ?? null };
  });
}

/** Every query reports a damaged file to onCorrupt (and still fails, as it must). */
function reportCorruption(q: Queries, onCorrupt: (err: IndexWriteError) => void): Queries {
  const report = (err: unknown): void => {
    if (failureOf(err) === 'corrupt') onCorrupt(writeErrorOf(err));
  };
  // A query that answers later (a promise: the receipt) reports what fails in any of its reads.
  const guard = <A extends unknown[], R>(fn: (...args: A) => R) => (...args: A): R => {
    try {
      const out = fn(...args);
      return out instanceof Promise
        ? (out.catch((err: unknown) => {
            report(err);
            throw err;
          }) as R)
        : out;
    } catch (err) {
      report(err);
      throw err;
    }
  };
  return eachQuery(q, guard);
}

/** A wrapper of a query: the same function, run in some way (guarded, in a snapshot). */
type QueryWrap = <A extends unknown[], R>(fn: (...args: A) => R) => (...args: A) => R;

/** Every query of `q` (those of `retention` too) through `wrap`: the one list of the queries for every wrapper. */
function eachQuery(q: Queries, wrap: QueryWrap): Queries {
  return {
    metrics: wrap(q.metrics),
    overview: wrap(q.overview),
    insights: wrap(q.insights),
    monthly: wrap(q.monthly),
    projects: wrap(q.projects),
    projectSessions: wrap(q.projectSessions),
    session: wrap(q.session),
    sessions: wrap(q.sessions),
    receipt: wrap(q.receipt),
    knowsRepository: wrap(q.knowsRepository),
    knowsMachine: wrap(q.knowsMachine),
    knowsProject: wrap(q.knowsProject),
    budgets: wrap(q.budgets),
    limits: wrap(q.limits),
    pace: wrap(q.pace),
    repository: wrap(q.repository),
    retention: { dirFiles: wrap(q.retention.dirFiles), liveFiles: wrap(q.retention.liveFiles), keptFolder: wrap(q.retention.keptFolder) },
  };
}

