// Rollup deltas of one write: messages added (+1) or taken out (-1) are summed per rollup cell in
// memory, then each distinct cell is upserted once. Keeps the per-row cost of the writer to a Map hit.
// The rollups without the project (and the all-time one) are folded from the finer cells at flush, so
// they cost nothing per message. A batch's winners arrive summed by group (workers/fold.ts, addGroup/addTool); `add`
// then only corrects for the rows the writer did not store as new.
import type Database from 'better-sqlite3';
import type { UsageCounts } from '../workers/protocol.ts';
import { ManyRows } from './many-rows.ts';
import { HOUR_MS } from './time.ts';

/** A message as the writer and the rollups see it (ids, not names). */
export interface Msg extends UsageCounts {
  hkey: number;
  key: string;
  file: number;
  off: number;
  ts: number;
  project: number;
  session: number;
  model: number;
  agent: number | null;
  fast: number;
  costUSD: number | null;
  cost: number;
  tools: string;
  branch: number | null;
}

interface Cell extends UsageCounts {
  pk: number[];
  n: number;
  cost: number;
  first: number | null;
  last: number | null;
  shrinks: boolean;
}

const METRICS = `messages = messages + excluded.messages, input = input + excluded.input, output = output + excluded.output,
  cache_create = cache_create + excluded.cache_create, cache_read = cache_read + excluded.cache_read,
  cache_1h = cache_1h + excluded.cache_1h, web_search = web_search + excluded.web_search, cost = cost + excluded.cost,
  first_ts = min(coalesce(first_ts, excluded.first_ts), coalesce(excluded.first_ts, first_ts)),
  last_ts = max(coalesce(last_ts, excluded.last_ts), coalesce(excluded.last_ts, last_ts))`;

/** The same for usage_hourly_all, which keeps no cache_1h, web_search or model. */
const HOUR_METRICS = `messages = messages + excluded.messages, input = input + excluded.input, output = output + excluded.output,
  cache_create = cache_create + excluded.cache_create, cache_read = cache_read + excluded.cache_read, cost = cost + excluded.cost,
  first_ts = min(coalesce(first_ts, excluded.first_ts), coalesce(excluded.first_ts, first_ts)),
  last_ts = max(coalesce(last_ts, excluded.last_ts), coalesce(excluded.last_ts, last_ts))`;

/** A rollup table's upsert: its cells are gathered and written a few statements a flush (many-rows.ts). */
type Upsert = ManyRows;

