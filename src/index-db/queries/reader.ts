// The reads every query family shares: the small lookup tables and the ranged rollup reads.
// Ranged figures come from the rollups, grouped in SQL so a year of data comes back as a few hundred
// rows; messages are read (by time index) only for the partial UTC hours at the edges of a range in a
// :30 or :45 zone and for the hour where a 5-hour block ends.
import type Database from 'better-sqlite3';
import type { HourSpan } from '../time.ts';
import type { ProjectSet } from './scope.ts';

/**
 * Column positions of a group row (per project x model x main/subagent) as returned by `groups()`.
 * first/last: earliest and latest message timestamps of the group.
 */
export const C = { project: 0, model: 1, sub: 2, messages: 3, input: 4, output: 5, cacheCreate: 6, cacheRead: 7, cache1h: 8, webSearch: 9, cost: 10, first: 11, last: 12 } as const;
export type RollRow = number[];

/** [unit (UTC hour, local hour or local day number), model id, cost], ordered by unit, as returned by `series()`. */
export type SeriesRow = [number, number, number];

/** Column positions of a per-hour total as returned by `hours()`; models is a ',' list of model ids. */
export const H = { hour: 0, messages: 1, input: 2, output: 3, cacheCreate: 4, cacheRead: 5, cost: 6, first: 7, last: 8, models: 9 } as const;
export type HourRow = [number, number, number, number, number, number, number, number, number, string];

/**
 * A rollup read: 'hour' reads usage_hourly_model by UTC hour, 'day' usage_daily by local day number,
 * 'lhour' cost_local_hourly by local hour number (series, heatmap and weeks only).
 */
export interface Span {
  unit: 'hour' | 'day' | 'lhour';
  from: number;
  to: number;
}

export interface ModelInfo {
  name: string;
  priced: boolean;
  /** Names starting with '<' (e.g. <synthetic>): cost 0, left out of model breakdowns. */
  hidden: boolean;
}

export interface ProjectInfo {
  id: string;
  name: string;
  /** The repository the folder belongs to: its main checkout's path and last segment (the folder itself until resolved). */
  repository: { id: string; name: string };
  /** The --dir label the folder was read under; null: this machine's unlabelled dirs. */
  machine: string | null;
}

/** One usage entry as `entries()` returns it: [ts, messages (1), input, output, cache write, cache read, cost, model id]. */
export type EntryRow = [number, number, number, number, number, number, number, number];

/** Display name: last path segment of the cwd, else the encoded folder name. */
export function projectName(encoded: string, cwd: string | null): string {
  const last = cwd?.split(/[\\/]+/).filter(Boolean).pop();
  return last ?? encoded;
}

const TABLE = { hour: 'usage_hourly_model', day: 'usage_daily' } as const;

/** Where a scoped statement's SQL takes the project condition. */
const AND_SCOPE = '{scope}';

export class Reader {
  /** Each statement is prepared on its first use: a statusline runs a handful of the ~60, once. */
  private readonly make: Record<string, () => Database.Statement>;
  private readonly prepared = new Map<string, Database.Statement>();

  constructor(db: Database.Database) {
    this.make = {
      models: () => db.prepare('SELECT id, name, priced FROM models'),
      projects: () => db.prepare('SELECT p.id, p.encoded, p.cwd, p.repo, m.name AS machine FROM projects p LEFT JOIN machines m ON m.id = p.machine_id'),
    };
    const raw = (st: Database.Statement) => st.raw(true);
    const pluck = (st: Database.Statement) => st.pluck();
    // Three statements per read: every project, one project (`project_id = @p`, as fast as an unscoped read) and a
    // set of projects (a repository's folders: `@p` is a JSON array of ids).
    const scoped = (key: string, sql: string, mode: (st: Database.Statement) => Database.Statement = raw) => {
      this.make[key] = () => mode(db.prepare(sql.replaceAll(AND_SCOPE, '')));
      this.make[`${key}-project`] = () => mode(db.prepare(sql.replaceAll(AND_SCOPE, 'AND project_id = @p')));
      this.make[`${key}-set`] = () => mode(db.prepare(sql.replaceAll(AND_SCOPE, 'AND project_id IN (SELECT value FROM json_each(@p))')));
    };
    const hours = `SELECT hour, sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read), sum(cost), min(first_ts), max(last_ts),
      group_concat(DISTINCT model_id) FROM usage_hourly_model WHERE hour >= ? AND hour < ? ${AND_SCOPE}`;
    scoped('hours', `${hours} GROUP BY hour`);
    scoped('sessions', `SELECT project_id, count(DISTINCT session_id) FROM usage_hourly WHERE hour >= ? AND hour < ? ${AND_SCOPE} GROUP BY project_id`);
    scoped('firstHour', `SELECT min(hour) FROM usage_hourly_model WHERE 1 ${AND_SCOPE}`, pluck);
    // Without a WHERE clause, min() is one step down the primary key.
    this.make.firstHour = () => pluck(db.prepare('SELECT min(hour) FROM usage_hourly_model'));
    // The usage of the partial UTC hours at the edges of a range, from the messages themselves.
    scoped('sessionsEdges', `SELECT project_id, count(*) FROM (SELECT project_id, session_id FROM usage_hourly WHERE hour >= ? AND hour < ? ${AND_SCOPE}
      UNION SELECT project_id, session_id FROM messages WHERE (ts >= ? AND ts < ? OR ts >= ? AND ts < ?) ${AND_SCOPE}) GROUP BY project_id`);
    scoped('hourTimes', `SELECT hour, min(first_ts), max(last_ts) FROM usage_hourly_model WHERE hour >= ? AND hour < ? ${AND_SCOPE}
      GROUP BY hour ORDER BY hour DESC`);
    scoped('entries', `SELECT ts, 1, input, output, cache_create, cache_read, cost, model_id FROM messages
      WHERE ts >= ? AND ts < ? ${AND_SCOPE} ORDER BY ts`);
    const local = `FROM cost_local_hourly WHERE lhour >= ? AND lhour < ? ${AND_SCOPE}`;
    scoped('series-lhour', `SELECT lhour, model_id, sum(cost) ${local} GROUP BY lhour, model_id`);
    // In key order (no sort): the heatmap and the weeks fold it in JS.
    scoped('local-hours', `SELECT lhour, sum(cost) ${local} GROUP BY lhour`);
    for (const [unit, table] of Object.entries(TABLE)) {
      const where = `FROM ${table} WHERE ${unit} >= ? AND ${unit} < ? ${AND_SCOPE}`;
      scoped(`groups-${unit}`, `SELECT project_id, model_id, sub, sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read),
        sum(cache_1h), sum(web_search), sum(cost), min(first_ts), max(last_ts) ${where} GROUP BY project_id, model_id, sub`);
      scoped(`series-${unit}`, `SELECT ${unit}, model_id, sum(cost) ${where} GROUP BY ${unit}, model_id`);
      scoped(`tools-${unit}`, `SELECT tool, sum(count) AS n FROM tools_${unit === 'day' ? 'daily' : 'hourly'} WHERE ${unit} >= ? AND ${unit} < ? ${AND_SCOPE}
        GROUP BY tool ORDER BY n DESC, tool LIMIT ?`);
    }
  }

