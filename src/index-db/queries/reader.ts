// The reads every query family shares: the small lookup tables and the ranged rollup reads.
// Ranged figures come from the rollups, grouped in SQL so a year of data comes back as a few thousand
// rows: a read over every project takes the tables without the project (usage_daily_all, usage_hourly_all, ...),
// whose size follows the buckets and not the projects, and the project list of a range that reaches the newest
// entry is the all-time table less the days before the range. messages are read (through span-files.ts) only for the
// hour where a 5-hour block ends, and for every local figure while the local rollups are of another time zone than
// this process's (a zone change the writer has not caught up with yet, or a reader in another zone): reads never
// rebuild a table, the writer does (at open and at its next write or periodic pass).
import type Database from 'better-sqlite3';
import type { HourSpan } from '../../calendar/resolve.ts';
import { HOUR_MS, isProcessZone, LocalClock } from '../time.ts';
import { dayOf, systemZone } from '../../calendar/zone.ts';
import type { ProjectSet } from './scope.ts';
import { changeMark, untilChange } from './until-change.ts';
import { lessBefore, type RowShape } from './less-before.ts';
import { hoursOf, readsAsTotal, spanFiles, spanHours } from './span-files.ts';
import { TOTAL_TOKENS_SQL } from '../schema/measures.ts';
import { derivedRows } from '../schema/rollup-sql.ts';
import { ROLLUPS } from '../schema/rollups.ts';

/**
 * Column positions of a group row: `groups()` returns the first nine columns per project x model, `modelGroups()` all
 * eleven per model x main/subagent with project 0. last: latest message timestamp of the group.
 */
export const ROLL_COL = { project: 0, model: 1, messages: 2, input: 3, output: 4, cacheCreate: 5, cacheRead: 6, cost: 7, last: 8, sub: 9, cache1h: 10 } as const;
export type RollRow = number[];

/** [unit (UTC hour, local hour or local day number), model id, cost], ordered by unit, as returned by `series()`. */
export type SeriesRow = [number, number, number];

/** [model id, web search requests, web fetch requests], as returned by `requests()`. */
export type RequestRow = [number, number, number];

/** Column positions of a per-hour total as returned by `hours()`. */
export const HOUR_COL = { hour: 0, messages: 1, input: 2, output: 3, cacheCreate: 4, cacheRead: 5, cost: 6, first: 7, last: 8 } as const;
export type HourRow = [number, number, number, number, number, number, number, number, number];
/** [hour, cost, first ts, last ts] */
export type HourCostRow = [hour: number, cost: number, first: number | null, last: number | null];

/** [day number, model id, cost, tokens, messages] per local day x model, as returned by `dayModels()`. */
export type DayModelRow = [number, number, number, number, number];

/**
 * A rollup read: 'hour' reads by UTC hour, 'day' by local day number, 'lhour' by local hour number (series, heatmap
 * and weeks only).
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
/** EntryRow's column positions. */
export const ENTRY_COL = { ts: 0, messages: 1, input: 2, output: 3, cacheCreate: 4, cacheRead: 5, cost: 6, model: 7 } as const;

/** Display name: last path segment of the cwd, else the encoded folder name. */
export function projectName(encoded: string, cwd: string | null): string {
  const last = cwd?.split(/[\\/]+/).filter(Boolean).pop();
  return last ?? encoded;
}

/** Where a scoped statement's SQL takes the project condition (on `project_id`, or on `t.project_id`). */
const AND_SCOPE = '{scope}';
const AND_SCOPE_T = '{t.scope}';
const scopeOn = (sql: string, condition: (column: string) => string): string =>
  sql.replaceAll(AND_SCOPE, condition('project_id')).replaceAll(AND_SCOPE_T, condition('t.project_id'));

