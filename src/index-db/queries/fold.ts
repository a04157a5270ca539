// Pure folds of rollup rows into the API shapes shared by several query families.
import type { ModelCost, ProjectRow, SeriesBucket, SeriesPoint, Tokens, Totals } from '../../shared/api-types.ts';
import { ROLL_COL, type ModelInfo, type ProjectInfo, type RollRow } from './reader.ts';
import { iso } from '../time.ts';
import { totalOfRow } from '../schema/measures.ts';
import { dayKey, HOUR_MS, hourKey } from '../../calendar/days.ts';
import { dayOf, dayStartMs, localHourOf } from '../../calendar/zone.ts';
import { bucketSeries } from '../../calendar/series-buckets.ts';
import type { Slice } from './slice.ts';
import type { SpannedScope } from './spans.ts';

export function emptyTotals(): Totals {
  return { cost: 0, messages: 0, inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, totalTokens: 0 };
}

/** Adds totals already folded (a day's, a branch's) into an accumulator. */
export function addTotals<T extends Totals>(into: T, t: Totals): T {
  into.cost += t.cost;
  into.messages += t.messages;
  into.inputTokens += t.inputTokens;
  into.outputTokens += t.outputTokens;
  into.cacheCreationTokens += t.cacheCreationTokens;
  into.cacheReadTokens += t.cacheReadTokens;
  into.totalTokens += t.totalTokens;
  return into;
}

/** Where a row read by position holds what a Totals sums (ROLL_COL for a rollup row; HOUR_COL, ENTRY_COL for blocks). */
export type TotalsCols = Readonly<Record<'messages' | 'input' | 'output' | 'cacheCreate' | 'cacheRead' | 'cost', number>>;

/** Adds one row (a rollup row unless `cols` says otherwise) into a Totals-like accumulator. */
export function addRow<T extends Totals>(t: T, r: readonly number[], cols: TotalsCols = ROLL_COL): T {
  t.cost += r[cols.cost]!;
  return addTokens(t, r, cols);
}

/** Adds one row's message count and tokens (not its cost). */
export function addTokens<T extends Tokens & { messages: number }>(t: T, r: readonly number[], cols: TotalsCols = ROLL_COL): T {
  t.messages += r[cols.messages]!;
  t.inputTokens += r[cols.input]!;
  t.outputTokens += r[cols.output]!;
  t.cacheCreationTokens += r[cols.cacheCreate]!;
  t.cacheReadTokens += r[cols.cacheRead]!;
  t.totalTokens += totalOfRow(r, cols);
  return t;
}

export function totalsOf(rows: RollRow[]): Totals {
  const t = emptyTotals();
  for (const r of rows) addRow(t, r);
  return t;
}

/** Per visible model, most expensive first. */
export function costByModel(rows: RollRow[], models: ReadonlyMap<number, ModelInfo>): ModelCost[] {
  const by = new Map<number, ModelCost>();
  for (const r of rows) {
    const m = models.get(r[ROLL_COL.model]!);
    if (!m || m.hidden) continue;
    let t = by.get(r[ROLL_COL.model]!);
    if (!t) by.set(r[ROLL_COL.model]!, (t = { model: m.name, ...emptyTotals() }));
    addRow(t, r);
  }
  return [...by.values()].sort((a, b) => b.cost - a.cost || a.model.localeCompare(b.model));
}

/**
 * Where the series of a range starts: the range start, or for 'all' the first day with data (else today). A custom
 * range inside which the history starts starts there too: days before any entry are not answered, whatever dates a
 * query names (one wholly before the history answers its own days, at most MAX_RANGE_DAYS).
 */
export function seriesStart({ range, zone }: SpannedScope, firstHour: number | null): number {
  if (range.kind === 'custom') {
    const first = firstHour === null ? null : dayStartMs(zone, dayOf(zone, firstHour * HOUR_MS));
    return first !== null && first > range.fromMs && first < range.toMs ? first : range.fromMs;
  }
  if (range.kind !== 'all') return range.fromMs;
  return Math.max(range.fromMs, dayStartMs(zone, dayOf(zone, firstHour === null ? range.toMs - 1 : firstHour * HOUR_MS)));
}

