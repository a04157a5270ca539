// GET /api/overview: totals, today's slice, cache efficiency, cost series, cost by model, projects, unpriced models,
// models priced at an estimated fast multiplier, cost by entrypoint.
import type { MachineRow, Overview, ServerRequests, UnpricedModel } from '../../shared/api-types.ts';
import type { OverviewData } from '../types.ts';
import { addRow, addTokens, costByModel, costSeries, emptyTotals, projectRows, seriesStart, totalsOf } from './fold.ts';
import { ROLL_COL, type ModelInfo, type ProjectInfo, type Reader, type RequestRow, type RollRow, type Span } from './reader.ts';
import { iso } from '../time.ts';
import { emptySlice, sliceOf } from './slice.ts';
import { resolveScope } from './scope.ts';
import type { SpannedScope } from './spans.ts';
import type { Entrypoints } from './entrypoints.ts';
import type { EstimatedFast } from './estimated-fast.ts';

/** `machine`: this machine's name, for the unlabelled dirs. */
export function overview(reader: Reader, entrypoints: Entrypoints, estimatedFast: EstimatedFast, scope: SpannedScope, machine: string): OverviewData {
  const { range } = scope;
  const models = reader.models();
  const folders = reader.projects();
  const pid = resolveScope(folders, scope);
  const empty: OverviewData = {
    totals: { ...emptyTotals(), webSearchRequests: 0, webFetchRequests: 0, sessions: 0, projects: 0 }, today: null, cacheEfficiency: 0,
    costSeries: { bucket: range.bucket, points: [] }, costByModel: [], projects: [], unpricedModels: [], estimatedFastModels: [],
    machines: [], byEntrypoint: [],
  };
  if (pid === undefined) return { ...empty, costSeries: costSeries(emptySlice, scope, seriesStart(scope, null), models) };

  const slice = sliceOf(reader, scope.span, range.bucket, scope.zone, pid);
  const rows = slice.groups;
  const sessions = reader.sessionCounts(slice.span, pid);
  const totals = totalsOf(rows);
  const requests = requestsByModel(reader.requests(slice.span, pid), models);
  const projects = projectRows(rows, sessions, folders, models, machine);
  const input = totals.inputTokens + totals.cacheCreationTokens + totals.cacheReadTokens;

  const day = scope.today;
  let today: Overview['today'] = null;
  if (range.fromMs < day.toMs && range.toMs > day.fromMs) {
    const days: Span = { unit: 'day', ...day.days };
    today = { ...totalsOf(reader.modelGroups(days, pid)), sessions: sum(reader.sessionCounts(days, pid).values()) };
  }

  return {
    ...empty,
    totals: { ...totals, ...sumRequests(requests.values()), sessions: sum(sessions.values()), projects: projects.length },
    today,
    cacheEfficiency: input > 0 ? totals.cacheReadTokens / input : 0,
    costSeries: costSeries(slice, scope, seriesStart(scope, reader.firstHour(pid)), models),
    costByModel: costByModel(rows, models).map((m) => ({ ...m, ...(requests.get(m.model) ?? sumRequests([])) })),
    projects,
    unpricedModels: unpriced(rows, models),
    estimatedFastModels: estimatedFast(range.fromMs, range.toMs, pid, models),
    machines: machineRows(rows, sessions, folders, machine),
    byEntrypoint: entrypoints(range.fromMs, range.toMs, pid),
  };
}

/** Sums per machine of the folders' rows; none while every folder is this machine's. */
function machineRows(rows: RollRow[], sessions: Map<number, number>, folders: ReadonlyMap<number, ProjectInfo>, machine: string): MachineRow[] {
  if (new Set([...folders.values()].map((p) => p.machine)).size < 2) return [];
  const by = new Map<string, MachineRow & { last: number; pids: Set<number> }>();
  for (const r of rows) {
    const pid = r[ROLL_COL.project]!;
    const name = folders.get(pid)?.machine ?? machine;
    let m = by.get(name);
    if (!m) by.set(name, (m = { machine: name, ...emptyTotals(), sessions: 0, lastActivity: null, last: -Infinity, pids: new Set() }));
    addRow(m, r);
    m.last = Math.max(m.last, r[ROLL_COL.last] ?? -Infinity);
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

function unpriced(rows: RollRow[], models: ReadonlyMap<number, ModelInfo>): UnpricedModel[] {
  const by = new Map<number, UnpricedModel>();
  for (const r of rows) {
    const m = models.get(r[ROLL_COL.model]!);
    if (!m || m.priced || m.hidden) continue;
    let u = by.get(r[ROLL_COL.model]!);
    if (!u) by.set(r[ROLL_COL.model]!, (u = { model: m.name, messages: 0, inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, totalTokens: 0 }));
    addTokens(u, r);
  }
  return [...by.values()].sort((a, b) => b.totalTokens - a.totalTokens);
}

/** Web search and fetch requests per model name (models of one name have their requests added). */
function requestsByModel(rows: RequestRow[], models: ReadonlyMap<number, ModelInfo>): Map<string, ServerRequests> {
  const by = new Map<string, ServerRequests>();
  for (const [model, webSearch, webFetch] of rows) {
    const key = models.get(model)?.name ?? String(model);
    const t = by.get(key) ?? { webSearchRequests: 0, webFetchRequests: 0 };
    t.webSearchRequests += webSearch;
    t.webFetchRequests += webFetch;
    by.set(key, t);
  }
  return by;
}

function sumRequests(all: Iterable<ServerRequests>): ServerRequests {
  const t = { webSearchRequests: 0, webFetchRequests: 0 };
  for (const r of all) {
    t.webSearchRequests += r.webSearchRequests;
    t.webFetchRequests += r.webFetchRequests;
  }
  return t;
}

function sum(values: Iterable<number>): number {
  let s = 0;
  for (const v of values) s += v;
  return s;
}
