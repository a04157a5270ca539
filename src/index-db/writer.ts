// The only code that writes the index: one object over the jobs of src/index-db/write (applying a batch, the group
// commit, the costs and their reprice, the local-zone rebuild, the meta keys and settings). Every public write is
// atomic (a savepoint of the group commit, write/group-commit.ts), and the writer's memory follows the file: what a
// failed write or a failed commit rolled back is rolled back in memory too (UndoLog).
import type Database from 'better-sqlite3';
import type { UsageBatch } from '../workers/protocol.ts';
import { isHousekeeping } from '../shared/housekeeping.ts';
import { IdMaps } from './id-maps.ts';
import { IndexWriteError, type IndexFailure } from './errors.ts';
import { StoredKeys } from './stored-keys.ts';
import type { PriceTable } from '../pricing/table.ts';
import { RollupStatements, type Msg } from './rollup.ts';
import { MessageInserts } from './message-inserts.ts';
import type { SettingChange } from './settings.ts';
import type { FileCursor, FileRole } from './types.ts';
import { UndoLog } from './undo-log.ts';
import { BatchApplier } from './write/apply-batch.ts';
import { Compaction } from './write/compact.ts';
import { Costs } from './write/costs.ts';
import { GroupCommit } from './write/group-commit.ts';
import { LocalZone } from './write/local-zone.ts';
import { MetaWrites } from './write/meta.ts';
import { FileStatements, MessageStatements, MSG_SHAPES } from './write/statements.ts';
import { StoredCopies } from './write/stored-copies.ts';

export interface WriterOptions {
  log: (msg: string) => void;
  /** An SQLite statement reported a damaged file. */
  onCorrupt: (err: IndexWriteError) => void;
  /** Row ids per chunk of a reprice (write/reprice.ts; a test makes them few). */
  repriceChunkRows?: number;
  /** The fewest new messages that make a compaction due (write/compact.ts; a test makes them few). */
  compactMinMessages?: number;
  /** Tests only: the server's compaction worker holds the write lock until this file exists (write/compact-worker.ts). */
  compactTestGate?: string;
}

export class Writer {
  readonly ids: IdMaps;
  private readonly undo = new UndoLog();
  private readonly commits: GroupCommit;
  private readonly meta: MetaWrites;
  private readonly files: FileStatements;
  private readonly zone: LocalZone;
  private readonly costs: Costs;
  private readonly copies: StoredCopies;
  private readonly batches: BatchApplier;
  private readonly compaction: Compaction;

  constructor(db: Database.Database, opts: WriterOptions) {
    this.ids = new IdMaps(db, this.undo);
    this.commits = new GroupCommit(db, this.undo, opts);
    this.meta = new MetaWrites(db);
    this.files = new FileStatements(db);
    this.zone = new LocalZone(db, this.meta, this.undo);
    this.costs = new Costs(db, this.ids, this.meta, this.undo, this.zone, opts.repriceChunkRows);
    const inserts = new MessageInserts<Msg>(db, MSG_SHAPES);
    this.copies = new StoredCopies(this.ids, this.undo, new StoredKeys(db, opts.log), inserts, new MessageStatements(db));
    this.batches = new BatchApplier(db, this.ids, this.undo, this.files, this.copies, new RollupStatements(db), this.costs, this.zone, opts.log);
    this.compaction = new Compaction(db, this.commits, { log: opts.log, minMessages: opts.compactMinMessages, testGate: opts.compactTestGate });
  }

  dataVersion(): number {
    return this.commits.version;
  }

  /** The kind of the last failed write or commit while no write has succeeded since (null: writes work). */
  failure(): IndexFailure | null {
    return this.commits.failure();
  }

  /**
   * The table for reads (cache savings): the installed one, else the built-in one. Reading never
   * installs a table, since that may reprice every stored cost while the real catalogue is still loading.
   */
  priceTable(): PriceTable {
    return this.costs.table();
  }

  cursorOf(file: string): FileCursor | undefined {
    const r = this.files.readCursor.get(file) as
      | { size: number; mtimeMs: number; offset: number; head: string; gone: number; main: number; sub: number; prompt: string | null; hasAgentPrompt: number | null }
      | undefined;
    if (!r) return undefined;
    // A session's own transcript supplies its first prompt; its subagents' files one for a session that has none
    // (its title then); other files never ask for one. A stored housekeeping command waits for a real prompt.
    const hasPrompt = r.main === 1 ? r.prompt !== null && !isHousekeeping(r.prompt) : r.sub === 1 ? r.prompt !== null || r.hasAgentPrompt === 1 : true;
    return { size: r.size, mtimeMs: r.mtimeMs, offset: r.offset, head: r.head, gone: r.gone === 1, hasPrompt };
  }

