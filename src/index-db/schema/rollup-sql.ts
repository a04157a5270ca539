// The SQL of the rollups, made from their declaration (rollups.ts): the writer's upserts and drops, the rebuilds from
// the messages or from a finer rollup, and the rows a local rollup's reads derive from the messages. Text only: the
// callers prepare or run it.
import type { Measure } from './measures.ts';
import { columnsOf, counter, type Key, type Rollup } from './rollups.ts';

/** The ON CONFLICT update that adds a row's measures into the stored row. */
function merge(m: Measure): string {
  const c = m.column;
  switch (m.combine) {
    case 'count':
    case 'sum':
      return `${c} = ${c} + excluded.${c}`;
    case 'first':
      return `${c} = min(coalesce(${c}, excluded.${c}), coalesce(excluded.${c}, ${c}))`;
    case 'last':
      return `${c} = max(coalesce(${c}, excluded.${c}), coalesce(excluded.${c}, ${c}))`;
  }
}

/** An upsert of many rows (many-rows.ts): its head, its width and its tail. */
export function upsertOf(r: Rollup): { head: string; width: number; tail: string } {
  return {
    head: `INSERT INTO ${r.table} (${columnsOf(r).join(', ')}) VALUES`,
    width: columnsOf(r).length,
    tail: `ON CONFLICT (${r.keys.join(', ')}) DO UPDATE SET ${r.measures.map(merge).join(', ')}`,
  };
}

/** Deletes the row of a key (bound in key order) when its count reached zero. */
export const dropOf = (r: Rollup): string =>
  `DELETE FROM ${r.table} WHERE ${r.keys.map((k) => `${k} = ?`).join(' AND ')} AND ${counter(r).column} <= 0`;

/** A measure over message rows (`messages`, or rows with its columns): per group, and per row. */
function ofMessages(m: Measure): { group: string; row: string } {
  switch (m.combine) {
    case 'count':
      return { group: 'count(*)', row: '1' };
    case 'sum':
      return { group: `sum(${m.column})`, row: m.column };
    case 'first':
      return { group: 'min(ts)', row: 'ts' };
    case 'last':
      return { group: 'max(ts)', row: 'ts' };
  }
}

/** A measure over the rows of a finer rollup. */
function ofRollup(m: Measure): string {
  switch (m.combine) {
    case 'count':
    case 'sum':
      return `sum(${m.column})`;
    case 'first':
      return `min(${m.column})`;
    case 'last':
      return `max(${m.column})`;
  }
}

/** How a source of message rows spells each key (a column of the source unless named here). */
export type KeyExprs = Partial<Record<Key, string>>;

const groupBy = (r: Rollup): string => r.keys.map((_, i) => i + 1).join(', ');

/**
 * Fills a rollup from message rows: `source` is what follows FROM (a table and its WHERE), `keys` how it spells the
 * keys (e.g. the UTC hour of `ts`).
 */
function insertFromMessages(r: Rollup, source: string, keys: KeyExprs): string {
  const cols = [...r.keys.map((k) => keys[k] ?? k), ...r.measures.map((m) => ofMessages(m).group)];
  return `INSERT INTO ${r.table} (${columnsOf(r).join(', ')}) SELECT ${cols.join(', ')} FROM ${source} GROUP BY ${groupBy(r)}`;
}

/** Fills a rollup from the finer rollup it is declared `from`, `where` restricting that one's rows. */
function insertFromFiner(r: Rollup, where = ''): string {
  if (!r.from) throw new Error(`rollup ${r.table} is made from the messages`);
  const cols = [...r.keys, ...r.measures.map(ofRollup)];
  return `INSERT INTO ${r.table} (${columnsOf(r).join(', ')}) SELECT ${cols.join(', ')} FROM ${r.from}${where ? ` ${where}` : ''} GROUP BY ${groupBy(r)}`;
}

/** A rollup's columns as one row per message of `source`. */
function rowsOf(r: Rollup, source: string, keys: KeyExprs): string {
  const cols = [...r.keys.map((k) => `${keys[k] ?? k} AS ${k}`), ...r.measures.map((m) => `${ofMessages(m).row} AS ${m.column}`)];
  return `SELECT ${cols.join(', ')} FROM ${source}`;
}

/**
 * A recursive CTE `split` of the uses of each tool by the messages of `table` (and `where`): rows of the time `unit`,
 * `project_id` and `tool` (NULL: the first step of a message) split from the messages' comma-joined `tools`. `unitOf`
 * spells a message's time unit.
 */
function toolUses(table: string, where: string, unit: Key, unitOf: string): string {
  return `WITH RECURSIVE split(${unit}, project_id, tool, rest) AS (
    SELECT ${unitOf}, project_id, NULL, tools || ',' FROM ${table} WHERE tools != ''${where ? ` AND ${where}` : ''}
    UNION ALL
    SELECT ${unit}, project_id, substr(rest, 1, instr(rest, ',') - 1), substr(rest, instr(rest, ',') + 1) FROM split WHERE rest != ''
  )`;
}

/** A tool rollup's uses of `table`'s messages as `split` rows (toolUses), by the rollup's time key. */
function toolSplit(r: Rollup, table: string, where: string, keys: KeyExprs): string {
  const unit = r.keys[0]!;
  return toolUses(table, where, unit, keys[unit] ?? unit);
}

/** A WHERE clause of a rebuild's `where` (`WHERE …` or '') and a rollup's own `only`. */
function whereOf(where: string, only: string | undefined): string {
  const parts = [where.replace(/^\s*WHERE\s+/i, ''), only ?? ''].filter((p) => p !== '');
  return parts.length ? ` WHERE ${parts.map((p) => `(${p})`).join(' AND ')}` : '';
}

/**
 * Rebuilds `rollups` (finer ones first, as declared) from the message rows of `table`, whose keys `keys` spells.
 * `where` (`WHERE model_id IN (...)`, or '' for every message) restricts the rebuild to some models: a rollup keyed by
 * model is rebuilt for those, one without it (made from a finer rollup) whole.
 */
export function rebuildSql(rollups: readonly Rollup[], table: string, keys: KeyExprs, where: string): string {
  const out: string[] = [];
  for (const r of rollups) {
    const only = r.keys.includes('model_id') ? where : '';
    if (where && !only && !r.from) throw new Error(`rollup ${r.table} has no model to rebuild for`);
    out.push(`DELETE FROM ${r.table}${only ? ` ${only}` : ''};`);
    if (r.from) out.push(`${insertFromFiner(r, only)};`);
    else if (r.keys.includes('tool')) out.push(`${toolSplit(r, table, '', keys)} ${insertFromMessages(r, 'split WHERE tool IS NOT NULL', {})};`);
    else out.push(`${insertFromMessages(r, `${table}${whereOf(only, r.only)}`, keys)};`);
  }
  return out.join('\n');
}

/**
 * A rollup's rows derived from the messages that `where` selects, one a message (or a tool use), as a subquery: a
 * read groups them as it groups the table's rows.
 */
export function derivedRows(r: Rollup, where: string, keys: KeyExprs): string {
  if (!r.keys.includes('tool')) return `(${rowsOf(r, `messages WHERE ${where}${r.only ? ` AND ${r.only}` : ''}`, keys)})`;
  return `(${toolSplit(r, 'messages', where, keys)} ${rowsOf(r, 'split WHERE tool IS NOT NULL', {})})`;
}