/** A local rollup's rows derived from the messages of [@fromMs, @toMs), in this process's zone (see `local()`). */
const localHour = 'CAST(cd_local_hour(ts) AS INTEGER)';
const inBounds = `file_id IN (${spanFiles('@h0', '@h1')}) AND ts >= @fromMs AND ts < @toMs`;
const DERIVED: ReadonlyMap<string, string> = new Map(Object.values(ROLLUPS)
  .filter((r) => r.grain === 'local-day' || r.grain === 'local-hour')
  .map((r) => [r.table, derivedRows(r, inBounds, { lhour: localHour, day: `${localHour} / 24`, sub: 'agent_id IS NOT NULL' })]));
/**
 * `{usage_daily}` in a statement's SQL: the table, or its rows derived from the messages. `{t INDEXED BY i}`: the
 * table read through its declared index; rows derived from the messages have no index.
 */
const LOCAL_TABLE = /\{(\w+)( INDEXED BY \w+)?\}/g;
/** Local days above which a range's distinct sessions are read through sessions_daily's index (sessionCounts). */
const LONG_SPAN_DAYS = 31;

/** Local hours of instants in the zone of this process now: the SQL function of the derived rows. */
const clock = new LocalClock();
let clockEnv: string | undefined | null = null;
function localHourNow(ms: number): number {
  if (process.env.TZ !== clockEnv) {
    clock.clear();
    clockEnv = process.env.TZ;
  }
  return clock.lhour(ms);
}

/** Padding around a local unit's UTC bounds: no zone is more than 14 h from UTC. */
const ZONE_PAD_MS = 15 * HOUR_MS;

/** A group row as lessBefore takes it: per project x model (`groups()`), per model x main/subagent (`modelGroups()`). */
const GROUP_ROWS: RowShape = {
  keys: [ROLL_COL.project, ROLL_COL.model],
  messages: ROLL_COL.messages,
  sums: [ROLL_COL.messages, ROLL_COL.input, ROLL_COL.output, ROLL_COL.cacheCreate, ROLL_COL.cacheRead, ROLL_COL.cost],
};
const MODEL_ROWS: RowShape = { ...GROUP_ROWS, keys: [ROLL_COL.model, ROLL_COL.sub], sums: [...GROUP_ROWS.sums, ROLL_COL.cache1h] };

/** Every local day a timestamp the index stores can fall on (workers/fold.ts MAX_TS). */
const EVERY_DAY: Span = { unit: 'day', from: -1e8, to: 1e8 };

export class Reader {
  private readonly s: Record<string, Database.Statement> = {};
  /** Statements over the rows derived from the messages, prepared on first use. */
  private readonly derived = new Map<string, Database.Statement>();
  private readonly sql = new Map<string, string>();
  /** process.env.TZ and the local rollups' zone when they were last compared, and whether they matched. */
  private zoneEnv: string | undefined | null = null;
  private zoneStored: string | undefined;
  private zoneMatches = false;