export class RollupStatements {
  readonly full: Upsert;
  readonly fullDrop: Database.Statement;
  readonly model: Upsert;
  readonly modelDrop: Database.Statement;
  readonly daily: Upsert;
  readonly dailyDrop: Database.Statement;
  readonly tool: Upsert;
  readonly toolDrop: Database.Statement;
  readonly toolDaily: Upsert;
  readonly toolDailyDrop: Database.Statement;
  readonly localHour: Upsert;
  readonly localHourDrop: Database.Statement;
  readonly dailyAll: Upsert;
  readonly dailyAllDrop: Database.Statement;
  readonly total: Upsert;
  readonly totalDrop: Database.Statement;
  readonly hourlyAll: Upsert;
  readonly hourlyAllDrop: Database.Statement;
  readonly localHourAll: Upsert;
  readonly localHourAllDrop: Database.Statement;
  readonly toolDailyAll: Upsert;
  readonly toolDailyAllDrop: Database.Statement;
  readonly sessionDay: Upsert;
  readonly sessionDayDrop: Database.Statement;
  constructor(db: Database.Database) {
    const upsert = (table: string, width: number, conflict: string): Upsert =>
      new ManyRows(db, `INSERT INTO ${table} VALUES`, width, `ON CONFLICT ${conflict}`);
    this.full = upsert('usage_hourly', 15, `(hour, project_id, session_id, model_id, sub) DO UPDATE SET ${METRICS}`);
    this.fullDrop = db.prepare(`DELETE FROM usage_hourly
      WHERE hour = ? AND project_id = ? AND session_id = ? AND model_id = ? AND sub = ? AND messages <= 0`);
    this.model = upsert('usage_hourly_model', 14, `(hour, project_id, model_id, sub) DO UPDATE SET ${METRICS}`);
    this.modelDrop = db.prepare(`DELETE FROM usage_hourly_model
      WHERE hour = ? AND project_id = ? AND model_id = ? AND sub = ? AND messages <= 0`);
    this.daily = upsert('usage_daily', 14, `(day, project_id, model_id, sub) DO UPDATE SET ${METRICS}`);
    this.dailyDrop = db.prepare(`DELETE FROM usage_daily
      WHERE day = ? AND project_id = ? AND model_id = ? AND sub = ? AND messages <= 0`);
    this.tool = upsert('tools_hourly', 4, '(hour, project_id, tool) DO UPDATE SET count = count + excluded.count');
    this.toolDrop = db.prepare('DELETE FROM tools_hourly WHERE hour = ? AND project_id = ? AND tool = ? AND count <= 0');
    this.toolDaily = upsert('tools_daily', 4, '(day, project_id, tool) DO UPDATE SET count = count + excluded.count');
    this.toolDailyDrop = db.prepare('DELETE FROM tools_daily WHERE day = ? AND project_id = ? AND tool = ? AND count <= 0');
    this.localHour = upsert('cost_local_hourly', 5,
      '(lhour, project_id, model_id) DO UPDATE SET messages = messages + excluded.messages, cost = cost + excluded.cost');
    this.localHourDrop = db.prepare('DELETE FROM cost_local_hourly WHERE lhour = ? AND project_id = ? AND model_id = ? AND messages <= 0');
    this.dailyAll = upsert('usage_daily_all', 13, `(day, model_id, sub) DO UPDATE SET ${METRICS}`);
    this.dailyAllDrop = db.prepare('DELETE FROM usage_daily_all WHERE day = ? AND model_id = ? AND sub = ? AND messages <= 0');
    this.total = upsert('usage_total', 12, `(project_id, model_id) DO UPDATE SET ${METRICS}`);
    this.totalDrop = db.prepare('DELETE FROM usage_total WHERE project_id = ? AND model_id = ? AND messages <= 0');
    this.hourlyAll = upsert('usage_hourly_all', 9, `(hour) DO UPDATE SET ${HOUR_METRICS}`);
    this.hourlyAllDrop = db.prepare('DELETE FROM usage_hourly_all WHERE hour = ? AND messages <= 0');
    this.localHourAll = upsert('cost_local_hourly_all', 3,
      '(lhour) DO UPDATE SET messages = messages + excluded.messages, cost = cost + excluded.cost');
    this.localHourAllDrop = db.prepare('DELETE FROM cost_local_hourly_all WHERE lhour = ? AND messages <= 0');
    this.toolDailyAll = upsert('tools_daily_all', 3, '(day, tool) DO UPDATE SET count = count + excluded.count');
    this.toolDailyAllDrop = db.prepare('DELETE FROM tools_daily_all WHERE day = ? AND tool = ? AND count <= 0');
    this.sessionDay = upsert('sessions_daily', 4, '(day, project_id, session_id) DO UPDATE SET messages = messages + excluded.messages');
    this.sessionDayDrop = db.prepare('DELETE FROM sessions_daily WHERE day = ? AND project_id = ? AND session_id = ? AND messages <= 0');
  }
}

export class RollupDelta {
  private full = new Map<string, Cell>();
  private byModel = new Map<string, Cell>();
  private daily = new Map<string, Cell>();
  private tools = new Map<string, ToolCell>();
  private toolsDaily = new Map<string, ToolCell>();
  private localHours = new Map<string, LocalCell>();
  private sessionDays = new Map<string, CountCell>();
  private last: Group | null = null;
  /** The group before `last`. */
  private before: Group | null = null;
  private toolHour: ToolHour | null = null;

  /** `lhourOf` maps an instant to its local hour number (LocalClock.lhour). */
  constructor(private readonly lhourOf: (ms: number) => number) {}

