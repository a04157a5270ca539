// The session rows of some project folders in a range: a project's sessions table and the Sessions view across
// projects read them alike (cost, tokens, models by cost, branches, whether gone or only Warmup side calls).
import type Database from 'better-sqlite3';
import type { HourSpan } from '../../calendar/resolve.ts';
import type { SessionRow } from '../../shared/api-types.ts';
import { iso } from '../time.ts';
import { totalTokens } from '../schema/measures.ts';
import { ROLLUPS } from '../schema/rollups.ts';
import { lessBefore, type RowShape } from './less-before.ts';
import type { Reader } from './reader.ts';
import { spanFiles, spanHours } from './span-files.ts';

/** A cell of the hourly rollup summed by folder, session, model and main/subagent: its folder, then a SessionCell. */
type FolderCell = [folder: number, ...SessionCell];

type SessionCell = [session: number, model: number, sub: number, messages: number, input: number, output: number,
  cacheCreate: number, cacheRead: number, cost: number, first: number | null, last: number | null];

/**
 * A session row with the project folder (its id in the index) it belongs to and its own id in the index; its
 * `branches` are left empty for the caller (branches.ts: a project's for all its sessions, the Sessions view's for the
 * sessions it lists).
 */
export interface FolderSessionRow extends SessionRow {
  folder: number;
  session: number;
}

/** Model names by their cost, the dearest first (ties by name). */
export function byCost(names: ReadonlyMap<string, number>): string[] {
  return [...names].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([name]) => name);
}

/**
 * Up to this many sessions in a range, their titles and files are looked up by id; past it one pass over the folders'
 * sessions and files costs less (10 GiB: 14k sessions, all time ~0.35 s slower by id; today 30 ms faster).
 */
export const FEW_SESSIONS = 1000;

/** The folders of @ps. */
const IN_SCOPE = 'project_id IN (SELECT value FROM json_each(@ps))';
/** A session (`s`) that is only Claude Code's Warmup side calls: no title, no prompt of its own, a Warmup agent's. */
export const WARMUP_SQL = "s.title IS NULL AND s.first_prompt IS NULL AND s.agent_prompt = 'Warmup'";
/** Only the sessions of @only. */
const OF_ONLY = 'session_id IN (SELECT value FROM json_each(@only))';

/**
 * The entries of one partial hour of a range (one edge) in the folders of @ps that meet `scope`, through the (file_id,
 * ts) index: with both edges' times ORed in one condition SQLite scanned every message (~0.5 s at 10 GiB, for each
 * answer in a :30 or :45 zone). Bound: spanHours() of the edge, then the edge.
 */
const edgeSql = (scope: string): string => `SELECT id, project_id, session_id, model_id, agent_id IS NOT NULL AS sub, input, output,
    cache_create, cache_read, cost, ts
  FROM messages WHERE file_id IN (${spanFiles('?', '?', `AND ${IN_SCOPE}`)}) AND ts >= ? AND ts < ? AND ${scope}`;

/**
 * The cells of a range (the hourly cells; with partial UTC hours at its edges, a :30 or :45 zone, their entries from
 * the messages of the files that can hold those of either edge), summed by `group` after `select`, for the folders of
 * @ps and, with `only`, the sessions of @only. Bound as `boundCells` says. Exported for the test of its plan.
 */
export function cellsSql(select: string, group: string, only: boolean): { plain: string; edges: string } {
  const scope = only ? `${IN_SCOPE} AND ${OF_ONLY}` : IN_SCOPE;
  // The edges' rows in id order, the order a scan of the messages gave them, so that each cell is summed as before.
  const edge = edgeSql(scope);
  return {
    plain: `SELECT ${select} FROM usage_hourly WHERE hour >= ? AND hour < ? AND ${scope} GROUP BY ${group}`,
    edges: `SELECT ${select} FROM (
      SELECT project_id, session_id, model_id, sub, messages, input, output, cache_create, cache_read, cost, first_ts, last_ts
        FROM usage_hourly WHERE hour >= ? AND hour < ? AND ${scope}
      UNION ALL
      SELECT project_id, session_id, model_id, sub, 1, input, output, cache_create, cache_read, cost, ts, ts
        FROM (${edge} UNION ALL ${edge} ORDER BY id))
    GROUP BY ${group}`,
  };
}

/** A pair of cellsSql's statements run for some folders' hours (and sessions: `only`). */
function boundCells(db: Database.Database, sql: { plain: string; edges: string }) {
  const plain = db.prepare(sql.plain).raw(true);
  const edges = db.prepare(sql.edges).raw(true);
  return (hours: HourSpan, named: Record<string, string>): unknown[] => {
    const { from: h0, to: h1, edges: [a = [0, 0], b = [0, 0]] } = hours;
    return hours.edges.length ? edges.all(h0, h1, ...spanHours(...a), ...a, ...spanHours(...b), ...b, named) : plain.all(h0, h1, named);
  };
}

