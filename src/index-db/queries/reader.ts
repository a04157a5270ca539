// The reads every query family shares: the small lookup tables and the ranged rollup reads.
// Ranged figures come from the rollups, grouped in SQL so a year of data comes back as a few hundred
// rows; messages are read (by time index) only for the partial UTC hours at the edges of a range in a
// :30 or :45 zone and for the hour where a 5-hour block ends.
import type Database from 'better-sqlite3';
import type { HourSpan } from '../time.ts';

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
}

/** One usage entry as `entries()` returns it: [ts, messages (1), input, output, cache write, cache read, cost, model id]. */
export type EntryRow = [number, number, number, number, number, number, number, number];

/** Display name: last path segment of the cwd, else the encoded folder name. */
export function projectName(encoded: string, cwd: string | null): string {
  const last = cwd?.split(/[\\/]+/).filter(Boolean).pop();
  return last ?? encoded;
}

const TABLE = { hour: 'usage_hourly_model', day: 'usage_daily' } as const;

export class Reader {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Database.Database) {
    const sessions = 'SELECT project_id, count(DISTINCT session_id) FROM usage_hourly WHERE hour >= ? AND hour < ?';
    const hours = `SELECT hour, sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read), sum(cost), min(first_ts), max(last_ts),
      group_concat(DISTINCT model_id) FROM usage_hourly_model WHERE hour >= ? AND hour < ?`;
    this.s = {
      models: db.prepare('SELECT id, name, priced FROM models'),
      projects: db.prepare('SELECT id, encoded, cwd, repo FROM projects'),
      hoursAll: db.prepare(`${hours} GROUP BY hour`).raw(true),
      hoursProject: db.prepare(`${hours} AND project_id = ? GROUP BY hour`).raw(true),
      sessionsAll: db.prepare(`${sessions} GROUP BY project_id`).raw(true),
      sessionsProject: db.prepare(`${sessions} AND project_id = ? GROUP BY project_id`).raw(true),
      firstHourAll: db.prepare('SELECT min(hour) FROM usage_hourly_model').pluck(),
      firstHourProject: db.prepare('SELECT min(hour) FROM usage_hourly_model WHERE project_id = ?').pluck(),
      // The usage of the partial UTC hours at the edges of a range, from the messages themselves.
      sessionsEdgesAll: db.prepare(`SELECT project_id, count(*) FROM (SELECT project_id, session_id FROM usage_hourly WHERE hour >= ? AND hour < ?
        UNION SELECT project_id, session_id FROM messages WHERE ts >= ? AND ts < ? OR ts >= ? AND ts < ?) GROUP BY project_id`).raw(true),
      sessionsEdgesProject: db.prepare(`SELECT project_id, count(*) FROM (SELECT project_id, session_id FROM usage_hourly WHERE hour >= ? AND hour < ? AND project_id = @p
        UNION SELECT project_id, session_id FROM messages WHERE (ts >= ? AND ts < ? OR ts >= ? AND ts < ?) AND project_id = @p) GROUP BY project_id`).raw(true),
      hourTimesAll: db.prepare('SELECT hour, min(first_ts), max(last_ts) FROM usage_hourly_model WHERE hour >= ? AND hour < ? GROUP BY hour ORDER BY hour DESC').raw(true),
      hourTimesProject: db.prepare(`SELECT hour, min(first_ts), max(last_ts) FROM usage_hourly_model WHERE hour >= ? AND hour < ? AND project_id = ?
        GROUP BY hour ORDER BY hour DESC`).raw(true),
      entriesAll: db.prepare(`SELECT ts, 1, input, output, cache_create, cache_read, cost, model_id FROM messages WHERE ts >= ? AND ts < ? ORDER BY ts`).raw(true),
      entriesProject: db.prepare(`SELECT ts, 1, input, output, cache_create, cache_read, cost, model_id FROM messages
        WHERE ts >= ? AND ts < ? AND project_id = ? ORDER BY ts`).raw(true),
    };
    const local = 'FROM cost_local_hourly WHERE lhour >= ? AND lhour < ?';
    this.s['series-lhour'] = db.prepare(`SELECT lhour, model_id, sum(cost) ${local} GROUP BY lhour, model_id`).raw(true);
    this.s['series-lhour-project'] = db.prepare(`SELECT lhour, model_id, sum(cost) ${local} AND project_id = ? GROUP BY lhour, model_id`).raw(true);
    // In key order (no sort): the heatmap and the weeks fold it in JS.
    this.s['local-hours'] = db.prepare(`SELECT lhour, sum(cost) ${local} GROUP BY lhour`).raw(true);
    this.s['local-hours-project'] = db.prepare(`SELECT lhour, sum(cost) ${local} AND project_id = ? GROUP BY lhour`).raw(true);
    for (const [unit, table] of Object.entries(TABLE)) {
      const where = `FROM ${table} WHERE ${unit} >= ? AND ${unit} < ?`;
      const groups = `SELECT project_id, model_id, sub, sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read),
        sum(cache_1h), sum(web_search), sum(cost), min(first_ts), max(last_ts) ${where}`;
      this.s[`groups-${unit}`] = db.prepare(`${groups} GROUP BY project_id, model_id, sub`).raw(true);
      this.s[`groups-${unit}-project`] = db.prepare(`${groups} AND project_id = ? GROUP BY project_id, model_id, sub`).raw(true);
      const series = `SELECT ${unit}, model_id, sum(cost) ${where}`;
      this.s[`series-${unit}`] = db.prepare(`${series} GROUP BY ${unit}, model_id`).raw(true);
      this.s[`series-${unit}-project`] = db.prepare(`${series} AND project_id = ? GROUP BY ${unit}, model_id`).raw(true);
      const tools = `SELECT tool, sum(count) AS n FROM tools_${unit === 'day' ? 'daily' : 'hourly'} WHERE ${unit} >= ? AND ${unit} < ?`;
      this.s[`tools-${unit}`] = db.prepare(`${tools} GROUP BY tool ORDER BY n DESC, tool LIMIT ?`).raw(true);
      this.s[`tools-${unit}-project`] = db.prepare(`${tools} AND project_id = ? GROUP BY tool ORDER BY n DESC, tool LIMIT ?`).raw(true);
    }
  }

  models(): Map<number, ModelInfo> {
    const out = new Map<number, ModelInfo>();
    for (const r of this.s.models!.all() as { id: number; name: string; priced: number }[]) {
      out.set(r.id, { name: r.name, priced: r.priced === 1, hidden: r.name.startsWith('<') });
    }
    return out;
  }

  projects(): Map<number, ProjectInfo> {
    const out = new Map<number, ProjectInfo>();
    for (const r of this.s.projects!.all() as { id: number; encoded: string; cwd: string | null; repo: string | null }[]) {
      const name = projectName(r.encoded, r.cwd);
      const repository = r.repo === null ? { id: r.cwd ?? r.encoded, name } : { id: r.repo, name: projectName(r.repo, r.repo) };
      out.set(r.id, { id: r.encoded, name, repository });
    }
    return out;
  }

  /** Internal id of an encoded project name; null for none, undefined when unknown. */
  projectId(encoded: string | null): number | null | undefined {
    if (encoded === null) return null;
    for (const [id, p] of this.projects()) if (p.id === encoded) return id;
    return undefined;
  }

  /** Sums per project x model x main/subagent over the span. */
  groups(span: Span, project: number | null): RollRow[] {
    return this.read(`groups-${span.unit}`, span, project) as RollRow[];
  }

  /** Cost per unit x model over the span, ordered by unit. */
  series(span: Span, project: number | null): SeriesRow[] {
    return this.read(`series-${span.unit}`, span, project) as SeriesRow[];
  }

  /** [local hour number, cost] over a span of local hour numbers. */
  localHours(span: Span, project: number | null): [number, number][] {
    return this.read('local-hours', span, project) as [number, number][];
  }

  /** [hour, first ts, last ts] of every UTC hour with usage in [hourFrom, hourTo), latest first. */
  hourTimes(hourFrom: number, hourTo: number, project: number | null): [number, number, number][] {
    return (project === null ? this.s.hourTimesAll!.all(hourFrom, hourTo) : this.s.hourTimesProject!.all(hourFrom, hourTo, project)) as [number, number, number][];
  }

  /** Every usage entry of [fromMs, toMs), in time order. */
  entries(fromMs: number, toMs: number, project: number | null): EntryRow[] {
    return (project === null ? this.s.entriesAll!.all(fromMs, toMs) : this.s.entriesProject!.all(fromMs, toMs, project)) as EntryRow[];
  }

  /** Totals per hour of [hourFrom, hourTo) (all models and projects in scope), ordered by hour. */
  hours(hourFrom: number, hourTo: number, project: number | null): HourRow[] {
    return (project === null ? this.s.hoursAll!.all(hourFrom, hourTo) : this.s.hoursProject!.all(hourFrom, hourTo, project)) as HourRow[];
  }

  /** Distinct sessions with usage in the span (its whole UTC hours and its edges), per project id. */
  sessionCounts(hours: HourSpan, project: number | null): Map<number, number> {
    let rows: [number, number][];
    if (!hours.edges.length) {
      rows = (project === null
        ? this.s.sessionsAll!.all(hours.from, hours.to)
        : this.s.sessionsProject!.all(hours.from, hours.to, project)) as [number, number][];
    } else {
      const [a = [0, 0], b = [0, 0]] = hours.edges;
      rows = (project === null
        ? this.s.sessionsEdgesAll!.all(hours.from, hours.to, ...a, ...b)
        : this.s.sessionsEdgesProject!.all(hours.from, hours.to, ...a, ...b, { p: project })) as [number, number][];
    }
    return new Map(rows);
  }

  /** First hour with usage (for the 'all' range), null when there is none. */
  firstHour(project: number | null): number | null {
    return (project === null ? this.s.firstHourAll!.get() : this.s.firstHourProject!.get(project)) as number | null;
  }

  /** The most used tools over the span. */
  topTools(span: Span, project: number | null, limit: number): { name: string; count: number }[] {
    return (this.read(`tools-${span.unit}`, span, project, limit) as [string, number][]).map(([name, count]) => ({ name, count }));
  }

  private read(name: string, span: Span, project: number | null, ...more: unknown[]): unknown[] {
    return project === null
      ? this.s[name]!.all(span.from, span.to, ...more)
      : this.s[`${name}-project`]!.all(span.from, span.to, project, ...more);
  }
}