  /**
   * Throws IndexWriteError when the batch could not be written (its cursor then stays where it was, so
   * the same bytes are read again later). A row the index rejects is skipped and counted, never its file.
   */
  applyBatch(batch: UsageBatch, role: FileRole, size: number, mtimeMs: number): void {
    // A write needs costs: with no table installed yet, the built-in one is (and may reprice).
    if (!this.costs.installed()) this.costs.install(this.costs.table());
    this.costs.sync(this.commits);
    this.syncTimeZone();
    try {
      this.commits.write(() => this.batches.applyTx(batch, role, size, mtimeMs, false));
    } catch (err) {
      if (!(err instanceof IndexWriteError) || err.kind !== 'rejected') throw err;
      // One of its rows broke a rule of the schema: place the rows one by one, skipping those that fail.
      this.commits.write(() => this.batches.applyTx(batch, role, size, mtimeMs, true));
    }
    // A model the batch added joins the stored fingerprint in the same transaction as its rows (left out, the next
    // start would reprice for it); a failure here only leaves that to the next check.
    this.commits.quietly(() => this.costs.sync(this.commits));
  }

  resetFile(file: string): void {
    if (!this.ids.files.has(file)) return;
    this.syncTimeZone();
    this.commits.write(() => {
      this.batches.resetTx(file);
      this.costs.fileReset();
    });
  }

  /** Bookkeeping only: when the file cannot be written now, the next change or check does it again. */
  markGone(file: string): void {
    this.commits.quietly(() => this.commits.write(() => this.files.gone.run(file)));
  }

  markUnreadable(file: string, error: string): void {
    this.commits.quietly(() => this.commits.write(() => this.files.unreadable.run(error, this.ids.file(file).id)));
  }

  unresolvedRepositories(): { project: string; cwd: string }[] {
    return this.files.unresolved.all() as { project: string; cwd: string }[];
  }

  /** Bookkeeping only: when it cannot be written now, the folder is resolved again at the next start. */
  setRepository(project: string, repository: string): void {
    this.commits.quietly(() => this.commits.write(() => this.files.projectRepo.run(repository, project)));
  }

  setPrices(table: PriceTable): void {
    this.costs.install(table);
    this.commits.quietly(() => this.costs.sync(this.commits));
  }

  /** Whether stored costs are being repriced, a chunk at a time (write/reprice.ts): figures are not final meanwhile. */
  repricing(): boolean {
    return this.costs.repricing();
  }

  /** Runs what is left of a reprice under way at once; throws IndexWriteError when a chunk cannot be written. */
  finishReprice(): void {
    if (this.costs.installed()) this.costs.finish(this.commits);
  }

  /** Sets a meta key; a failure (a full disk) is logged once and otherwise ignored. */
  quietMeta(key: string, value: string): void {
    this.commits.quietly(() => this.commits.write(() => this.meta.set(key, value)));
  }

  /**
   * Writes settings and commits at once (with whatever else is pending), so they are durable when this returns.
   * Throws IndexWriteError when the file cannot take them (a full disk: nothing of them is kept).
   */
  writeSettings(changes: readonly SettingChange[]): void {
    this.commits.writeDurably(() => this.meta.applySettings(changes));
  }

  /** Rebuilds the local rollups when the process time zone is not the one they were built in. */
  syncTimeZone(): void {
    this.zone.sync(this.commits);
  }

  /** The zone a parse worker folds a batch's local hours in (write/local-zone.ts). */
  foldZone(): string | null {
    return this.zone.foldZone();
  }

  /** Reads up to `rows` more stored keys into the key index; true once it holds every stored winner. */
  preloadKeys(rows: number): boolean {
    return this.copies.preloadKeys(rows);
  }

  /** Commits and compacts the file when this writer has more than doubled it (write/compact.ts); true when it did. */
  compactIfDue(): boolean {
    return this.compaction.runIfDue();
  }

  /** The same on a worker thread, this connection's writes held meanwhile (write/compact.ts); resolves when they go on. */
  compactInBackground(): Promise<boolean> {
    return this.compaction.runInWorker();
  }

  /** Resolves when held writes may go on (a compaction under way); null when writes are not held. */
  writesHeld(): Promise<void> | null {
    return this.commits.writesHeld();
  }

  /** After the last commit: closes the read-ahead's connection, and saves the key index beside the file when due. */
  close(): void {
    this.costs.stop();
    // A compaction under way holds the write lock: the key dump (its token is a meta row) is left to a later close.
    this.copies.close(this.commits.writesHeld() === null);
  }

  /** Makes every write so far durable; never throws (write/group-commit.ts). Returns whether everything is. */
  commit(): boolean {
    return this.commits.commit();
  }
}