  constructor(private readonly db: Database.Database) {
    // Not deterministic: its answer follows process.env.TZ.
    db.function('cd_local_hour', localHourNow as (...args: unknown[]) => number);
    const p = (sql: string): Database.Statement => db.prepare(sql);
    this.s.models = p('SELECT id, name, priced FROM models');
    this.s.projects = p('SELECT p.id, p.encoded, p.cwd, p.repo, m.name AS machine FROM projects p LEFT JOIN machines m ON m.id = p.machine_id');
    const mark = changeMark(db);
    this.models = untilChange(mark, () => this.readModels());
    this.projects = untilChange(mark, () => this.readProjects());
    this.s.localZone = p("SELECT value FROM meta WHERE key = 'daily_tz'").pluck();
    this.s.limitHits = p('SELECT at, window, resets_at FROM limit_hits WHERE at >= ? AND at <= ? ORDER BY at').raw(true);

    const projectCols = 'project_id, model_id, sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read), sum(cost), max(last_ts)';
    // Per project x model.
    this.scoped('groups-day', `SELECT ${projectCols} FROM {usage_daily} WHERE day >= ? AND day < ? ${AND_SCOPE} GROUP BY project_id, model_id`);
    this.scoped('groups-hour', `SELECT ${projectCols} FROM usage_hourly_model WHERE hour >= ? AND hour < ? ${AND_SCOPE} GROUP BY project_id, model_id`);
    // All time, and the days before local day ? (a year's first days; none for all time): a range that reaches the newest
    // entry is the first less the second (groups()). Subtracted in JS: joined in SQL, the second was materialized and
    // indexed for every row of the first. usage_total is read in key order, as the join read it.
    this.scoped('groups-total', `SELECT project_id, model_id, messages, input, output, cache_create, cache_read, cost, last_ts FROM usage_total
      WHERE 1 ${AND_SCOPE}`);
    this.scoped('groups-before', `SELECT project_id, model_id, sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read), sum(cost)
      FROM usage_daily WHERE day < ? ${AND_SCOPE} GROUP BY project_id, model_id`);
    // Per model x main/subagent.
    const modelCols = `0, model_id, sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read), sum(cost), max(last_ts), sub,
      sum(cache_1h)`;
    this.scoped('models-day', `SELECT ${modelCols} FROM {usage_daily} WHERE day >= ? AND day < ? ${AND_SCOPE} GROUP BY model_id, sub`,
      `SELECT ${modelCols} FROM {usage_daily_all} WHERE day >= ? AND day < ? GROUP BY model_id, sub`);
    // All time, and the days before local day ? (lessBefore): every project's only.
    this.sql.set('models-total', `SELECT 0, model_id, messages, input, output, cache_create, cache_read, cost, last_ts, sub, cache_1h
      FROM ${ROLLUPS.usage_total_model.table}`);
    this.sql.set('models-before', `SELECT ${modelCols} FROM usage_daily_all WHERE day < ? GROUP BY model_id, sub`);
    this.scoped('models-hour', `SELECT ${modelCols} FROM usage_hourly_model WHERE hour >= ? AND hour < ? ${AND_SCOPE} GROUP BY model_id, sub`);
    // Web search and fetch requests per model, from the rows that have any: grouping a year of rows with every measure
    // needed a sort that cost an overview more than all its other rollup reads but one (issue 35).
    const requestCols = 'model_id, sum(web_search), sum(web_fetch)';
    const withRequests = '(web_search > 0 OR web_fetch > 0)';
    this.scoped('requests-day', `SELECT ${requestCols} FROM {usage_daily} WHERE day >= ? AND day < ? AND ${withRequests} ${AND_SCOPE} GROUP BY model_id`,
      `SELECT ${requestCols} FROM {usage_daily_all} WHERE day >= ? AND day < ? AND ${withRequests} GROUP BY model_id`);
    this.scoped('requests-hour', `SELECT ${requestCols} FROM usage_hourly_model WHERE hour >= ? AND hour < ? AND ${withRequests} ${AND_SCOPE}
      GROUP BY model_id`);
    this.scoped('series-day', `SELECT day, model_id, sum(cost) FROM {usage_daily} WHERE day >= ? AND day < ? ${AND_SCOPE} GROUP BY day, model_id`,
      `SELECT day, model_id, sum(cost) FROM {usage_daily_all} WHERE day >= ? AND day < ? GROUP BY day, model_id`);
    this.scoped('series-hour', `SELECT hour, model_id, sum(cost) FROM usage_hourly_model WHERE hour >= ? AND hour < ? ${AND_SCOPE} GROUP BY hour, model_id`);
    this.scoped('series-lhour', `SELECT lhour, model_id, sum(cost) FROM {cost_local_hourly} WHERE lhour >= ? AND lhour < ? ${AND_SCOPE}
      GROUP BY lhour, model_id`);
    // In key order (no sort): the heatmap and the weeks fold it in JS.
    this.scoped('local-hours', `SELECT lhour, sum(cost) FROM {cost_local_hourly} WHERE lhour >= ? AND lhour < ? ${AND_SCOPE} GROUP BY lhour`,
      `SELECT lhour, sum(cost) FROM {cost_local_hourly_all} WHERE lhour >= ? AND lhour < ? GROUP BY lhour`);
    this.scoped('day-models', `SELECT day, model_id, sum(cost), sum(${TOTAL_TOKENS_SQL}), sum(messages)
      FROM {usage_daily} WHERE day >= ? AND day < ? ${AND_SCOPE} GROUP BY day, model_id`,
      `SELECT day, model_id, sum(cost), sum(${TOTAL_TOKENS_SQL}), sum(messages)
      FROM {usage_daily_all} WHERE day >= ? AND day < ? GROUP BY day, model_id`);
    const tools = (table: string, unit: string): string => `SELECT tool, sum(count) AS n FROM ${table} WHERE ${unit} >= ? AND ${unit} < ? ${AND_SCOPE}
      GROUP BY tool ORDER BY n DESC, tool LIMIT ?`;
    this.scoped('tools-day', tools('{tools_daily}', 'day'), tools('{tools_daily_all}', 'day'));
    this.scoped('tools-hour', tools('tools_hourly', 'hour'));
    // A session belongs to one project id: distinct sessions per project.
    this.scoped('sessions-day', `SELECT project_id, count(DISTINCT session_id) FROM {sessions_daily} WHERE day >= ? AND day < ? ${AND_SCOPE}
      GROUP BY project_id`);
    this.scoped('sessions-long', `SELECT project_id, count(DISTINCT session_id)
      FROM {sessions_daily INDEXED BY ${ROLLUPS.sessions_daily.index.name}} WHERE day >= ? AND day < ? ${AND_SCOPE} GROUP BY project_id`);
    this.scoped('sessions-hour', `SELECT project_id, count(DISTINCT session_id) FROM usage_hourly WHERE hour >= ? AND hour < ? ${AND_SCOPE}
      GROUP BY project_id`);
    const hourCols = 'sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read), sum(cost), min(first_ts), max(last_ts)';
    this.scoped('hours', `SELECT hour, ${hourCols} FROM usage_hourly_model WHERE hour >= ? AND hour < ? ${AND_SCOPE} GROUP BY hour`,
      `SELECT hour, messages, input, output, cache_create, cache_read, cost, first_ts, last_ts FROM usage_hourly_all WHERE hour >= ? AND hour < ?`);
    // The blocks' walk: the cost and times of each hour only (a year's every hour with all its sums took twice as long).
    this.scoped('hour-costs', `SELECT hour, sum(cost), min(first_ts), max(last_ts) FROM usage_hourly_model WHERE hour >= ? AND hour < ? ${AND_SCOPE}
      GROUP BY hour`,
      'SELECT hour, cost, first_ts, last_ts FROM usage_hourly_all WHERE hour >= ? AND hour < ?');
    this.scoped('hour-models', `SELECT hour, model_id, sum(cost) FROM usage_hourly_model WHERE hour >= ? AND hour < ? ${AND_SCOPE}
      GROUP BY hour, model_id`, 'SELECT hour, model_id, cost FROM cost_hourly_model WHERE hour >= ? AND hour < ?');
    this.scoped('hourTimes', `SELECT hour, min(first_ts), max(last_ts) FROM usage_hourly_model WHERE hour >= ? AND hour < ? ${AND_SCOPE}
      GROUP BY hour ORDER BY hour DESC`,
      'SELECT hour, first_ts, last_ts FROM usage_hourly_all WHERE hour >= ? AND hour < ? ORDER BY hour DESC');
    this.scoped('firstHour', `SELECT min(hour) FROM usage_hourly_model WHERE 1 ${AND_SCOPE}`, 'SELECT min(hour) FROM usage_hourly_all');
    // Where the history starts and ends: every project's, the ends of the hourly primary key.
    this.scoped('hourBounds', `SELECT (SELECT min(hour) FROM usage_hourly_model WHERE 1 ${AND_SCOPE}),
      (SELECT max(hour) FROM usage_hourly_model WHERE 1 ${AND_SCOPE})`,
      'SELECT (SELECT hour FROM usage_hourly_all ORDER BY hour LIMIT 1), (SELECT hour FROM usage_hourly_all ORDER BY hour DESC LIMIT 1)');
    // In time order, ties in id order (the order of the former index by time: the blocks' sums add up alike).
    this.scoped('entries', `SELECT ts, 1, input, output, cache_create, cache_read, cost, model_id FROM messages
      WHERE file_id IN (${spanFiles('?', '?', AND_SCOPE)}) AND ts >= ? AND ts < ? ${AND_SCOPE} ORDER BY ts, id`);
  }

