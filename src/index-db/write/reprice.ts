// A reprice in bounded chunks: the stored copies of some models get the installed table's costs a range of row ids at a
// time, each chunk one short write that also adds the change of its rows' costs to every rollup with costs, so that
// between two chunks the rollups still equal the sums of the messages (half of them repriced) and the writer's batches
// go on as usual in between. Meta `reprice` records what is left, in the same write as each chunk: a process that stops
// halfway goes on from there at its next start.
import type Database from 'better-sqlite3';
import { ROLLUPS, type Key, type Rollup } from '../schema/rollups.ts';
import { HOUR_MS } from '../time.ts';
import type { MetaWrites } from './meta.ts';

/** Row ids per chunk: a bounded run of cd_cost calls and keyed updates, whatever the size of the history. */
export const REPRICE_CHUNK_ROWS = 2048;

const META_KEY = 'reprice';

/** What is left of a reprice: the models (null: every model) and the next rows, `messages` first, then `alternates`. */
export interface RepriceProgress {
  models: number[] | null;
  table: 'messages' | 'alternates';
  /** The last row id done in `table`. */
  after: number;
}

const WITH_COSTS = Object.values(ROLLUPS).filter((r) => r.measures.some((m) => m.column === 'cost'));
const UTC_COSTS = WITH_COSTS.filter((r) => r.grain === 'utc-hour' || r.grain === 'all-time');
const LOCAL_COSTS = WITH_COSTS.filter((r) => r.grain === 'local-hour' || r.grain === 'local-day');

/** A rollup key spelt over a row of `temp.reprice_rows` (a column of the same name unless named here). */
const CHUNK_KEYS: Partial<Record<Key, string>> = {
  hour: `CAST(ts / ${HOUR_MS} AS INTEGER)`,
  sub: 'agent_id IS NOT NULL',
  day: 'lhour / 24',
  lhour: 'lhour',
};
/** The message columns the rollups with costs are keyed by (every other key is spelt from ts and agent_id). */
const KEY_COLUMNS = [...new Set(WITH_COSTS.flatMap((r) => r.keys))].filter((k) => CHUNK_KEYS[k] === undefined);

/** Adds the chunk's changes of cost to the rows of `r` they fall in (every such row exists: its messages are in it). */
function addDeltas(r: Rollup): string {
  const keys = r.keys.map((k) => `${CHUNK_KEYS[k] ?? k} AS ${k}`).join(', ');
  const groups = r.keys.map((_, i) => i + 1).join(', ');
  const match = r.keys.map((k) => `${r.table}.${k} = d.${k}`).join(' AND ');
  return `UPDATE ${r.table} SET cost = ${r.table}.cost + d.delta
    FROM (SELECT ${keys}, sum(delta) AS delta FROM temp.reprice_rows GROUP BY ${groups}) d WHERE ${match}`;
}

const parse = (text: string | undefined): RepriceProgress | null => {
  if (text === undefined) return null;
  try {
    const p = JSON.parse(text) as RepriceProgress;
    const modelsOk = p.models === null || (Array.isArray(p.models) && p.models.every(Number.isInteger));
    if (modelsOk && (p.table === 'messages' || p.table === 'alternates') && Number.isInteger(p.after)) return p;
  } catch {
    // a damaged record: below, every model from the start, which is never wrong (a chunk only moves costs that differ)
  }
  return { models: null, table: 'messages', after: 0 };
};

export class RepriceChunks {
  private readonly maxId: Record<RepriceProgress['table'], Database.Statement>;

  constructor(
    private readonly db: Database.Database,
    private readonly meta: MetaWrites,
    /** The message columns cd_cost takes (costs.ts). */
    private readonly costArgs: string,
    private readonly chunkRows = REPRICE_CHUNK_ROWS,
  ) {
    this.maxId = {
      messages: db.prepare('SELECT coalesce(max(id), 0) FROM messages').pluck(),
      alternates: db.prepare('SELECT coalesce(max(id), 0) FROM alternates').pluck(),
    };
  }

  /** What is left of the reprice under way, as the file says (null: none). */
  progress(): RepriceProgress | null {
    return parse(this.meta.value(META_KEY));
  }

  /**
   * Starts a reprice of `models` (null: every model) from the first row. One under way is folded in: its models are
   * repriced again from the first row too, since the rows it has done were done with another table.
   */
  begin(models: readonly number[] | null): void {
    const was = this.progress();
    const all = models === null || (was !== null && was.models === null);
    const union = all ? null : [...new Set([...(was?.models ?? []), ...models!])].sort((a, b) => a - b);
    if (union !== null && union.length === 0) return;
    this.save({ models: union, table: 'messages', after: 0 });
  }

  /**
   * A file's rows were taken out while a reprice is under way: its best alternates became messages, with the costs
   * they were stored with, perhaps under a row id already done. The reprice starts again from the first row (rare;
   * a chunk over rows already repriced changes nothing).
   */
  restart(): void {
    const p = this.progress();
    if (p) this.save({ ...p, table: 'messages', after: 0 });
  }

  /**
   * Reprices the next rows, at most `chunkRows` row ids of `messages` then `alternates`, in the caller's write; `local`:
   * the local rollups are in the writer's zone (cd_lhour), else a zone rebuild redoes them from the messages. Returns
   * whether the reprice is done.
   */
  step(local: boolean): boolean {
    let p = this.progress();
    if (!p) return true;
    let budget = this.chunkRows;
    for (;;) {
      const last = this.maxId[p.table].get() as number;
      if (p.after < last && budget > 0) {
        const to = Math.min(p.after + budget, last);
        budget -= to - p.after;
        this.reprice(p, to, local);
        p = { ...p, after: to };
      }
      if (p.after < last) break;
      if (p.table === 'alternates') {
        this.meta.delete(META_KEY);
        return true;
      }
      p = { ...p, table: 'alternates', after: 0 };
    }
    this.save(p);
    return false;
  }

  /** New costs for the rows of `p.table` after `p.after` up to `to`, and their changes added to the rollups. */
  private reprice(p: RepriceProgress, to: number, local: boolean): void {
    const models = p.models === null ? '' : ` AND model_id IN (${p.models.join(',')})`;
    const where = `WHERE id > ${p.after} AND id <= ${to}${models}`;
    if (p.table === 'alternates') {
      // Losing copies are in no rollup.
      this.db.exec(`UPDATE alternates SET cost = cd_cost(${this.costArgs}) ${where}`);
      return;
    }
    this.db.exec(`DROP TABLE IF EXISTS temp.reprice_rows;
      CREATE TEMP TABLE reprice_rows AS SELECT id, ts, agent_id, ${KEY_COLUMNS.join(', ')},
        ${local ? 'CAST(cd_lhour(ts) AS INTEGER)' : 'NULL'} AS lhour, fresh, fresh - cost AS delta FROM (
        SELECT *, cd_cost(${this.costArgs}) AS fresh FROM messages ${where}) WHERE fresh != cost;
      ${[...UTC_COSTS, ...(local ? LOCAL_COSTS : [])].map((r) => `${addDeltas(r)};`).join('\n')}
      UPDATE messages SET cost = r.fresh FROM temp.reprice_rows r WHERE messages.id = r.id;
      DROP TABLE temp.reprice_rows;`);
  }

  private save(p: RepriceProgress): void {
    this.meta.set(META_KEY, JSON.stringify(p));
  }
}
