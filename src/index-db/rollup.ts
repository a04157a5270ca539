// Rollup deltas of one write: messages added (+1) or taken out (-1) are summed per rollup cell in
// memory, then each distinct cell is upserted once. Keeps the per-row cost of the writer to a Map hit.
// The rollups without the project (and the all-time one) are folded from the finer cells at flush, so
// they cost nothing per message. A batch's winners arrive summed by group (workers/fold.ts, addGroup/addTool); `add`
// then only corrects for the rows the writer did not store as new.
import type Database from 'better-sqlite3';
import type { UsageCounts } from '../workers/protocol.ts';
import { ManyRows } from './many-rows.ts';
import { FIRST_TS, TOKEN_KINDS, type Measure } from './schema/measures.ts';
import { dropOf, upsertOf } from './schema/rollup-sql.ts';
import { counter, ROLLUPS, type Rollup, type RollupName } from './schema/rollups.ts';
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
  /** 1: US-only inference (the cost x 1.1). */
  geo: number;
  /** 1: an advisor iteration's row (its own model and tokens, the response's key with `:advisor:<n>`). */
  advisor: number;
  costUSD: number | null;
  cost: number;
  tools: string;
  branch: number | null;
  /** The entrypoint's id; 0: the line names none. */
  entrypoint: number;
  /** What caused it, ids of the causes table (0: none, direct): skill, MCP server and tool, agent type, effort. */
  skill: number;
  mcpServer: number;
  mcpTool: number;
  agentType: number;
  effort: number;
}

interface Cell extends UsageCounts {
  pk: number[];
  n: number;
  cost: number;
  first: number | null;
  last: number | null;
  shrinks: boolean;
}

/** A rollup table's upsert (its cells gathered and written a few statements a flush, many-rows.ts) and its drop. */
interface TableWrite {
  rollup: Rollup;
  upsert: ManyRows;
  drop: Database.Statement;
}

/** The writes of every rollup table, made from the declaration (schema/rollups.ts). */
export class RollupStatements {
  private readonly tables = new Map<RollupName, TableWrite>();
  constructor(db: Database.Database) {
    for (const rollup of Object.values(ROLLUPS)) {
      const { head, width, tail } = upsertOf(rollup);
      this.tables.set(rollup.table, { rollup, upsert: new ManyRows(db, head, width, tail), drop: db.prepare(dropOf(rollup)) });
    }
  }

  of(table: RollupName): TableWrite {
    return this.tables.get(table)!;
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
  private entrypoints = new Map<string, Cell>();
  private causes = new Map<string, Cell>();
  private files = new Map<number, LocalCell>();
  private branches = new Map<string, LocalCell>();
  private lastBranch: LocalCell | null = null;
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
    this.addEntrypoint(m, sign, hour);
    this.addCause(m, sign, hour);
    this.addFile(m, sign);
    this.addBranch(m, sign, hour);
  }

  /**
   * A message's entrypoint cell alone: the groups a worker folds do not hold the entrypoint, so a batch's winners add
   * here one by one (a winner the index does not store is then taken out with `add`, as from its group).
   */
  addEntrypoint(m: Msg, sign: 1 | -1, hour = Math.floor(m.ts / HOUR_MS)): void {
    bump(cell(this.entrypoints, `${hour},${m.project},${m.model},${m.entrypoint}`, [hour, m.project, m.model, m.entrypoint]), m, sign);
  }

  /** A message's file cell alone, as its entrypoint cell (`addEntrypoint`): the worker's groups do not hold the file. */
  addFile(m: Msg, sign: 1 | -1): void {
    let c = this.files.get(m.file);
    if (!c) this.files.set(m.file, (c = { pk: [m.file], n: 0, cost: 0 }));
    c.n += sign;
    c.cost += sign * m.cost;
  }

  /** A message's branch cell alone, as its entrypoint cell (`addEntrypoint`); none without a branch (ON_A_BRANCH). */
  addBranch(m: Msg, sign: 1 | -1, hour = Math.floor(m.ts / HOUR_MS)): void {
    if (m.branch === null) return;
    // A session's messages mostly come in a run on one branch within an hour: the last cell, without a key built.
    let c = this.lastBranch;
    if (!c || c.pk[0] !== hour || c.pk[1] !== m.project || c.pk[2] !== m.session || c.pk[3] !== m.branch) {
      const k = `${hour},${m.project},${m.session},${m.branch}`;
      c = this.branches.get(k) ?? null;
      if (!c) this.branches.set(k, (c = { pk: [hour, m.project, m.session, m.branch], n: 0, cost: 0 }));
      this.lastBranch = c;
    }
    c.n += sign;
    c.cost += sign * m.cost;
  }