  /**
   * Three statements per read: every project (`every`, by default the same SQL without a project condition), one
   * project (`project_id = @p`) and a set of projects (a repository's folders: `@p` is a JSON array of ids).
   */
  private scoped(key: string, sql: string, every = sql): void {
    const variants: [string, string][] = [
      [key, scopeOn(every, () => '')],
      [`${key}-project`, scopeOn(sql, (column) => `AND ${column} = @p`)],
      [`${key}-set`, scopeOn(sql, (column) => `AND ${column} IN (SELECT value FROM json_each(@p))`)],
    ];
    for (const [k, text] of variants) this.sql.set(k, text);
  }

  /** The models by id, read again only after the index changed. */
  readonly models: () => ReadonlyMap<number, ModelInfo>;

  /** The project folders by id, read again only after the index changed (every query asks for them). */
  readonly projects: () => ReadonlyMap<number, ProjectInfo>;

  /**
   * Sums per project x model over the span (ROLL_COL's first nine columns). A range of local days that reaches the newest entry
   * and starts closer to the first entry than to its own end is the all-time sums less the days before it (the
   * dashboard's year or all time: a row per project x model instead of one per day x project x model).
   */
  groups(span: Span, scope: ProjectSet): RollRow[] {
    if (span.unit === 'hour') return this.all('groups-hour', scope, span.from, span.to) as RollRow[];
    if (this.readsAsTotal(span)) {
      return lessBefore(this.all('groups-total', scope) as RollRow[], this.all('groups-before', scope, span.from) as RollRow[], GROUP_ROWS);
    }
    return this.local('groups-day', scope, span) as RollRow[];
  }

