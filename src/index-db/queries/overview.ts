// GET /api/overview: totals, today's slice, cache efficiency, cost series, cost by model, projects, unpriced models.
import type { IndexingState, MachineRow, Overview, UnpricedModel } from '../../http/api-types.ts';
import type { QueryScope } from '../types.ts';
import { addRow, addTokens, costByModel, costSeries, emptyTotals, projectRows, seriesStart, totalsOf } from './fold.ts';
import { C, type ModelInfo, type ProjectInfo, type Reader, type RollRow } from './reader.ts';
import { addDays, dayNumber, exactHours, iso, startOfDay } from '../time.ts';
import { emptySlice, sliceOf } from './slice.ts';
import { resolveScope } from './scope.ts';

/** `machine`: this machine's name, for the unlabelled dirs. */
export function overview(reader: Reader, syncTimeZone: () => void, scope: QueryScope, indexing: IndexingState, dirs: string[], machine: string): Omit<Overview, 'health'> {
  const { range } = scope;
  const models = reader.models();
  const folders = reader.projects();
  const pid = resolveScope(folders, scope);
  const empty: Omit<Overview, 'health'> = {
    range, project: scope.project, repository: scope.repository ?? null, indexing, dirs,
    totals: { ...emptyTotals(), sessions: 0, projects: 0 }, today: null, cacheEfficiency: 0,
    costSeries: { bucket: range.bucket, points: [] }, costByModel: [], projects: [], unpricedModels: [], machines: [],
  };
  if (pid === undefined) return { ...empty, costSeries: costSeries(emptySlice, range, seriesStart(range, null), models) };

  const slice = sliceOf(reader, range, pid, syncTimeZone);
  const rows = slice.groups;
  const sessions = reader.sessionCounts(slice.hours, pid);
  const totals = totalsOf(rows);
  const projects = projectRows(rows, sessions, folders, models, machine);
  const input = totals.inputTokens + totals.cacheCreationTokens + totals.cacheReadTokens;

  const dayStart = startOfDay(scope.now);
  const dayEnd = addDays(dayStart, 1);
  let today: Overview['today'] = null;
  if (range.fromMs < dayEnd && range.toMs > dayStart) {
    const todaySessions = reader.sessionCounts(exactHours(dayStart, dayEnd), pid);
    today = { ...totalsOf(reader.groups({ unit: 'day', from: dayNumber(dayStart), to: dayNumber(dayEnd) }, pid)), sessions: sum(todaySessions.values()) };
  }

  return {
    ...empty,
    totals: { ...totals, sessions: sum(sessions.values()), projects: projects.length },
    today,
    cacheEfficiency: input > 0 ? totals.cacheReadTokens / input : 0,
    costSeries: costSeries(slice, range, seriesStart(range, reader.firstHour(pid)), models),
    costByModel: costByModel(rows, models),
    projects,
    unpricedModels: unpriced(rows, models),
    machines: machineRows(rows, sessions, folders, machine),
  };
}

/** Sums per machine of the folders' rows; none while every folder is this machine's. */
function machineRows(rows: RollRow[], sessions: Map<number, number>, folders: Map<number, ProjectInfo>, machine: string): MachineRow[] {
  if (new Set([...folders.values()].map((p) => p.machine)).size < 2) return [];
  const by = new Map<string, MachineRow & { last: number; pids: Set<number> }>();
  for (const r of rows) {
    const pid = r[C.project]!;
    const name = folders.get(pid)?.machine ?? machine;
    let m = by.get(name);
    if (!m) by.set(name, (m = { machine: name, ...emptyTotals(), sessions: 0, lastActivity: null, last: -Infinity, pids: new Set() }));
    addRow(m, r);
    m.last = Math.max(m.last, r[C.last] ?? -Infinity);
    // A session belongs to one folder of one machine, so the folders' counts add up.
    if (!m.pids.has(pid)) {
      m.pids.add(pid);
      m.sessions += sessions.get(pid) ?? 0;
    }
  }
  return [...by.values()]
    .map(({ last, pids: _pids, ...row }) => ({ ...row, lastActivity: Number.isFinite(last) ? iso(last) : null }))
    .sort((a, b) => b.cost - a.cost || a.machine.localeCompare(b.machine));
}

function unpriced(rows: RollRow[], models: Map<number, ModelInfo>): UnpricedModel[] {
  const by = new Map<number, UnpricedModel>();
  for (const r of rows) {
    const m = models.get(r[C.model]!);
    if (!m || m.priced || m.hidden) continue;
    let u = by.get(r[C.model]!);
    if (!u) by.set(r[C.model]!, (u = { model: m.name, messages: 0, inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, totalTokens: 0 }));
    addTokens(u, r);
  }
  return [...by.values()].sort((a, b) => b.totalTokens - a.totalTokens);
}

function sum(values: Iterable<number>): number {
  let s = 0;
  for (const v of values) s += v;
  return s;
}