/** Every bucket of [startMs, range.toMs), zero buckets included, with cost per visible model; long ranges by week or month. */
export function costSeries(slice: Slice, { range, span, zone }: SpannedScope, startMs: number, models: ReadonlyMap<number, ModelInfo>): { bucket: SeriesBucket; points: SeriesPoint[] } {
  const points: SeriesPoint[] = [];
  const index = new Map<string, SeriesPoint>();
  if (range.bucket === 'hour') {
    // Local hours of whole days (in a :30 zone they start at :30 UTC); UTC hours of a rolling range.
    // A local hour that DST repeats is one bucket.
    const first = span.days ? startMs : Math.ceil(startMs / HOUR_MS) * HOUR_MS;
    for (let t = first; t < range.toMs; t += HOUR_MS) {
      const key = hourKey(localHourOf(zone, t));
      if (points.at(-1)?.key !== key) points.push({ key, start: t, cost: 0, byModel: {} });
    }
  } else {
    for (let d = dayOf(zone, startMs), start = dayStartMs(zone, d); start < range.toMs; start = dayStartMs(zone, ++d)) {
      points.push({ key: dayKey(d), start, cost: 0, byModel: {} });
    }
  }
  for (const p of points) if (!index.has(p.key)) index.set(p.key, p);
  let lastUnit = Number.NaN;
  let point: SeriesPoint | undefined;
  for (const [unit, model, cost] of slice.series) {
    if (unit !== lastUnit) {
      lastUnit = unit;
      point = index.get(slice.bucketOf(unit));
    }
    if (!point) continue;
    point.cost += cost;
    const m = models.get(model);
    if (m && !m.hidden) point.byModel[m.name] = (point.byModel[m.name] ?? 0) + cost;
  }
  const { unit, points: bucketed } = bucketSeries(points, range.bucket, zone);
  return { bucket: unit, points: bucketed };
}

/**
 * Projects with usage in the rows, most expensive first; a folder several machines hold is one row that sums them,
 * with each machine's share. `localMachine` names the unlabelled dirs' machine (--machine).
 */
export function projectRows(rows: RollRow[], sessions: Map<number, number>, projects: ReadonlyMap<number, ProjectInfo>, models: ReadonlyMap<number, ModelInfo>, localMachine: string): ProjectRow[] {
  const acc = new Map<string, ProjectAcc>();
  for (const r of rows) {
    const pid = r[ROLL_COL.project]!;
    const p = projects.get(pid);
    const id = p?.id ?? String(pid);
    let a = acc.get(id);
    if (!a) {
      a = {
        row: { id, name: p?.name ?? String(pid), repository: p?.repository ?? { id: String(pid), name: String(pid) }, cost: 0, sessions: 0, messages: 0, totalTokens: 0, lastActivity: null, topModel: null, machines: [] },
        last: -Infinity,
        pids: [],
        modelIds: [],
        modelCosts: [],
      };
      acc.set(id, a);
    }
    // A session belongs to one project id, so the machines' counts add up.
    if (!a.pids.includes(pid)) {
      a.pids.push(pid);
      a.row.sessions += sessions.get(pid) ?? 0;
    }
    const cost = r[ROLL_COL.cost]!;
    a.row.cost += cost;
    a.row.messages += r[ROLL_COL.messages]!;
    a.row.totalTokens += totalOfRow(r, ROLL_COL);
    a.last = Math.max(a.last, r[ROLL_COL.last] ?? -Infinity);
    const model = r[ROLL_COL.model]!;
    if (!models.get(model)?.hidden) {
      const at = a.modelIds.indexOf(model);
      if (at < 0) {
        a.modelIds.push(model);
        a.modelCosts.push(cost);
      } else {
        a.modelCosts[at]! += cost;
      }
    }
    const machine = p?.machine ?? localMachine;
    const m = a.row.machines.find((x) => x.machine === machine);
    if (m) m.cost += cost;
    else a.row.machines.push({ machine, cost });
  }
  const out: ProjectRow[] = [];
  for (const { row, last, modelIds, modelCosts } of acc.values()) {
    let top = -1;
    for (let i = 0; i < modelIds.length; i++) if (top < 0 || modelCosts[i]! > modelCosts[top]!) top = i;
    row.lastActivity = Number.isFinite(last) ? iso(last) : null;
    row.topModel = top < 0 ? null : models.get(modelIds[top]!)!.name;
    row.machines.sort((a, b) => b.cost - a.cost || a.machine.localeCompare(b.machine));
    out.push(row);
  }
  return out.sort((a, b) => b.cost - a.cost || a.id.localeCompare(b.id));
}

/**
 * A project's sums as its rows come, summed into its row itself: its folders (one per machine), and its visible
 * models' costs in the order first seen (a few per project: arrays, where a Map and a Set per project were most of
 * what a long range's overview allocated for its projects; bench/RESULTS.md, stop 32).
 */
interface ProjectAcc {
  row: ProjectRow;
  last: number;
  pids: number[];
  modelIds: number[];
  modelCosts: number[];
}