  /** Sums per model x main/subagent over the span (all of ROLL_COL's columns, project 0). */
  modelGroups(span: Span, scope: ProjectSet): RollRow[] {
    if (span.unit === 'hour') return this.all('models-hour', scope, span.from, span.to) as RollRow[];
    // Every project's year or all time: a row per model x main/subagent less the days before (a folder's days are few).
    if (scope === null && this.readsAsTotal(span)) {
      return lessBefore(this.all('models-total', null) as RollRow[], this.all('models-before', null, span.from) as RollRow[], MODEL_ROWS);
    }
    return this.local('models-day', scope, span) as RollRow[];
  }

  /** Web search and fetch requests per model over the span; a model without any has no row. */
  requests(span: Span, scope: ProjectSet): RequestRow[] {
    if (span.unit === 'hour') return this.all('requests-hour', scope, span.from, span.to) as RequestRow[];
    return this.local('requests-day', scope, span) as RequestRow[];
  }

  /** Cost per unit x model over the span, ordered by unit. */
  series(span: Span, scope: ProjectSet): SeriesRow[] {
    if (span.unit === 'hour') return this.all('series-hour', scope, span.from, span.to) as SeriesRow[];
    return this.local(`series-${span.unit}`, scope, span) as SeriesRow[];
  }

  /** [local hour number, cost] over a span of local hour numbers, in order. */
  localHours(span: Span, scope: ProjectSet): [number, number][] {
    return this.local('local-hours', scope, span) as [number, number][];
  }

  /** Cost, tokens and messages per local day x model of the whole history. */
  dayModels(scope: ProjectSet): DayModelRow[] {
    return this.local('day-models', scope, EVERY_DAY) as DayModelRow[];
  }

