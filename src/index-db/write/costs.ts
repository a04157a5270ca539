// The stored costs: the installed price table, the fingerprint of what the stored costs were computed with (meta
// `price_fingerprint`, and `price_models` per model), and the reprice of the models a new table prices otherwise: their
// messages' costs and the rollups with costs, in chunks between which the server goes on (reprice.ts), and the models'
// priced flags.
import type Database from 'better-sqlite3';
import { PriceTable } from '../../pricing/table.ts';
import { IndexWriteError } from '../errors.ts';
import type { IdMaps } from '../id-maps.ts';
import type { Msg } from '../rollup.ts';
import type { UndoLog } from '../undo-log.ts';
import type { GroupCommit } from './group-commit.ts';
import type { LocalZone } from './local-zone.ts';
import type { MetaWrites } from './meta.ts';
import { RepriceChunks } from './reprice.ts';

/** A chunk that could not be written (a full disk) is tried again after this long. */
const RETRY_MS = 1000;
/** cd_cost's arguments, from a message row: what a price applies to (an advisor row is priced as any other row). */
const COST_ARGS = 'model_id, input, output, cache_create, cache_read, cache_1h, web_search, fast, cost_usd, geo';

export class Costs {
  private prices: PriceTable | null = null;
  private fallback: PriceTable | null = null;
  /**
   * What the stored costs were computed with, as of the last write (meta `price_fingerprint`; null: not read yet):
   * the installed table's `costFingerprint` over every stored model name.
   */
  private costsFingerprint: string | null = null;
  /** The table and the number of model names that fingerprint was last made for: nothing to check until one changes. */
  private costsTable: PriceTable | null = null;
  private costsModels = -1;
  private readonly setPriced: Database.Statement;
  private readonly chunks: RepriceChunks;
  /** The next chunk of the reprice under way, when one is scheduled (a retry after a failed write: `retry`). */
  private next: NodeJS.Immediate | null = null;
  private retry: NodeJS.Timeout | null = null;
  /** The next chunk once a compaction under way lets writes go on (write/compact.ts). */
  private waiting: Promise<void> | null = null;
  private stopped = false;

  constructor(
    db: Database.Database,
    private readonly ids: IdMaps,
    private readonly meta: MetaWrites,
    private readonly undo: UndoLog,
    private readonly zone: LocalZone,
    chunkRows?: number,
  ) {
    this.setPriced = db.prepare('UPDATE models SET priced = ? WHERE id = ?');
    this.chunks = new RepriceChunks(db, meta, COST_ARGS, chunkRows);
    // Repricing runs in SQL over every stored copy; this calls back into the current table.
    db.function('cd_cost', { deterministic: true }, ((model: number, input: number, output: number, cacheCreate: number,
      cacheRead: number, cache1h: number, webSearch: number, fast: number, costUSD: number | null, geo: number) =>
      this.prices!.cost({
        model: this.ids.modelNames.get(model) ?? '', input, output, cacheCreate, cacheRead, cache1h, webSearch,
        fast: fast === 1, geoUs: geo === 1, costUSD,
      }).cost) as (...args: unknown[]) => number);
  }

  /**
   * The table for reads (cache savings): the installed one, else the built-in one. Reading never
   * installs a table, since that may reprice every stored cost while the real catalogue is still loading.
   */
  table(): PriceTable {
    return this.prices ?? (this.fallback ??= PriceTable.builtin());
  }

  /** Installs a table; the caller syncs the stored costs with it. */
  install(table: PriceTable): void {
    this.prices = table;
  }

  /** A write needs costs: with no table installed yet, the built-in one is (and may reprice). */
  installed(): boolean {
    return this.prices !== null;
  }

  priced = (name: string): boolean => name.startsWith('<') || this.prices!.lookup(name) !== null;

  costOf(model: string, m: Omit<Msg, 'cost'>): number {
    return this.prices!.cost({
      model, input: m.input, output: m.output, cacheCreate: m.cacheCreate, cacheRead: m.cacheRead,
      cache1h: m.cache1h, webSearch: m.webSearch, fast: m.fast === 1, geoUs: m.geo === 1, costUSD: m.costUSD,
    }).cost;
  }