/**
 * How `createSessionCosts` reads: the range's hourly rows sorted (`part`), the session index over every hour, dropping
 * those outside (`index`: the range covers most of the history, span-files.ts coversMost), or the all-time rows less
 * the hours before the range (`total`: it reaches past the newest hour and starts near the first, readsAsTotal).
 */
export type SessionCostsRead = 'part' | 'index' | 'total';

const costsSql = cellsSql('session_id, sum(cost)', 'session_id', false);
/** createSessionCosts' reads; exported for the test of their plans. */
export const SESSION_COSTS_SQL = {
  part: costsSql,
  /** The range's whole hours by the session index: its rows come grouped. */
  index: costsSql.plain.replace('FROM usage_hourly ', `FROM usage_hourly INDEXED BY ${ROLLUPS.usage_hourly.index.name} `),
  /** Each session's all-time messages and cost per folder. */
  total: `SELECT session_id, messages, cost FROM ${ROLLUPS.cost_total_session.table} WHERE ${IN_SCOPE}`,
  /** The same of the hours before @from, by the primary key's range of hours (by the session index SQLite read every hour). */
  before: `SELECT session_id, sum(messages), sum(cost) FROM usage_hourly INDEXED BY sqlite_autoindex_usage_hourly_1
    WHERE hour < @from AND ${IN_SCOPE} GROUP BY session_id`,
  /** The partial hours' entries alone, added to `index`'s or `total`'s sums. */
  edges: `SELECT session_id, sum(cost) FROM (${edgeSql(IN_SCOPE)} UNION ALL ${edgeSql(IN_SCOPE)}) GROUP BY session_id`,
} as const;

/** [session, messages, cost]: a row of SESSION_COSTS_SQL's `total` and `before`. */
type SessionTotal = [session: number, messages: number, cost: number];
const SESSION_TOTALS: RowShape = { keys: [0], messages: 1, sums: [1, 2] };

/**
 * Each session's cost in the hours of some folders, as SQLite sums it: within a rounding of a session row's own
 * (`createSessionRows`, which sums the cells in another order), and every session that has a row there. Read as
 * `SessionCostsRead` says; by `index` or `total`, the entries of partial hours (a :30 or :45 zone) are summed apart
 * and added (their union with the hourly rows needed a sort again). These costs only pick the sessions whose rows
 * are read (sessions.ts), within a margin far above a rounding, so they need not be summed in the rows' order.
 */
export function createSessionCosts(db: Database.Database) {
  const part = boundCells(db, SESSION_COSTS_SQL.part);
  const indexed = db.prepare(SESSION_COSTS_SQL.index).raw(true);
  const total = db.prepare(SESSION_COSTS_SQL.total).raw(true);
  const before = db.prepare(SESSION_COSTS_SQL.before).raw(true);
  const edges = db.prepare(SESSION_COSTS_SQL.edges).raw(true);
  return (pids: readonly number[], hours: HourSpan, read: SessionCostsRead): [session: number, cost: number][] => {
    const named = { ps: JSON.stringify(pids) };
    if (read === 'part') return part(hours, named) as [number, number][];
    const bySession = new Map<number, number>();
    if (read === 'index') {
      for (const [id, cost] of indexed.all(hours.from, hours.to, named) as [number, number][]) bySession.set(id, cost);
    } else {
      // A session in two folders (the same id) has a row in each: lessBefore adds them.
      const rows = lessBefore(total.all(named) as SessionTotal[], before.all({ ...named, from: hours.from }) as SessionTotal[], SESSION_TOTALS);
      for (const [id, , cost] of rows) bySession.set(id, cost);
    }
    if (!hours.edges.length) return [...bySession];
    const [a = [0, 0], b = [0, 0]] = hours.edges;
    for (const [id, cost] of edges.all(...spanHours(...a), ...a, ...spanHours(...b), ...b, named) as [number, number][]) {
      bySession.set(id, (bySession.get(id) ?? 0) + cost);
    }
    return [...bySession];
  };
}

/**
 * Whether each session's files are gone (the least `gone` of its files in the folders of @ps): of every session there,
 * or of those of @ids. The latter finds the files by session and then checks their folder (the unary +): with both
 * lists as terms of the (session, folder) index SQLite looked up every pair, 300 x 400 at 10 GiB, ~23 ms of each long
 * range's answer. Exported for the test of their plans.
 */
export const GONE_SQL = {
  all: `SELECT session_id, min(gone) FROM files WHERE ${IN_SCOPE} AND session_id IS NOT NULL GROUP BY session_id`,
  few: `SELECT session_id, min(gone) FROM files WHERE session_id IN (SELECT value FROM json_each(@ids)) AND +${IN_SCOPE} GROUP BY session_id`,
} as const;

