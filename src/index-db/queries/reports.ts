// The command line's reads (src/cli): usage per local day, per session and per 5-hour block with a
// split per model (the statusline's are status.ts). Same rollups, the same attribution rules and the
// same folds as the dashboard's queries (an entry belongs to the local day of its own timestamp, read from
// usage_daily_all, a project's from usage_daily; blocks from blocksOverlapping, totals from sliceOf + totalsOf), so
// the numbers are the dashboard's.
// In a --timezone other than the index's, days are exact too: hourly rows, and entries where a local midnight cuts an hour.
import type Database from 'better-sqlite3';
import type { Block, RangeInfo, Totals } from '../../shared/api-types.ts';
import { HOUR_MS, iso } from '../time.ts';
import { ROLLUPS } from '../schema/rollups.ts';
import { dayKey } from '../../calendar/days.ts';
import { rangeSpan, type HourSpan } from '../../calendar/resolve.ts';
import { dayOf, systemZone } from '../../calendar/zone.ts';
import { blocksOverlapping } from './blocks.ts';
import { addRow, emptyTotals, totalsOf } from './fold.ts';
import { HOUR_COL, type ModelInfo, projectName, Reader } from './reader.ts';
import { resolveScope, type ProjectSet } from './scope.ts';
import { sliceOf } from './slice.ts';
import { coversMost, spanFiles, spanHours } from './span-files.ts';

export interface ModelUsage extends Totals {
  model: string;
}

/** A row of a report: all of its usage (hidden models included, as the dashboard's totals) and its visible models. */
export interface UsageGroup {
  totals: Totals;
  /** Most expensive first; names starting with '<' (<synthetic>) are left out (decisions.md). */
  models: ModelUsage[];
}

export interface DayUsage extends UsageGroup {
  /** Local date YYYY-MM-DD. */
  day: string;
}

export interface SessionUsage extends UsageGroup {
  sessionId: string;
  title: string;
  project: { id: string; name: string };
  /** The machine its folder was read under: a --dir label, or this machine's --machine name. */
  machine: string;
  firstActivity: string;
  lastActivity: string;
}

/** A block with the time of its first entry (its start is that time floored to the hour). */
export interface ReportBlock extends Block {
  firstActivity: string;
}

export interface Reports {
  /** Usage per local day of the range, days without usage left out, in date order. */
  days(range: RangeInfo, project: string | null): DayUsage[];
  /** The range's totals, as the dashboard's overview computes them. */
  totals(range: RangeInfo, project: string | null): Totals;
  /** Usage per session inside the range, most expensive first; `localMachine` names the unlabelled dirs' machine. */
  sessions(range: RangeInfo, project: string | null, localMachine: string): SessionUsage[];
  /** The 5-hour blocks of the whole history that overlap the range, oldest first (a range never cuts a block). */
  blocks(range: RangeInfo, project: string | null, now: number): ReportBlock[];
  /** The file's last writer has not closed it: it still runs, or it ended without closing (a crash, kill -9). */
  markedOpen(): boolean;
  /** Every transcript's cursor facts by path, in one read (a check of every file before a report). */
  fileStates(): Map<string, FileStateRow>;
  /** fileStates() a slice at a time (the server's re-check): the files after id `after`, at most `limit`, in id order. */
  fileStatesAfter(after: number, limit: number): { states: FileStateRow[]; last: number | null };
}

/**
 * What the index knows of a transcript: its size and mtime when last read, and whether it is gone from disk (1).
 * The row as SQLite gives it: an object per file would make a big history's check measurably slower.
 */
export type FileStateRow = [path: string, size: number, mtimeMs: number, gone: number];

/** [unit (day number or UTC hour), model id, messages, input, output, cacheCreate, cacheRead, cost] */
type UnitRow = [number, number, number, number, number, number, number, number];
/** UnitRow's column positions (a SessionRow's too). */
const UNIT_COL = { unit: 0, model: 1, messages: 2, input: 3, output: 4, cacheCreate: 5, cacheRead: 6, cost: 7 } as const;
/** A UnitRow for one session, then [first ts, last ts]. */
type SessionRow = [...UnitRow, number, number];

const SUMS = 'sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read), sum(cost)';