  /**
   * Reprices the stored costs of the models that the installed table prices otherwise than the table they were
   * computed with (meta `price_models` says which). A new catalogue that only adds or changes other models (LiteLLM's
   * changes mostly) reprices nothing: a reprice of every model blocks the server for a while.
   */
  sync(commit: GroupCommit): void {
    const table = this.prices!;
    const names = this.ids.modelNames;
    // One left by a process that stopped halfway goes on once a table is installed.
    if (this.next === null && this.retry === null && this.waiting === null && !this.stopped && this.repricing()) this.next = setImmediate(() => this.drive(commit));
    if (table === this.costsTable && names.size === this.costsModels) return;
    const stored = (this.costsFingerprint ??= this.meta.value('price_fingerprint') ?? '');
    const wanted = table.costFingerprint(names.values());
    let begun = false;
    if (stored !== wanted) {
      // The models added since the last check were priced with this same table. An index written before the
      // fingerprint covered the stored models only holds the whole table's: its costs are this table's when it matches.
      const current = table === this.costsTable || stored === table.fingerprint;
      const signatures = Object.fromEntries([...names.values()].map((name) => [name, table.costFingerprint([name])]));
      commit.write(() => {
        if (!current) this.begin(this.changedModels(signatures));
        begun = !current;
        this.meta.set('price_fingerprint', wanted);
        this.meta.set('price_models', JSON.stringify(signatures));
        const was = { table: this.costsTable, models: this.costsModels };
        this.undo.push(() => {
          this.costsFingerprint = stored;
          this.costsTable = was.table;
          this.costsModels = was.models;
        });
      });
    }
    this.costsFingerprint = wanted;
    this.costsTable = table;
    this.costsModels = names.size;
    // The first chunk at once: a small index is repriced when this returns.
    if (begun) this.drive(commit);
  }

  /** Whether a reprice is under way: figures of the repriced models are not final until it is done. */
  repricing(): boolean {
    return this.chunks.progress() !== null;
  }

  /** A file's rows were taken out (their alternates promoted, with their stored costs): a reprice goes over them too. */
  fileReset(): void {
    this.chunks.restart();
  }

  /** Runs what is left of a reprice under way at once (a command, whose answer must not mix two tables). */
  finish(commit: GroupCommit): void {
    this.cancel();
    while (this.repricing()) this.chunk(commit);
  }

  /** Stops scheduling chunks (the index closes; meta `reprice` says what the next writer goes on with). */
  stop(): void {
    this.stopped = true;
    this.cancel();
  }

  /**
   * The ids of the models whose costs `signatures` (each stored name's `costFingerprint` under the new table) change,
   * against meta `price_models` as the last sync wrote it; null for all of them (no such record, or every model).
   */
  private changedModels(signatures: Record<string, string>): number[] | null {
    let was: unknown;
    try {
      was = JSON.parse(this.meta.value('price_models') ?? 'null');
    } catch {
      return null;
    }
    if (typeof was !== 'object' || was === null) return null;
    const before = was as Record<string, unknown>;
    const changed: number[] = [];
    for (const [id, name] of this.ids.modelNames) if (before[name] !== signatures[name]) changed.push(id);
    return changed.length === this.ids.modelNames.size ? null : changed;
  }

  /** A reprice of `models` (null: every model) from the first row, in the caller's write; the priced flags at once. */
  private begin(models: readonly number[] | null): void {
    this.chunks.begin(models);
    for (const [id, name] of this.ids.modelNames) this.setPriced.run(this.priced(name) ? 1 : 0, id);
  }

  /** One chunk now, as its own transaction, and the next one after the event loop has served what waits. */
  private drive(commit: GroupCommit): void {
    this.cancel();
    if (this.stopped) return;
    const held = commit.writesHeld();
    if (held) {
      const waiting: Promise<void> = held.then(() => {
        if (this.waiting === waiting) this.drive(commit);
      });
      this.waiting = waiting;
      return;
    }
    let done: boolean;
    try {
      done = this.chunk(commit);
    } catch (err) {
      if (!(err instanceof IndexWriteError)) throw err;
      // Logged by the group commit; the chunk was rolled back with meta `reprice`, so it is done again.
      this.retry = setTimeout(() => this.drive(commit), RETRY_MS);
      this.retry.unref();
      return;
    }
    if (!done) this.next = setImmediate(() => this.drive(commit));
  }

  /** One chunk of the reprice under way, committed at once; returns whether the reprice is done. */
  private chunk(commit: GroupCommit): boolean {
    // A chunk adds to the local rollups in the writer's zone: a zone changed since is rebuilt first.
    this.zone.sync(commit);
    let done = false;
    commit.write(() => {
      done = this.chunks.step(this.zone.current());
    });
    if (!commit.commit()) throw new IndexWriteError('io', 'the index file cannot be written now', null);
    return done;
  }

  private cancel(): void {
    if (this.next !== null) clearImmediate(this.next);
    if (this.retry !== null) clearTimeout(this.retry);
    this.next = null;
    this.retry = null;
    this.waiting = null;
  }
}