  /** [hour, first ts, last ts] of every UTC hour with usage in [hourFrom, hourTo), latest first. */
  hourTimes(hourFrom: number, hourTo: number, scope: ProjectSet): [number, number, number][] {
    return this.all('hourTimes', scope, hourFrom, hourTo) as [number, number, number][];
  }

  /** Every usage entry of [fromMs, toMs), in time order. */
  entries(fromMs: number, toMs: number, scope: ProjectSet): EntryRow[] {
    return this.all('entries', scope, ...spanHours(fromMs, toMs), fromMs, toMs) as EntryRow[];
  }

  /** [at, window, resets at] of the plan limit hits of [fromMs, toMs] (the account's: no project), in time order. */
  limitHits(fromMs: number, toMs: number): [number, string | null, number | null][] {
    return this.s.limitHits!.all(fromMs, toMs) as [number, string | null, number | null][];
  }

  /** Totals per hour of [hourFrom, hourTo) (all models and projects in scope), ordered by hour. */
  hours(hourFrom: number, hourTo: number, scope: ProjectSet): HourRow[] {
    return this.all('hours', scope, hourFrom, hourTo) as HourRow[];
  }

  /** [hour, cost, first ts, last ts] per hour of [hourFrom, hourTo) with usage, ordered by hour: `hours()` in short. */
  hourCosts(hourFrom: number, hourTo: number, scope: ProjectSet): HourCostRow[] {
    return this.all('hour-costs', scope, hourFrom, hourTo) as HourCostRow[];
  }

  /** The cost of an exact span: its whole UTC hours from the rollup, then its edges' entries. */
  spanCost(span: HourSpan, scope: ProjectSet): number {
    let cost = 0;
    if (span.from < span.to) for (const [, hourCost] of this.hourCosts(span.from, span.to, scope)) cost += hourCost;
    for (const [a, b] of span.edges) for (const e of this.entries(a, b, scope)) cost += e[ENTRY_COL.cost];
    return cost;
  }

  /** The models of each hour with usage in [hourFrom, hourTo), with what each cost in the hour: [model id, cost]. */
  hourModels(hourFrom: number, hourTo: number, scope: ProjectSet): Map<number, [number, number][]> {
    const out = new Map<number, [number, number][]>();
    for (const [hour, model, cost] of this.all('hour-models', scope, hourFrom, hourTo) as [number, number, number][]) {
      const cells = out.get(hour);
      if (cells) cells.push([model, cost]);
      else out.set(hour, [[model, cost]]);
    }
    return out;
  }

  /** Distinct sessions with usage in the span (local days, or UTC hours for a rolling range), per project id. */
  sessionCounts(span: Span, scope: ProjectSet): Map<number, number> {
    if (span.unit === 'hour') return new Map(this.all('sessions-hour', scope, span.from, span.to) as [number, number][]);
    // A few days' rows are found by day; a long range's are cheaper to read whole in project and session order than
    // to sort twice (bench/RESULTS.md, stop 24).
    const key = span.to - span.from > LONG_SPAN_DAYS ? 'sessions-long' : 'sessions-day';
    return new Map(this.local(key, scope, span) as [number, number][]);
  }

  /** First hour with usage (for the 'all' range), null when there is none. */
  firstHour(scope: ProjectSet): number | null {
    return (this.all('firstHour', scope) as [number | null][])[0]?.[0] ?? null;
  }

  /** The first and the last hour with usage, null when there is none. */
  historyHours(scope: ProjectSet): { first: number; last: number } | null {
    const [first, last] = (this.all('hourBounds', scope) as [number | null, number | null][])[0]!;
    return first === null || last === null ? null : { first, last };
  }

  /** The most used tools over the span. */
  topTools(span: Span, scope: ProjectSet, limit: number): { name: string; count: number }[] {
    const rows = span.unit === 'hour' ? this.all('tools-hour', scope, span.from, span.to, limit) : this.local('tools-day', scope, span, limit);
    return (rows as [string, number][]).map(([name, count]) => ({ name, count }));
  }

