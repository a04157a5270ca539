// Cost and tokens by what caused them (skill, MCP server and tool, subagent type, effort) of a range's messages, over
// the range's hours as every other figure of the answer reads them (calendar/resolve.ts: a rolling range by whole UTC
// hours, a day range exactly): its UTC hours from usage_hourly_cause, and the messages of the edges an hour cuts (a
// local day in a :30 or :45 zone) through the (file_id, ts) index (span-files.ts). So each breakdown adds up to the
// range's totals. The rollup holds attributed messages only (ATTRIBUTED): the direct part is the range's totals, which
// the caller has summed already (insights' slice), less every other cell. Summing the hours' totals here again read
// every usage_hourly_model row of the range: most of a year's insights (issue 35).
import type Database from 'better-sqlite3';
import type { CauseBreakdowns, CauseCost, McpServerCost, Totals } from '../../shared/api-types.ts';
import { totalTokens } from '../schema/measures.ts';
import { CAUSE_KEYS } from '../schema/rollups.ts';
import type { HourSpan } from '../../calendar/resolve.ts';
import type { ProjectSet } from './scope.ts';
import { emptyTotals } from './fold.ts';
import { spanFiles, spanHours } from './span-files.ts';

/** A cell: the five cause ids (CAUSE_KEYS' order), then messages, input, output, cache writes, cache reads, cost. */
type Cell = [skill: number, server: number, tool: number, agent: number, effort: number,
  messages: number, input: number, output: number, cacheCreate: number, cacheRead: number, cost: number];

/** `totals`: the sums of every message of `hours` and its edges, in `projects` (the slice's of the same range). */
export type Causes = (hours: HourSpan, projects: ProjectSet, totals: Totals) => CauseBreakdowns;

const SET = 'AND project_id IN (SELECT value FROM json_each(@p))';
const KEYS = (t: string): string => CAUSE_KEYS.map((k) => `${t}.${k}`).join(', ');

export function createCauses(db: Database.Database): Causes {
  const hours = (scope: string): Database.Statement => db.prepare(`SELECT ${KEYS('r')}, sum(r.messages), sum(r.input), sum(r.output),
      sum(r.cache_create), sum(r.cache_read), sum(r.cost)
    FROM usage_hourly_cause r WHERE r.hour >= ? AND r.hour < ? ${scope.replace('project_id', 'r.project_id')} GROUP BY 1, 2, 3, 4, 5`).raw(true);
  const messages = (scope: string): Database.Statement => db.prepare(`SELECT ${KEYS('m')}, count(*), sum(m.input), sum(m.output),
      sum(m.cache_create), sum(m.cache_read), sum(m.cost)
    FROM messages m
    WHERE m.file_id IN (${spanFiles('?', '?', scope)}) AND m.ts >= ? AND m.ts < ? ${scope.replace('project_id', 'm.project_id')}
    GROUP BY 1, 2, 3, 4, 5`).raw(true);
  const every = { hours: hours(''), messages: messages('') };
  const some = { hours: hours(SET), messages: messages(SET) };
  const names = db.prepare('SELECT id, name FROM causes').raw(true);

  return function causes(hours, projects, totals) {
    const s = projects === null ? every : some;
    const p = projects === null ? [] : [{ p: JSON.stringify(projects) }];
    const cells: Cell[] = [];
    if (hours.from < hours.to) cells.push(...(s.hours.all(hours.from, hours.to, ...p) as Cell[]));
    for (const [from, to] of hours.edges) cells.push(...(s.messages.all(...spanHours(from, to), from, to, ...p) as Cell[]));
    cells.push(directOf(totals, cells));
    return breakdowns(cells, new Map(names.all() as [number, string][]));
  };
}

/**
 * The direct cell of the range: its totals less every other cell (the hours' attributed rows, a rebuilt rollup's
 * direct rows, the edges' messages of every cause).
 */
function directOf(totals: Totals, others: readonly Cell[]): Cell {
  const d: Cell = [0, 0, 0, 0, 0, totals.messages, totals.inputTokens, totals.outputTokens, totals.cacheCreationTokens, totals.cacheReadTokens, totals.cost];
  for (const c of others) {
    d[5] -= c[5];
    d[6] -= c[6];
    d[7] -= c[7];
    d[8] -= c[8];
    d[9] -= c[9];
    d[10] -= c[10];
  }
  return d;
}

/** The cells summed by each kind of cause (id 0: name null, direct); every list most expensive first. */
function breakdowns(cells: readonly Cell[], names: ReadonlyMap<number, string>): CauseBreakdowns {
  const skills = new Map<number, CauseCost>();
  const servers = new Map<number, McpServerCost & { byTool: Map<number, CauseCost> }>();
  const agents = new Map<number, CauseCost>();
  const efforts = new Map<number, CauseCost>();
  const nameOf = (id: number): string | null => (id === 0 ? null : names.get(id) ?? `(cause ${id})`);
  for (const c of cells) {
    if (c[5] <= 0) continue; // no message: a direct part that is all attributed
    const [skill, server, tool, agent, effort] = c;
    add(rowOf(skills, skill, nameOf), c);
    let s = servers.get(server);
    if (!s) servers.set(server, (s = { ...empty(nameOf(server)), tools: [], byTool: new Map() }));
    add(s, c);
    if (server !== 0) add(rowOf(s.byTool, tool, nameOf), c);
    add(rowOf(agents, agent, nameOf), c);
    add(rowOf(efforts, effort, nameOf), c);
  }
  return {
    bySkill: sorted(skills.values()),
    byMcpServer: sorted(servers.values()).map(({ byTool, ...s }) => ({ ...s, tools: sorted(byTool.values()) })),
    byAgent: sorted(agents.values()),
    byEffort: sorted(efforts.values()),
  };
}

const empty = (name: string | null): CauseCost => ({ name, ...emptyTotals() });

function rowOf(by: Map<number, CauseCost>, id: number, nameOf: (id: number) => string | null): CauseCost {
  let r = by.get(id);
  if (!r) by.set(id, (r = empty(nameOf(id))));
  return r;
}

function add(r: CauseCost, c: Cell): void {
  const [, , , , , messages, input, output, cacheCreate, cacheRead, cost] = c;
  r.cost += cost;
  r.messages += messages;
  r.inputTokens += input;
  r.outputTokens += output;
  r.cacheCreationTokens += cacheCreate;
  r.cacheReadTokens += cacheRead;
  r.totalTokens += totalTokens({ input, output, cacheCreate, cacheRead });
}

/** Most expensive first; equal costs by name, direct (null) last. */
function sorted<T extends CauseCost>(rows: Iterable<T>): T[] {
  return [...rows].sort((a, b) => b.cost - a.cost || (a.name === null ? 1 : 0) - (b.name === null ? 1 : 0) || (a.name ?? '').localeCompare(b.name ?? ''));
}