  models(): Map<number, ModelInfo> {
    const out = new Map<number, ModelInfo>();
    for (const r of this.st('models').all() as { id: number; name: string; priced: number }[]) {
      out.set(r.id, { name: r.name, priced: r.priced === 1, hidden: r.name.startsWith('<') });
    }
    return out;
  }

  projects(): Map<number, ProjectInfo> {
    const out = new Map<number, ProjectInfo>();
    for (const r of this.st('projects').all() as { id: number; encoded: string; cwd: string | null; repo: string | null; machine: string | null }[]) {
      const name = projectName(r.encoded, r.cwd);
      const repository = r.repo === null ? { id: r.cwd ?? r.encoded, name } : { id: r.repo, name: projectName(r.repo, r.repo) };
      out.set(r.id, { id: r.encoded, name, repository, machine: r.machine });
    }
    return out;
  }

  /** Sums per project x model x main/subagent over the span. */
  groups(span: Span, scope: ProjectSet): RollRow[] {
    return this.all(`groups-${span.unit}`, scope, span.from, span.to) as RollRow[];
  }

  /** Cost per unit x model over the span, ordered by unit. */
  series(span: Span, scope: ProjectSet): SeriesRow[] {
    return this.all(`series-${span.unit}`, scope, span.from, span.to) as SeriesRow[];
  }

  /** [local hour number, cost] over a span of local hour numbers. */
  localHours(span: Span, scope: ProjectSet): [number, number][] {
    return this.all('local-hours', scope, span.from, span.to) as [number, number][];
  }

  /** [hour, first ts, last ts] of every UTC hour with usage in [hourFrom, hourTo), latest first. */
  hourTimes(hourFrom: number, hourTo: number, scope: ProjectSet): [number, number, number][] {
    return this.all('hourTimes', scope, hourFrom, hourTo) as [number, number, number][];
  }

  /** Every usage entry of [fromMs, toMs), in time order. */
  entries(fromMs: number, toMs: number, scope: ProjectSet): EntryRow[] {
    return this.all('entries', scope, fromMs, toMs) as EntryRow[];
  }

  /** Totals per hour of [hourFrom, hourTo) (all models and projects in scope), ordered by hour. */
  hours(hourFrom: number, hourTo: number, scope: ProjectSet): HourRow[] {
    return this.all('hours', scope, hourFrom, hourTo) as HourRow[];
  }

  /** Distinct sessions with usage in the span (its whole UTC hours and its edges), per project id. */
  sessionCounts(hours: HourSpan, scope: ProjectSet): Map<number, number> {
    if (!hours.edges.length) return new Map(this.all('sessions', scope, hours.from, hours.to) as [number, number][]);
    const [a = [0, 0], b = [0, 0]] = hours.edges;
    return new Map(this.all('sessionsEdges', scope, hours.from, hours.to, ...a, ...b) as [number, number][]);
  }

  /** First hour with usage (for the 'all' range), null when there is none. */
  firstHour(scope: ProjectSet): number | null {
    const [st, p] = this.pick('firstHour', scope);
    return (p === undefined ? st.get() : st.get(p)) as number | null;
  }

  /** The most used tools over the span. */
  topTools(span: Span, scope: ProjectSet, limit: number): { name: string; count: number }[] {
    return (this.all(`tools-${span.unit}`, scope, span.from, span.to, limit) as [string, number][]).map(([name, count]) => ({ name, count }));
  }

  /** The statement of `key` for the scope, and its `@p` binding (none for every project). */
  private pick(key: string, scope: ProjectSet): [Database.Statement, { p: number | string } | undefined] {
    if (scope === null) return [this.st(key), undefined];
    if (scope.length === 1) return [this.st(`${key}-project`), { p: scope[0]! }];
    return [this.st(`${key}-set`), { p: JSON.stringify(scope) }];
  }

  private st(key: string): Database.Statement {
    let st = this.prepared.get(key);
    if (!st) this.prepared.set(key, (st = this.make[key]!()));
    return st;
  }

  private all(key: string, scope: ProjectSet, ...args: unknown[]): unknown[] {
    const [st, p] = this.pick(key, scope);
    return p === undefined ? st.all(...args) : st.all(...args, p);
  }
}