  private readModels(): Map<number, ModelInfo> {
    const out = new Map<number, ModelInfo>();
    for (const r of this.s.models!.all() as { id: number; name: string; priced: number }[]) {
      out.set(r.id, { name: r.name, priced: r.priced === 1, hidden: r.name.startsWith('<') });
    }
    return out;
  }

  private readProjects(): Map<number, ProjectInfo> {
    const out = new Map<number, ProjectInfo>();
    for (const r of this.s.projects!.all() as { id: number; encoded: string; cwd: string | null; repo: string | null; machine: string | null }[]) {
      const name = projectName(r.encoded, r.cwd);
      const repository = r.repo === null ? { id: r.cwd ?? r.encoded, name } : { id: r.repo, name: projectName(r.repo, r.repo) };
      out.set(r.id, { id: r.encoded, name, repository, machine: r.machine });
    }
    return out;
  }

  /** Whether the local rollups hold the local days and hours of this process's zone (the reports' check too). */
  localMatches(): boolean {
    const stored = this.s.localZone!.get() as string | undefined;
    if (process.env.TZ !== this.zoneEnv || stored !== this.zoneStored) {
      this.zoneMatches = isProcessZone(stored);
      this.zoneEnv = process.env.TZ;
      this.zoneStored = stored;
    }
    return this.zoneMatches;
  }

  /**
   * Whether a span of local days reads best as all time less the days before it (span-files.ts readsAsTotal): the
   * dashboard's year or all time, while the local rollups are of this zone.
   */
  private readsAsTotal(span: Span): boolean {
    const history = span.unit === 'day' && this.localMatches() ? this.history() : null;
    return history !== null && readsAsTotal(span.from, span.to, history.firstDay, history.lastDay);
  }

  /** The local days of the first and the newest hour with usage (the latter an upper bound of the newest entry's day). */
  private history(): { firstDay: number; lastDay: number } | null {
    const hours = this.historyHours(null);
    if (hours === null) return null;
    return { firstDay: dayOf(systemZone, hours.first * HOUR_MS), lastDay: dayOf(systemZone, (hours.last + 1) * HOUR_MS - 1) };
  }

  /** A read of a local rollup: the table when it is of this zone, else the same rows derived from the messages. */
  private local(key: string, scope: ProjectSet, span: Span, ...rest: unknown[]): unknown[] {
    if (this.localMatches()) return this.all(key, scope, span.from, span.to, ...rest);
    const [k, p] = this.variant(key, scope);
    let st = this.derived.get(k);
    if (!st) {
      st = this.db.prepare(this.sql.get(k)!.replace(LOCAL_TABLE, (_, table: string, index = '') => DERIVED.get(table) ?? table + index)).raw(true);
      this.derived.set(k, st);
    }
    const unitMs = span.unit === 'day' ? 86_400_000 : HOUR_MS;
    const fromMs = span.from * unitMs - ZONE_PAD_MS;
    const toMs = span.to * unitMs + ZONE_PAD_MS;
    const [h0, h1] = hoursOf(fromMs, toMs);
    return st.all(span.from, span.to, ...rest, { ...p, fromMs, toMs, h0, h1 });
  }

  /** The key of the statement for the scope, and its `@p` binding (none for every project). */
  private variant(key: string, scope: ProjectSet): [string, { p: number | string } | undefined] {
    if (scope === null) return [key, undefined];
    if (scope.length === 1) return [`${key}-project`, { p: scope[0]! }];
    return [`${key}-set`, { p: JSON.stringify(scope) }];
  }

  private all(key: string, scope: ProjectSet, ...args: unknown[]): unknown[] {
    const [k, p] = this.variant(key, scope);
    // Prepared on first use: a statusline or a report runs a handful of these, once per process.
    const st = (this.s[k] ??= this.db.prepare(this.sql.get(k)!.replace(LOCAL_TABLE, '$1$2')).raw(true));
    return p === undefined ? st.all(...args) : st.all(...args, p);
  }
}