export function createSessionRows(db: Database.Database, reader: Reader) {
  // Every folder of the scope in one read of each kind (the hourly cells grouped by folder too), bound as a JSON array
  // (@ps): a read per folder scanned the range's hourly rows, and the sessions and files tables, once per folder, which
  // took seconds for the 380 folders of the 10 GiB bench history (bench/RESULTS.md).
  const sums = 'project_id, session_id, model_id, sub, sum(messages), sum(input), sum(output), sum(cache_create), sum(cache_read), sum(cost), min(first_ts), max(last_ts)';
  const group = 'project_id, session_id, model_id, sub';
  const cells = { every: boundCells(db, cellsSql(sums, group, false)), only: boundCells(db, cellsSql(sums, group, true)) };
  // The titles and whether gone: of the folders' sessions (one pass over each table), or, for a range with few sessions
  // (a day, a week of a long history), of those sessions by their ids (@ids). Each way gives the same answer.
  const titleSql = `SELECT s.id, s.sid, coalesce(s.title, nullif(trim(s.first_prompt), ''), s.agent_prompt || ' · subagent', s.sid) AS title,
      ${WARMUP_SQL} AS warmup FROM sessions s WHERE s.${IN_SCOPE}`;
  const ofSessions = 'IN (SELECT value FROM json_each(@ids))';
  const sessionInfo = { all: db.prepare(titleSql).raw(true), few: db.prepare(`${titleSql} AND s.id ${ofSessions}`).raw(true) };
  // A session is gone when it has transcripts and every one of them is gone.
  const goneInfo = { all: db.prepare(GONE_SQL.all).raw(true), few: db.prepare(GONE_SQL.few).raw(true) };

  /**
   * The sessions of the folders `pids` with usage in the hours (of them, those of `only`), in the order their folders
   * come in `pids`, then by id. A session's row is the same to the last bit whether `only` names it or is left out.
   */
  return function sessionRows(pids: readonly number[], hours: HourSpan, only?: readonly number[]): FolderSessionRow[] {
    const models = reader.models();
    const ps = { ps: JSON.stringify(pids) };
    const all = (only ? cells.only(hours, { ...ps, only: JSON.stringify(only) }) : cells.every(hours, ps)) as FolderCell[];
    if (!all.length) return [];
    const ids = new Set(all.map((c) => c[1]));
    const way = ids.size <= FEW_SESSIONS ? 'few' : 'all';
    const of = way === 'few' ? { ...ps, ids: JSON.stringify([...ids]) } : ps;
    const titles = new Map<number, { sid: string; title: string; warmup: boolean }>();
    for (const [id, sid, title, warmup] of sessionInfo[way].all(of) as [number, string, string, number][]) titles.set(id, { sid, title, warmup: warmup === 1 });
    // A session with transcripts under two machines' copies of the folder is gone when all of them are.
    const gone = new Map<number, number>();
    for (const [session, g] of goneInfo[way].all(of) as [number, number][]) gone.set(session, Math.min(g, gone.get(session) ?? 1));
    // Summed folder by folder in the order of `pids`, each folder's cells in their order, as when each folder was read
    // on its own: a session's sums come out the same to the last bit.
    const byFolder = new Map<number, SessionCell[]>(pids.map((pid) => [pid, []]));
    for (const [pid, ...cell] of all) byFolder.get(pid)?.push(cell);
    // names: each model's cost in the session, so the models are listed by cost (the one that costs the money first).
    const bySession = new Map<number, FolderSessionRow & { first: number; last: number; names: Map<string, number> }>();
    for (const [pid, rows] of byFolder) {
      for (const [session, model, sub, messages, input, output, cacheCreate, cacheRead, cost, first, last] of rows) {
        let s = bySession.get(session);
        if (!s) {
          s = {
            id: String(session), title: String(session), cost: 0, messages: 0, inputTokens: 0, outputTokens: 0,
            cacheCreationTokens: 0, cacheReadTokens: 0, totalTokens: 0, firstActivity: '', lastActivity: '', models: [],
            subagentCost: 0, gone: false, branches: [], warmup: false, folder: pid, session,
            first: Infinity, last: -Infinity, names: new Map(),
          };
          bySession.set(session, s);
        }
        s.cost += cost;
        s.messages += messages;
        s.inputTokens += input;
        s.outputTokens += output;
        s.cacheCreationTokens += cacheCreate;
        s.cacheReadTokens += cacheRead;
        s.totalTokens += totalTokens({ input, output, cacheCreate, cacheRead });
        if (sub === 1) s.subagentCost += cost;
        if (first !== null) s.first = Math.min(s.first, first);
        if (last !== null) s.last = Math.max(s.last, last);
        const m = models.get(model);
        if (m && !m.hidden) s.names.set(m.name, (s.names.get(m.name) ?? 0) + cost);
      }
    }
    return [...bySession].map(([session, { first, last, names, ...row }]) => {
      const t = titles.get(session);
      return {
        ...row, id: t?.sid ?? row.id, title: t?.title ?? row.title, warmup: t?.warmup ?? false, gone: gone.get(session) === 1,
        firstActivity: Number.isFinite(first) ? iso(first) : '', lastActivity: Number.isFinite(last) ? iso(last) : '', models: byCost(names),
      };
    });
  };
}