  /** A message's cause cell alone, as its entrypoint cell (`addEntrypoint`): the worker's groups do not hold causes either. */
  addCause(m: Msg, sign: 1 | -1, hour = Math.floor(m.ts / HOUR_MS)): void {
    // Direct messages (no cause) are left out, as the rollup's `only` (ATTRIBUTED) declares.
    if (m.skill === 0 && m.mcpServer === 0 && m.mcpTool === 0 && m.agentType === 0 && m.effort === 0) return;
    const k = `${hour},${m.project},${m.model},${m.skill},${m.mcpServer},${m.mcpTool},${m.agentType},${m.effort}`;
    bump(cell(this.causes, k, [hour, m.project, m.model, m.skill, m.mcpServer, m.mcpTool, m.agentType, m.effort]), m, sign);
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
    write(this.full.values(), s.of('usage_hourly'));
    write(this.byModel.values(), s.of('usage_hourly_model'));
    write(this.daily.values(), s.of('usage_daily'));
    write(this.tools.values(), s.of('tools_hourly'));
    write(this.toolsDaily.values(), s.of('tools_daily'));
    write(this.localHours.values(), s.of('cost_local_hourly'));
    write(this.sessionDays.values(), s.of('sessions_daily'));
    write(this.entrypoints.values(), s.of('usage_hourly_entrypoint'));
    write(this.causes.values(), s.of('usage_hourly_cause'));
    write(this.files.values(), s.of('usage_total_file'));
    write(this.branches.values(), s.of('usage_hourly_branch'));
    // Folded from the cells above: [day, project, model, sub] -> [day, model, sub] and [project, model], and so on.
    write(coarsen(this.daily.values(), ROLLUPS.usage_daily, ROLLUPS.usage_daily_all), s.of('usage_daily_all'));
    write(coarsen(this.daily.values(), ROLLUPS.usage_daily, ROLLUPS.usage_total), s.of('usage_total'));
    write(coarsen(this.daily.values(), ROLLUPS.usage_daily, ROLLUPS.usage_total_model), s.of('usage_total_model'));
    write(coarsen(this.full.values(), ROLLUPS.usage_hourly, ROLLUPS.cost_total_session), s.of('cost_total_session'));
    write(coarsen(this.byModel.values(), ROLLUPS.usage_hourly_model, ROLLUPS.usage_hourly_all), s.of('usage_hourly_all'));
    write(coarsen(this.byModel.values(), ROLLUPS.usage_hourly_model, ROLLUPS.cost_hourly_model), s.of('cost_hourly_model'));
    write(coarsen(this.localHours.values(), ROLLUPS.cost_local_hourly, ROLLUPS.cost_local_hourly_all), s.of('cost_local_hourly_all'));
    write(coarsen(this.toolsDaily.values(), ROLLUPS.tools_daily, ROLLUPS.tools_daily_all), s.of('tools_daily_all'));
    write(coarsen(this.entrypoints.values(), ROLLUPS.usage_hourly_entrypoint, ROLLUPS.usage_total_entrypoint), s.of('usage_total_entrypoint'));
    this.full.clear();
    this.byModel.clear();
    this.daily.clear();
    this.tools.clear();
    this.toolsDaily.clear();
    this.localHours.clear();
    this.sessionDays.clear();
    this.entrypoints.clear();
    this.causes.clear();
    this.files.clear();
    this.branches.clear();
    this.lastBranch = null;
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

/**
 * A cell of any rollup as its write sees it: its key (in the order of the table's keys) and its measures by field.
 * `shrinks` is kept by the cells with first and last times: set when a message moved out (the row may reach zero).
 */
type AnyCell = { pk: readonly (number | string)[]; shrinks?: boolean };
const measureOf = (c: AnyCell, m: Measure): number | null => (c as unknown as Record<string, number | null>)[m.field]!;
const setMeasure = (c: AnyCell, m: Measure, v: number | null): void => {
  (c as unknown as Record<string, number | null>)[m.field] = v;
};

/** The cells of the `fine` rollup summed over the keys `coarse` leaves out. */
function coarsen(cells: Iterable<AnyCell>, fine: Rollup, coarse: Rollup): AnyCell[] {
  const keep = coarse.keys.map((k) => fine.keys.indexOf(k));
  const timed = coarse.measures.includes(FIRST_TS);
  const out = new Map<string, AnyCell>();
  for (const c of cells) {
    const pk = keep.map((i) => c.pk[i]!);
    const k = pk.join(',');
    let into = out.get(k);
    if (!into) {
      into = timed ? { pk, shrinks: false } : { pk };
      for (const m of coarse.measures) setMeasure(into, m, m.combine === 'first' || m.combine === 'last' ? null : 0);
      out.set(k, into);
    }
    for (const m of coarse.measures) setMeasure(into, m, combined(m, measureOf(into, m), measureOf(c, m)));
    if (timed) into.shrinks ||= c.shrinks === true;
  }
  return [...out.values()];
}

/** Two values of a measure as one: summed, or the earlier or later of the times kept (null: none). */
function combined(m: Measure, a: number | null, b: number | null): number | null {
  if (m.combine === 'count' || m.combine === 'sum') return a! + b!;
  if (a === null) return b;
  if (b === null) return a;
  return m.combine === 'first' ? Math.min(a, b) : Math.max(a, b);
}

function toolCell(map: Map<string, ToolCell>, unit: number, project: number, tool: string): ToolCell {
  const k = `${unit},${project},${tool}`;
  let c = map.get(k);
  if (!c) map.set(k, (c = { pk: [unit, project, tool], n: 0 }));
  return c;
}

/**
 * Upserts the cells into their table in the table's column order, then deletes those that may have reached zero:
 * cells with times when a message moved out of them, the others when their count went down. A cell without times whose
 * measures are all zero changes nothing and is skipped.
 */
function write(cells: Iterable<AnyCell>, t: TableWrite): void {
  const measures = t.rollup.measures;
  const count = counter(t.rollup);
  const values = t.upsert.values;
  const drops: (readonly (number | string)[])[] = [];
  for (const c of cells) {
    if (c.shrinks === undefined && allZero(c, measures)) continue;
    values.push(...c.pk);
    for (const m of measures) values.push(measureOf(c, m));
    if (c.shrinks ?? measureOf(c, count)! < 0) drops.push(c.pk);
  }
  t.upsert.flush();
  for (const pk of drops) t.drop.run(...pk);
}

function allZero(c: AnyCell, measures: readonly Measure[]): boolean {
  for (const m of measures) if (measureOf(c, m) !== 0) return false;
  return true;
}

function cell(map: Map<string, Cell>, k: string, pk: number[]): Cell {
  let c = map.get(k);
  if (!c) {
    c = { pk, n: 0, input: 0, output: 0, cacheCreate: 0, cacheRead: 0, cache1h: 0, webSearch: 0, webFetch: 0, cost: 0, first: null, last: null,
      shrinks: false };
    map.set(k, c);
  }
  return c;
}

/** What a cell sums: its counts, cost and the first and last time in it. */
type Sums = Pick<Cell, keyof UsageCounts | 'n' | 'cost' | 'first' | 'last'>;

/** Adds a batch's group's sums into a cell. */
function addSums(into: Cell, s: Sums): void {
  into.n += s.n;
  for (const k of TOKEN_KINDS) into[k.field] += s[k.field];
  into.cost += s.cost;
  if (s.first !== null && (into.first === null || s.first < into.first)) into.first = s.first;
  if (s.last !== null && (into.last === null || s.last > into.last)) into.last = s.last;
}

function bump(c: Cell, m: Msg, sign: 1 | -1): void {
  c.n += sign;
  for (const k of TOKEN_KINDS) c[k.field] += sign * m[k.field];
  c.cost += sign * m.cost;
  if (sign < 0) c.shrinks = true;
  else {
    if (c.first === null || m.ts < c.first) c.first = m.ts;
    if (c.last === null || m.ts > c.last) c.last = m.ts;
  }
}
