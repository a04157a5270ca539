// The group commit: every write of the writer joins one open transaction, committed COMMIT_MS after the first of them.
// Each write is still atomic (better-sqlite3 nests it as a savepoint) and carries its file cursor, so a crash loses
// at most the last moments of work, which is read again from the cursors on disk. The connection sees its own pending
// writes, so queries are never behind. Committing once per batch instead costs more than the batch itself (every
// commit rewrites the touched key-index pages). What a failed write or a failed commit rolled back is rolled back in
// the writer's memory too (UndoLog).
import type Database from 'better-sqlite3';
import { IndexWriteError, writeErrorOf, type IndexFailure } from '../errors.ts';
import type { UndoLog } from '../undo-log.ts';

/** Longest time a write waits to become durable. */
const COMMIT_MS = 1000;

export interface CommitOptions {
  log: (msg: string) => void;
  /** An SQLite statement reported a damaged file. */
  onCorrupt: (err: IndexWriteError) => void;
}

export class GroupCommit {
  /** The kind of the last failed write or commit, until one succeeds (logged once). */
  private failing: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** While a compaction runs on another connection (compact.ts runInWorker): resolves when writes may go on. */
  private held: Promise<void> | null = null;
  /** A write was refused during this hold (logged once). */
  private refused = false;
  /** Counts the writes (failed ones too: their rollback changed what the connection sees). */
  version = 0;

  constructor(
    private readonly db: Database.Database,
    private readonly undo: UndoLog,
    private readonly opts: CommitOptions,
  ) {}

  /** The kind of the last failed write or commit while no write has succeeded since (null: writes work). */
  failure(): IndexFailure | null {
    return this.failing as IndexFailure | null;
  }

  /**
   * Runs `fn` as one atomic write of the open transaction (begun here when none is). Throws IndexWriteError when it
   * fails: 'rejected' (a row broke a rule of the schema) as it is, any other kind logged once first.
   */
  write(fn: () => unknown): void {
    // Never wait on the compaction's write lock (the event loop would wait with it): a writer awaits writesHeld() first.
    // Refused, not failed: writes work, the file's state is unchanged, and the caller's retry path does it again.
    if (this.held) {
      if (!this.refused) this.opts.log('a write came while the index is compacted and was refused (it is done again later)');
      this.refused = true;
      throw new IndexWriteError('busy', 'the index is being compacted', null);
    }
    try {
      if (!this.db.inTransaction) {
        this.db.exec('BEGIN');
        this.timer = setTimeout(() => this.commit(), COMMIT_MS);
        this.timer.unref();
      }
    } catch (err) {
      throw this.writeFailed(writeErrorOf(err));
    }
    const mark = this.undo.mark();
    try {
      fn();
    } catch (err) {
      // A failed savepoint is rolled back by better-sqlite3; an I/O error or a full disk may make SQLite
      // roll back the whole transaction, and with it every write since the last commit.
      if (this.db.inTransaction) this.undo.rollbackTo(mark);
      else this.abandonPending();
      this.version++;
      const failure = writeErrorOf(err);
      throw failure.kind === 'rejected' ? failure : this.writeFailed(failure);
    }
    this.version++;
  }

  /**
   * Makes every write so far durable (also done COMMIT_MS after the first pending write, and by close).
   * Never throws: a commit that fails (full disk, I/O error) drops the pending writes from the file and
   * from memory alike, is logged once, and their files' cursors stay behind, so they are read again.
   * Returns whether everything written so far is durable.
   */
  commit(): boolean {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.db.inTransaction) return this.failing === null;
    try {
      this.db.exec('COMMIT');
      this.undo.clear();
      if (this.failing !== null) this.opts.log('index writes work again');
      this.failing = null;
      return true;
    } catch (err) {
      if (this.db.inTransaction) {
        try {
          this.db.exec('ROLLBACK');
        } catch {
          // the connection already rolled back, or cannot: either way nothing pending is kept
        }
      }
      this.abandonPending();
      this.writeFailed(writeErrorOf(err));
      return false;
    }
  }

  /** Writes and commits at once, so the write is durable when this returns; throws IndexWriteError when it is not. */
  writeDurably(fn: () => unknown): void {
    this.write(fn);
    if (!this.commit()) throw new IndexWriteError((this.failing ?? 'io') as IndexFailure, 'the index file cannot be written now', null);
  }

  /**
   * Holds every write (refused meanwhile) until the returned function is called: while a compaction on another
   * connection holds the file's write lock. Nothing may be pending (commit first).
   */
  hold(): () => void {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    this.held = held;
    this.refused = false;
    return () => {
      if (this.held === held) this.held = null;
      release();
    };
  }

  /** Resolves when held writes may go on; null when writes are not held. */
  writesHeld(): Promise<void> | null {
    return this.held;
  }

  /** Runs a write whose failure has been logged (writeFailed) and needs no more than that. */
  quietly(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      if (!(err instanceof IndexWriteError)) throw err;
    }
  }

  /** The transaction is gone: memory goes back to the last commit. */
  private abandonPending(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.undo.rollbackTo(0);
  }

  /** Logs a failure of the file (not of a row) once per kind until a write succeeds; reports corruption. */
  private writeFailed(err: IndexWriteError): IndexWriteError {
    if (this.failing !== err.kind) {
      this.failing = err.kind;
      this.opts.log(`index write failed (${err.message}); serving what is committed and retrying`);
    }
    if (err.kind === 'corrupt') this.opts.onCorrupt(err);
    return err;
  }
}