  add(m: Msg, sign: 1 | -1): void {
    const hour = Math.floor(m.ts / HOUR_MS);
    // In a :30 or :45 zone a UTC hour holds two local hours, and may straddle local midnight.
    const lhour = this.lhourOf(m.ts);
    const sub = m.agent === null ? 0 : 1;
    // Consecutive messages of a batch mostly share their cells, or alternate between two groups (a session's main
    // model and a smaller one): skip the key building then.
    let cur = this.last;
    if (!cur || !sameGroup(cur, hour, lhour, m, sub)) {
      const before = this.before;
      cur = before && sameGroup(before, hour, lhour, m, sub) ? before : this.group(hour, lhour, m.project, m.session, m.model, sub);
      this.before = this.last;
      this.last = cur;
      if (this.toolHour?.hour !== hour || this.toolHour.day !== cur.day || this.toolHour.project !== m.project) {
        this.toolHour = { hour, day: cur.day, project: m.project, cells: new Map() };
      }
    }
    for (const c of cur.cells) bump(c, m, sign);
    cur.local.n += sign;
    cur.local.cost += sign * m.cost;
    cur.sessionDay.n += sign;
    if (m.tools) for (const c of this.toolCellsOf(this.toolHour!, m.tools)) c.n += sign;
  }

  /**
   * Adds the sums of messages folded beforehand by (UTC hour, local hour, project, session, model, main/subagent)
   * (a batch's winners, fold.ts), as `add` would one by one.
   */
  addGroup(g: GroupSums): void {
    const cur = this.group(g.hour, g.lhour, g.project, g.session, g.model, g.sub);
    for (const c of cur.cells) addSums(c, g);
    cur.local.n += g.n;
    cur.local.cost += g.cost;
    cur.sessionDay.n += g.n;
  }

  /** Adds `n` uses of a tool in a UTC hour and local day of a project (a batch's winners, folded beforehand). */
  addTool(hour: number, day: number, project: number, tool: string, n: number): void {
    toolCell(this.tools, hour, project, tool).n += n;
    toolCell(this.toolsDaily, day, project, tool).n += n;
  }

  /** The cells of a group, found or made by their keys. */
  private group(hour: number, lhour: number, project: number, session: number, model: number, sub: number): Group {
    const day = Math.floor(lhour / 24);
    const lk = `${lhour},${project},${model}`;
    let local = this.localHours.get(lk);
    if (!local) this.localHours.set(lk, (local = { pk: [lhour, project, model], n: 0, cost: 0 }));
    const sk = `${day},${project},${session}`;
    let sessionDay = this.sessionDays.get(sk);
    if (!sessionDay) this.sessionDays.set(sk, (sessionDay = { pk: [day, project, session], n: 0 }));
    return {
      hour, lhour, project, session, model, sub,
      cells: [
        cell(this.full, `${hour},${project},${session},${model},${sub}`, [hour, project, session, model, sub]),
        cell(this.byModel, `${hour},${project},${model},${sub}`, [hour, project, model, sub]),
        cell(this.daily, `${day},${project},${model},${sub}`, [day, project, model, sub]),
      ],
      day,
      local,
      sessionDay,
    };
  }

  /**
   * The hourly and daily cells of each tool named in `tools`, looked up once per hour, day, project and tools string:
   * most messages name one tool of a handful, so the per-message cost is one Map hit instead of two keys built per tool.
   */
  private toolCellsOf(g: ToolHour, tools: string): ToolCell[] {
    let cells = g.cells.get(tools);
    if (!cells) {
      cells = [];
      for (const tool of tools.split(',')) {
        cells.push(toolCell(this.tools, g.hour, g.project, tool), toolCell(this.toolsDaily, g.day, g.project, tool));
      }
      g.cells.set(tools, cells);
    }
    return cells;
  }