const sessionSql = (from: string): string => `SELECT session_id, model_id, ${SUMS}, min(first_ts), max(last_ts)
  FROM ${from} WHERE hour >= ? AND hour < ? GROUP BY session_id, model_id ORDER BY session_id, model_id`;

/**
 * A range's usage per session and model from the hourly rollup. Most of the history (span-files.ts coversMost):
 * through the index declared for it (schema/rollups.ts), whose rows come grouped, instead of a sort of the range's
 * hourly rows. A shorter part: the primary key's range of hours, sorted, since a few days' rows cost less to sort than
 * the whole index costs to read. Both sum the same rows in the same order. Exported for the test of their plans.
 */
export const SESSION_SQL = {
  whole: sessionSql(`usage_hourly INDEXED BY ${ROLLUPS.usage_hourly.index.name}`),
  part: sessionSql('usage_hourly'),
} as const;

export function createReports(db: Database.Database): Reports {
  const reader = new Reader(db);
  /**
   * The statement for every project (`every`: by default the same SQL) and its variant scoped to a set of project
   * folders (a folder is one id per machine).
   */
  const pair = (sql: string, every = sql): [Database.Statement, Database.Statement] =>
    [db.prepare(every).raw(true), db.prepare(sql.replace(' GROUP BY', ' AND project_id IN (SELECT value FROM json_each(?)) GROUP BY')).raw(true)];
  // Every project: the overview's own series read (usage_daily_all, a row per day x model x main/subagent), so each
  // day's cost is its point to the last bit; a project's folders: usage_daily, as the overview of a project.
  const daySql = (table: string): string => `SELECT day, model_id, ${SUMS} FROM ${table} WHERE day >= ? AND day < ? GROUP BY day, model_id ORDER BY day, model_id`;
  const perDay = pair(daySql('usage_daily'), daySql('usage_daily_all'));
  const perHour = pair(`SELECT hour, model_id, ${SUMS} FROM usage_hourly_model WHERE hour >= ? AND hour < ? GROUP BY hour, model_id ORDER BY hour, model_id`);
  const perSession = pair(SESSION_SQL.whole);
  const perSessionPart = pair(SESSION_SQL.part);
  // Entries of a time span (a UTC hour cut by a local midnight, a range's partial hours), as UnitRows by timestamp.
  const entries = (scope: string) =>
    db.prepare(`SELECT ts, model_id, 1, input, output, cache_create, cache_read, cost FROM messages
      WHERE file_id IN (${spanFiles('?', '?')}) AND ts >= ? AND ts < ?${scope} ORDER BY ts, id`).raw(true);
  const perEntry: [Database.Statement, Database.Statement] = [entries(''), entries(' AND project_id IN (SELECT value FROM json_each(?))')];
  const perSessionEntries = pair(`SELECT session_id, model_id, ${SUMS.replace('sum(messages)', 'count(*)')}, min(ts), max(ts) FROM messages
    WHERE file_id IN (${spanFiles('?', '?')}) AND ts >= ? AND ts < ? GROUP BY session_id, model_id`);
  const sessionHeads = db.prepare(`SELECT s.id, s.sid, coalesce(s.title, nullif(trim(s.first_prompt), ''), s.sid) AS title, p.encoded, p.cwd, mc.name AS machine
    FROM sessions s JOIN projects p ON p.id = s.project_id LEFT JOIN machines mc ON mc.id = p.machine_id`).raw(true);
  const meta = db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
  const files = db.prepare('SELECT path, size, mtime, gone FROM files').raw(true);
  const filesAfter = db.prepare('SELECT id, path, size, mtime, gone FROM files WHERE id > ? ORDER BY id LIMIT ?').raw(true);

  const run = (statements: [Database.Statement, Database.Statement], pid: ProjectSet, ...args: number[]): unknown[] =>
    pid === null ? statements[0].all(...args) : statements[1].all(...args, JSON.stringify(pid));
  /** The folders of an encoded folder name (every machine's), null for all; undefined when unknown. */
  const scopeOf = (project: string | null): ProjectSet | undefined => (project === null ? null : resolveScope(reader.projects(), { project }));

  /**
   * The daily rollup holds the local days of one zone (meta 'daily_tz', kept by the writer); in another
   * zone (--timezone, or a reader in another zone than the writer) days come from byLocalDay().
   */
  const dailyMatches = (): boolean => reader.localMatches();

  /**
   * Every usage of a range's hours on the local day of its own timestamp, in the process's zone, whatever zone the
   * daily rollup holds: the hourly rollup for the UTC hours inside one local day, the entries themselves for the
   * hours a local midnight cuts (one a day in a :30 or :45 zone, none in others) and the range's partial hours.
   */
  function byLocalDay(pid: ProjectSet, hours: HourSpan): [string, UnitRow][] {
    const localDay = (ms: number): string => dayKey(dayOf(systemZone, ms));
    const out: [string, UnitRow][] = [];
    const cut: [number, number][] = [...hours.edges];
    for (const r of run(perHour, pid, hours.from, hours.to) as UnitRow[]) {
      const start = r[0] * HOUR_MS;
      const day = localDay(start);
      if (day === localDay(start + HOUR_MS - 1)) out.push([day, r]);
      else if (cut.at(-1)?.[0] !== start) cut.push([start, start + HOUR_MS]);
    }
    for (const [a, b] of cut) for (const e of run(perEntry, pid, ...spanHours(a, b), a, b) as UnitRow[]) out.push([localDay(e[0]), e]);
    // Stable: each day's rows stay together for the fold.
    return out.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  }

  function days(range: RangeInfo, project: string | null): DayUsage[] {
    const pid = scopeOf(project);
    if (pid === undefined) return [];
    const span = rangeSpan(range, systemZone);
    const rows: [string, UnitRow][] = dailyMatches()
      ? withDayKeys(run(perDay, pid, dayOf(systemZone, range.fromMs), dayOf(systemZone, range.toMs)) as UnitRow[])
      : byLocalDay(pid, span.hours);
    const models = reader.models();
    const out: DayUsage[] = [];
    let cells = new Map<number, ModelUsage>();
    for (const [day, r] of rows) {
      let d = out.at(-1);
      if (d?.day !== day) {
        if (d) d.models = visible(cells, models);
        out.push((d = { day, totals: emptyTotals(), models: [] }));
        cells = new Map();
      }
      addRow(d.totals, r, UNIT_COL);
      let u = cells.get(r[1]);
      if (!u) cells.set(r[1], (u = { model: models.get(r[1])?.name ?? '', ...emptyTotals() }));
      addRow(u, r, UNIT_COL);
    }
    const last = out.at(-1);
    if (last) last.models = visible(cells, models);
    return out;
  }

  function totals(range: RangeInfo, project: string | null): Totals {
    const pid = scopeOf(project);
    if (pid === undefined) return emptyTotals();
    // The overview's totals: the same slice (rollup and bounds) and the same fold; in another zone the days' sums.
    const span = rangeSpan(range, systemZone);
    if (!dailyMatches()) {
      const t = emptyTotals();
      for (const [, r] of byLocalDay(pid, span.hours)) addRow(t, r, UNIT_COL);
      return t;
    }
    return totalsOf(sliceOf(reader, span, range.bucket, systemZone, pid).groups);
  }

  function sessions(range: RangeInfo, project: string | null, localMachine: string): SessionUsage[] {
    const pid = scopeOf(project);
    if (pid === undefined) return [];
    // The whole UTC hours of the range from the rollup, its partial hours (a :30 or :45 zone) from the entries.
    const { hours } = rangeSpan(range, systemZone);
    const history = reader.historyHours(pid);
    const byIndex = history === null || coversMost(hours.from, hours.to, history.first, history.last);
    const models = reader.models();
    const statement = byIndex ? perSession : perSessionPart;
    const rows = pid === null ? statement[0].iterate(hours.from, hours.to) : statement[1].iterate(hours.from, hours.to, JSON.stringify(pid));
    // One pass over the rows, which come by session (the entries' rows of partial hours after them, in any order):
    // each session's sums in one object, its visible models' cells in a short array, no object per row kept.
    const acc = new Map<number, SessionAcc>();
    let a: SessionAcc | undefined;
    const fold = (r: SessionRow): void => {
      if (a?.id !== r[0]) {
        a = acc.get(r[0]);
        if (!a) acc.set(r[0], (a = { id: r[0], first: Infinity, last: -Infinity, totals: emptyTotals(), cells: [], cellIds: [] }));
      }
      if (r[8] < a.first) a.first = r[8];
      if (r[9] > a.last) a.last = r[9];
      addRow(a.totals, r, UNIT_COL);
      const model = r[1];
      if (models.get(model)?.hidden ?? true) return;
      const at = a.cellIds.indexOf(model);
      if (at >= 0) {
        addRow(a.cells[at]!, r, UNIT_COL);
      } else {
        a.cellIds.push(model);
        a.cells.push(addRow({ model: models.get(model)!.name, ...emptyTotals() }, r, UNIT_COL));
      }
    };
    for (const r of rows as IterableIterator<SessionRow>) fold(r);
    for (const [from, to] of hours.edges) for (const r of run(perSessionEntries, pid, ...spanHours(from, to), from, to) as SessionRow[]) fold(r);
    if (!acc.size) return [];
    const sorted = [...acc.values()].sort((x, y) => y.totals.cost - x.totals.cost || y.last - x.last);
    const heads = new Map<number, SessionHead>();
    for (const h of sessionHeads.all() as SessionHead[]) if (acc.has(h[0])) heads.set(h[0], h);
    const names = new Map<string, string>();
    return sorted.map((a) => {
      const h = heads.get(a.id);
      let project = { id: '', name: '' };
      if (h) {
        const key = h[4] === null ? h[3] : `${h[3]}\n${h[4]}`;
        let name = names.get(key);
        if (name === undefined) names.set(key, (name = projectName(h[3], h[4])));
        project = { id: h[3], name };
      }
      return {
        sessionId: h?.[1] ?? String(a.id),
        title: h?.[2] ?? String(a.id),
        project,
        machine: h?.[5] ?? localMachine,
        firstActivity: iso(a.first),
        lastActivity: iso(a.last),
        totals: a.totals,
        models: a.cells.length > 1 ? a.cells.sort(byCost) : a.cells,
      };
    });
  }

  function blocks(range: RangeInfo, project: string | null, now: number): ReportBlock[] {
    const pid = scopeOf(project);
    if (pid === undefined) return [];
    return blocksOverlapping(reader, pid, reader.models(), range.fromMs, range.toMs, now)
      .blocks.reverse()
      .map((b) => {
        // A block starts in the hour of its first entry, so that hour's row has the entry's time.
        const hour = Date.parse(b.start) / HOUR_MS;
        const first = reader.hours(hour, hour + 1, pid)[0]?.[HOUR_COL.first] ?? Date.parse(b.start);
        return { ...b, firstActivity: iso(first) };
      });
  }

  return {
    days,
    totals,
    sessions,
    blocks,
    markedOpen: () => meta.get('open') === '1',
    fileStates() {
      const out = new Map<string, FileStateRow>();
      for (const r of files.all() as FileStateRow[]) out.set(r[0], r);
      return out;
    },
    fileStatesAfter(after, limit) {
      const rows = filesAfter.all(after, limit) as [number, ...FileStateRow][];
      return { states: rows.map(([, ...state]) => state), last: rows.length ? rows[rows.length - 1]![0] : null };
    },
  };
}

/** Rows by day number with their local date (formatted once a day: a day has a row per model). */
function withDayKeys(rows: UnitRow[]): [string, UnitRow][] {
  let day = Number.NaN;
  let key = '';
  return rows.map((r) => {
    if (r[0] !== day) key = dayKey((day = r[0]));
    return [key, r];
  });
}

/** A session of `sessions()` as its rows are summed: its visible models' cells by model id (`cellIds`, same order). */
interface SessionAcc {
  id: number;
  first: number;
  last: number;
  totals: Totals;
  cells: ModelUsage[];
  cellIds: number[];
}

/** [session id, sid, title, project folder (encoded), its cwd, its machine's label] */
type SessionHead = [number, string, string, string, string | null, string | null];

/** A group's models, dearest first (then by name). */
const byCost = (a: ModelUsage, b: ModelUsage): number => b.cost - a.cost || a.model.localeCompare(b.model);

function visible(cells: Map<number, ModelUsage>, models: ReadonlyMap<number, ModelInfo>): ModelUsage[] {
  return [...cells]
    .filter(([id]) => !(models.get(id)?.hidden ?? true))
    .map(([, u]) => u)
    .sort(byCost);
}
