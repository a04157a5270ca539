// Cost and tokens per entrypoint (what started Claude Code: cli, claude-vscode, sdk-ts, ...) of a range's messages:
// the whole UTC hours of the range from usage_hourly_entrypoint, and the messages of an hour the range cuts (a local
// day in a :30 or :45 zone, a rolling range) through the (file_id, ts) index (span-files.ts). Hours that reach past
// the newest one and start closer to the first hour than to their end (a year, all time) are read as
// usage_total_entrypoint less the hours before them (less-before.ts): a few rows per project x model instead of every
// hour's (issue 35).
import type Database from 'better-sqlite3';
import type { EntrypointCost } from '../../shared/api-types.ts';
import { isProgrammatic } from '../../shared/entrypoints.ts';
import { totalTokens } from '../schema/measures.ts';
import { HOUR_MS } from '../time.ts';
import { lessBefore, type RowShape } from './less-before.ts';
import type { Reader } from './reader.ts';
import type { ProjectSet } from './scope.ts';
import { readsAsTotal, spanFiles, spanHours } from './span-files.ts';

type Cell = [entrypoint: string | null, messages: number, input: number, output: number, cacheCreate: number, cacheRead: number, cost: number];
/** A Cell by entrypoint id, as `sums()` reads it. */
type SumRow = [entrypoint: number, messages: number, input: number, output: number, cacheCreate: number, cacheRead: number, cost: number];
const SUM_ROWS: RowShape = { keys: [0], messages: 1, sums: [1, 2, 3, 4, 5, 6] };

export type Entrypoints = (fromMs: number, toMs: number, projects: ProjectSet) => EntrypointCost[];

const SUMS = 'count(*), sum(m.input), sum(m.output), sum(m.cache_create), sum(m.cache_read), sum(m.cost)';
const SET = 'AND project_id IN (SELECT value FROM json_each(@p))';

/** The sums per entrypoint of a rollup's rows that meet `where`. */
const sums = (table: string, where: string): string => `SELECT entrypoint_id, sum(messages) AS messages, sum(input) AS input,
  sum(output) AS output, sum(cache_create) AS cache_create, sum(cache_read) AS cache_read, sum(cost) AS cost
  FROM ${table} WHERE ${where} GROUP BY entrypoint_id`;

export function createEntrypoints(db: Database.Database, reader: Reader): Entrypoints {
  // Summed per entrypoint first, then named: an all-time range reads every row of the rollup, and a name looked up
  // per row cost more than the sums.
  const hours = (scope: string): Database.Statement => db.prepare(`SELECT e.name, r.messages, r.input, r.output, r.cache_create,
      r.cache_read, r.cost
    FROM (${sums('usage_hourly_entrypoint', `hour >= ? AND hour < ? ${scope}`)}) r
    LEFT JOIN entrypoints e ON e.id = r.entrypoint_id`).raw(true);
  const messages = (scope: string): Database.Statement => db.prepare(`SELECT e.name, ${SUMS}
    FROM messages m LEFT JOIN entrypoints e ON e.id = m.entrypoint_id
    WHERE m.file_id IN (${spanFiles('?', '?', scope)}) AND m.ts >= ? AND m.ts < ? ${scope.replace('project_id', 'm.project_id')}
    GROUP BY m.entrypoint_id`).raw(true);
  // All time, and the hours before ? (lessBefore), per entrypoint id.
  const total = (scope: string): Database.Statement => db.prepare(sums('usage_total_entrypoint', `1 ${scope}`)).raw(true);
  const before = (scope: string): Database.Statement => db.prepare(sums('usage_hourly_entrypoint', `hour < ? ${scope}`)).raw(true);
  const names = db.prepare('SELECT id, name FROM entrypoints').raw(true);
  const every = { hours: hours(''), total: total(''), before: before(''), messages: messages('') };
  const some = { hours: hours(SET), total: total(SET), before: before(SET), messages: messages(SET) };
  /** Whether the hours [h0, h1) are read best as all time less the hours before h0 (the history's every message has a row here). */
  const fromTotal = (h0: number, h1: number): boolean => {
    const history = reader.historyHours(null);
    return history !== null && readsAsTotal(h0, h1, history.first, history.last);
  };
  /** The all-time sums less the hours before h0, named. */
  const since = (s: typeof every, h0: number, p: unknown[]): Cell[] => {
    const byId = new Map(names.all() as [number, string][]);
    const rows = lessBefore(s.total.all(...p) as SumRow[], s.before.all(h0, ...p) as SumRow[], SUM_ROWS);
    return rows.map(([id, ...measures]) => [byId.get(id) ?? null, ...measures]);
  };

  /** Most expensive first; `entrypoint` null for the entries whose line names none. */
  return function entrypoints(fromMs, toMs, projects) {
    const s = projects === null ? every : some;
    const p = projects === null ? [] : [{ p: JSON.stringify(projects) }];
    const cells: Cell[] = [];
    const exact = (from: number, to: number): void => {
      if (from < to) cells.push(...(s.messages.all(...spanHours(from, to), from, to, ...p) as Cell[]));
    };
    const h0 = Math.ceil(fromMs / HOUR_MS);
    const h1 = Math.floor(toMs / HOUR_MS);
    if (h0 < h1) {
      exact(fromMs, h0 * HOUR_MS);
      cells.push(...(fromTotal(h0, h1) ? since(s, h0, p) : (s.hours.all(h0, h1, ...p) as Cell[])));
      exact(h1 * HOUR_MS, toMs);
    } else {
      exact(fromMs, toMs);
    }
    const by = new Map<string | null, EntrypointCost>();
    for (const [name, messages, input, output, cacheCreate, cacheRead, cost] of cells) {
      let e = by.get(name);
      if (!e) {
        e = { entrypoint: name, programmatic: isProgrammatic(name), cost: 0, messages: 0, inputTokens: 0, outputTokens: 0,
          cacheCreationTokens: 0, cacheReadTokens: 0, totalTokens: 0 };
        by.set(name, e);
      }
      e.cost += cost;
      e.messages += messages;
      e.inputTokens += input;
      e.outputTokens += output;
      e.cacheCreationTokens += cacheCreate;
      e.cacheReadTokens += cacheRead;
      e.totalTokens += totalTokens({ input, output, cacheCreate, cacheRead });
    }
    return [...by.values()].sort((a, b) => b.cost - a.cost || (a.entrypoint ?? '').localeCompare(b.entrypoint ?? ''));
  };
}