  /** Writes every cell once and forgets them; cells that reached zero are deleted. */
  flush(s: RollupStatements): void {
    write(this.full, s.full, s.fullDrop);
    write(this.byModel, s.model, s.modelDrop);
    write(this.daily, s.daily, s.dailyDrop);
    writeTools(this.tools, s.tool, s.toolDrop);
    writeTools(this.toolsDaily, s.toolDaily, s.toolDailyDrop);
    writeLocal(this.localHours.values(), s.localHour, s.localHourDrop);
    writeTools(this.sessionDays, s.sessionDay, s.sessionDayDrop);
    // Folded from the cells above: [day, project, model, sub] -> [day, model, sub] and [project, model], and so on.
    write(coarsen(this.daily.values(), [0, 2, 3]), s.dailyAll, s.dailyAllDrop);
    write(coarsen(this.daily.values(), [1, 2]), s.total, s.totalDrop);
    writeHours(coarsen(this.byModel.values(), [0]), s.hourlyAll, s.hourlyAllDrop);
    writeLocal(coarsenLocal(this.localHours.values()), s.localHourAll, s.localHourAllDrop);
    writeTools(coarsenTools(this.toolsDaily.values()), s.toolDailyAll, s.toolDailyAllDrop);
    this.full.clear();
    this.byModel.clear();
    this.daily.clear();
    this.tools.clear();
    this.toolsDaily.clear();
    this.localHours.clear();
    this.sessionDays.clear();
    this.last = null;
    this.before = null;
    this.toolHour = null;
  }
}

type ToolCell = { pk: (number | string)[]; n: number };

/** What a group of messages shares: UTC hour, local hour, project, session, model and main/subagent (ids). */
interface GroupKey {
  hour: number;
  lhour: number;
  project: number;
  session: number;
  model: number;
  sub: number;
}

/** The sums of a group of messages (ids, not names), with the first and last time of those of them kept (null: none). */
export interface GroupSums extends UsageCounts, GroupKey {
  n: number;
  cost: number;
  first: number | null;
  last: number | null;
}

/** The cells a run of messages of one group adds to. */
interface Group extends GroupKey {
  day: number;
  cells: Cell[];
  local: LocalCell;
  sessionDay: CountCell;
}

/** The tool cells of one UTC hour, local day and project: tools string -> its tools' hourly and daily cells. */
interface ToolHour {
  hour: number;
  day: number;
  project: number;
  cells: Map<string, ToolCell[]>;
}

function sameGroup(g: Group, hour: number, lhour: number, m: Msg, sub: number): boolean {
  return g.hour === hour && g.lhour === lhour && g.project === m.project && g.session === m.session && g.model === m.model && g.sub === sub;
}

type CountCell = { pk: number[]; n: number };
type LocalCell = { pk: number[]; n: number; cost: number };

/** The cells summed over the key columns left out of `keep` (positions in the cell key). */
function coarsen(cells: Iterable<Cell>, keep: number[]): Map<string, Cell> {
  const out = new Map<string, Cell>();
  for (const c of cells) {
    const pk = keep.map((i) => c.pk[i]!);
    const into = cell(out, pk.join(','), pk);
    addSums(into, c);
    into.shrinks ||= c.shrinks;
  }
  return out;
}

/** Local-hour cells [lhour, project, model] summed per local hour. */
function coarsenLocal(cells: Iterable<LocalCell>): LocalCell[] {
  const out = new Map<number, LocalCell>();
  for (const c of cells) {
    const lhour = c.pk[0]!;
    const into = out.get(lhour) ?? { pk: [lhour], n: 0, cost: 0 };
    out.set(lhour, into);
    into.n += c.n;
    into.cost += c.cost;
  }
  return [...out.values()];
}

/** Tool cells [day, project, tool] summed per day x tool. */
function coarsenTools(cells: Iterable<ToolCell>): Map<string, ToolCell> {
  const out = new Map<string, ToolCell>();
  for (const c of cells) {
    const k = `${c.pk[0]},${c.pk[2]}`;
    const into = out.get(k);
    if (into) into.n += c.n;
    else out.set(k, { pk: [c.pk[0]!, c.pk[2]!], n: c.n });
  }
  return out;
}

