// The stored costs: the installed price table, the fingerprint of what the stored costs were computed with (meta
// `price_fingerprint`, and `price_models` per model), and the reprice of the models a new table prices otherwise: their
// messages' costs, the rollups with costs built from them, and the models' priced flags.
import type Database from 'better-sqlite3';
import { PriceTable } from '../../pricing/table.ts';
import type { IdMaps } from '../id-maps.ts';
import type { Msg } from '../rollup.ts';
import { rebuildSql } from '../schema/rollup-sql.ts';
import { ROLLUPS } from '../schema/rollups.ts';
import { HOUR_MS } from '../time.ts';
import type { UndoLog } from '../undo-log.ts';
import type { GroupCommit } from './group-commit.ts';
import { ofModels, type LocalZone } from './local-zone.ts';
import type { MetaWrites } from './meta.ts';

/** The UTC rollups with costs, finer ones first (the tools' have none: a new price leaves them as they are). */
const UTC_COSTS = Object.values(ROLLUPS).filter((r) => (r.grain === 'utc-hour' || r.grain === 'all-time') && r.measures.some((m) => m.column === 'cost'));
const MSG_KEYS = { hour: `CAST(ts / ${HOUR_MS} AS INTEGER)`, sub: 'agent_id IS NOT NULL' };
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
  private readonly repriceTx: (models: readonly number[] | null) => void;
  private readonly setPriced: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly ids: IdMaps,
    private readonly meta: MetaWrites,
    private readonly undo: UndoLog,
    private readonly zone: LocalZone,
  ) {
    this.setPriced = db.prepare('UPDATE models SET priced = ? WHERE id = ?');
    this.repriceTx = db.transaction(this.reprice.bind(this));
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
    if (table === this.costsTable && names.size === this.costsModels) return;
    const stored = (this.costsFingerprint ??= this.meta.value('price_fingerprint') ?? '');
    const wanted = table.costFingerprint(names.values());
    if (stored !== wanted) {
      // The models added since the last check were priced with this same table. An index written before the
      // fingerprint covered the stored models only holds the whole table's: its costs are this table's when it matches.
      const current = table === this.costsTable || stored === table.fingerprint;
      const signatures = Object.fromEntries([...names.values()].map((name) => [name, table.costFingerprint([name])]));
      commit.write(() => {
        if (!current) this.repriceTx(this.changedModels(signatures));
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

  /**
   * New prices (the installed table's) for the messages of `models` (null: every model): their costs, the rollups
   * built from them, and the priced flags. Rows of other models and the rollups without costs (sessions, tools) are
   * left as they are: a price change of one model is a fraction of a reprice of the whole history.
   */
  private reprice(models: readonly number[] | null): void {
    const where = ofModels(models);
    this.db.exec(`UPDATE messages SET cost = cd_cost(${COST_ARGS}) ${where}; UPDATE alternates SET cost = cd_cost(${COST_ARGS}) ${where};`);
    this.db.exec(rebuildSql(UTC_COSTS, 'messages', MSG_KEYS, where));
    this.zone.repriced(models);
    for (const [id, name] of this.ids.modelNames) this.setPriced.run(this.priced(name) ? 1 : 0, id);
  }
}