function writeLocal(cells: Iterable<LocalCell>, upsert: Upsert, drop: Database.Statement): void {
  const drops: number[][] = [];
  for (const c of cells) {
    if (c.n === 0 && c.cost === 0) continue;
    upsert.values.push(...c.pk, c.n, c.cost);
    if (c.n < 0) drops.push(c.pk);
  }
  upsertThenDrop(upsert, drops, drop);
}

function toolCell(map: Map<string, ToolCell>, unit: number, project: number, tool: string): ToolCell {
  const k = `${unit},${project},${tool}`;
  let c = map.get(k);
  if (!c) map.set(k, (c = { pk: [unit, project, tool], n: 0 }));
  return c;
}

/** Count cells (tools, a session's messages of a day): upserted when they moved, deleted when they reach zero. */
function writeTools(map: Map<string, ToolCell | CountCell>, upsert: Upsert, drop: Database.Statement): void {
  const drops: (number | string)[][] = [];
  for (const c of map.values()) {
    if (c.n === 0) continue;
    upsert.values.push(...c.pk, c.n);
    if (c.n < 0) drops.push(c.pk);
  }
  upsertThenDrop(upsert, drops, drop);
}

/** Writes the gathered cells, then deletes those of `drops` that reached zero. */
function upsertThenDrop(upsert: Upsert, drops: readonly (number | string)[][], drop: Database.Statement): void {
  upsert.flush();
  for (const pk of drops) drop.run(...pk);
}

function cell(map: Map<string, Cell>, k: string, pk: number[]): Cell {
  let c = map.get(k);
  if (!c) {
    c = { pk, n: 0, input: 0, output: 0, cacheCreate: 0, cacheRead: 0, cache1h: 0, webSearch: 0, cost: 0, first: null, last: null, shrinks: false };
    map.set(k, c);
  }
  return c;
}

/** What a cell sums: its counts, cost and the first and last time in it. */
type Sums = Pick<Cell, keyof UsageCounts | 'n' | 'cost' | 'first' | 'last'>;

/** Adds sums (a batch's group, or a finer cell) into a cell. */
function addSums(into: Cell, s: Sums): void {
  into.n += s.n;
  into.input += s.input;
  into.output += s.output;
  into.cacheCreate += s.cacheCreate;
  into.cacheRead += s.cacheRead;
  into.cache1h += s.cache1h;
  into.webSearch += s.webSearch;
  into.cost += s.cost;
  if (s.first !== null && (into.first === null || s.first < into.first)) into.first = s.first;
  if (s.last !== null && (into.last === null || s.last > into.last)) into.last = s.last;
}

function bump(c: Cell, m: Msg, sign: 1 | -1): void {
  c.n += sign;
  c.input += sign * m.input;
  c.output += sign * m.output;
  c.cacheCreate += sign * m.cacheCreate;
  c.cacheRead += sign * m.cacheRead;
  c.cache1h += sign * m.cache1h;
  c.webSearch += sign * m.webSearch;
  c.cost += sign * m.cost;
  if (sign < 0) c.shrinks = true;
  else {
    if (c.first === null || m.ts < c.first) c.first = m.ts;
    if (c.last === null || m.ts > c.last) c.last = m.ts;
  }
}

function write(map: Map<string, Cell>, upsert: Upsert, drop: Database.Statement): void {
  const drops: number[][] = [];
  for (const c of map.values()) {
    upsert.values.push(...c.pk, c.n, c.input, c.output, c.cacheCreate, c.cacheRead, c.cache1h, c.webSearch, c.cost, c.first, c.last);
    if (c.shrinks) drops.push(c.pk);
  }
  upsertThenDrop(upsert, drops, drop);
}

/** usage_hourly_all's columns: no cache_1h or web_search. */
function writeHours(map: Map<string, Cell>, upsert: Upsert, drop: Database.Statement): void {
  const drops: number[][] = [];
  for (const c of map.values()) {
    upsert.values.push(...c.pk, c.n, c.input, c.output, c.cacheCreate, c.cacheRead, c.cost, c.first, c.last);
    if (c.shrinks) drops.push(c.pk);
  }
  upsertThenDrop(upsert, drops, drop);
}
