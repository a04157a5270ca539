// GET /api/insights: blocks and burn rate, run rate, cache savings, token composition, top tools,
// heatmap, subagent share, weekly cost. All from the rollups of the range, except the blocks: those
// overlapping the range, computed over the whole history, and the active block whatever the range.
import type { IndexingState, Insights } from '../../http/api-types.ts';
import type { PriceTable } from '../pricing/table.ts';
import type { QueryScope } from '../types.ts';
import { addDays, dayKey, dayNumber, startOfDay, startOfWeek, weekStartDay } from '../time.ts';
import { blocksOverlapping } from './blocks.ts';
import { seriesStart, totalsOf } from './fold.ts';
import { C, type ModelInfo, type Reader, type RollRow } from './reader.ts';
import { emptySlice, sliceOf } from './slice.ts';
import { resolveScope } from './scope.ts';

const TOP_TOOLS = 15;

/** Blocks listed in an answer (most recent first). */
export const MAX_BLOCKS = 100;

export function insights(reader: Reader, prices: PriceTable, scope: QueryScope, indexing: IndexingState): Insights {
  const { range, now } = scope;
  const pid = resolveScope(reader.projects(), scope);
  const slice = pid === undefined ? emptySlice : sliceOf(reader, range, pid);
  const models = reader.models();
  const start = seriesStart(range, pid === undefined ? null : reader.firstHour(pid));
  const groups = slice.modelGroups;
  const totals = totalsOf(groups);
  const allBlocks = pid === undefined ? [] : blocksOverlapping(reader, pid, models, range.fromMs, range.toMs, now, MAX_BLOCKS);
  // The active block is the one of now, also when the range ends before now.
  const nowBlocks = pid === undefined || (range.fromMs <= now && now < range.toMs) ? allBlocks : blocksOverlapping(reader, pid, models, now, now + 1, now);
  const activeBlock = nowBlocks.find((b) => b.active) ?? null;
  const localHours = pid === undefined ? [] : reader.localHours(slice.local, pid);
  // A year holds hundreds of blocks; the dashboard lists recent ones (a 365-day answer was 260 KB).
  const blocks = allBlocks.slice(0, MAX_BLOCKS);
  const runRate = wholeDayRate(localHours, start, Math.min(range.toMs, now));

  let cache1h = 0;
  let mainCost = 0;
  let subagentCost = 0;
  for (const r of groups) {
    cache1h += r[C.cache1h]!;
    if (r[C.sub] === 1) subagentCost += r[C.cost]!;
    else mainCost += r[C.cost]!;
  }

  return {
    range, project: scope.project, repository: scope.repository ?? null, indexing,
    blocks,
    blocksInRange: allBlocks.length,
    activeBlock,
    burnRate: activeBlock?.burn ?? null,
    runRate,
    cacheSavings: cacheSavings(groups, models, prices),
    costComposition: costComposition(groups, models, prices),
    tokenComposition: {
      inputTokens: totals.inputTokens, outputTokens: totals.outputTokens, cacheCreationTokens: totals.cacheCreationTokens,
      cacheReadTokens: totals.cacheReadTokens, totalTokens: totals.totalTokens,
      cache5mTokens: totals.cacheCreationTokens - cache1h, cache1hTokens: cache1h,
    },
    topTools: pid === undefined ? [] : reader.topTools(slice.span, pid, TOP_TOOLS),
    heatmap: heatmap(localHours),
    subagentShare: { mainCost, subagentCost, share: mainCost + subagentCost > 0 ? subagentCost / (mainCost + subagentCost) : 0 },
    weeklyCost: weeklyCost(localHours, start, range.toMs),
  };
}

/** cache-read tokens x (input price - cache-read price), per model, at the current prices. */
function cacheSavings(rows: RollRow[], models: Map<number, ModelInfo>, prices: PriceTable): Insights['cacheSavings'] {
  const reads = new Map<number, number>();
  let cacheReadTokens = 0;
  for (const r of rows) {
    reads.set(r[C.model]!, (reads.get(r[C.model]!) ?? 0) + r[C.cacheRead]!);
    cacheReadTokens += r[C.cacheRead]!;
  }
  let saved = 0;
  for (const [id, n] of reads) {
    const m = models.get(id);
    const price = m && !m.hidden ? prices.lookup(m.name)?.price : undefined;
    if (price) saved += n * (price.input - price.cacheRead);
  }
  return { saved, cacheReadTokens };
}

/**
 * The cost of each token kind, per model at the catalogue's base prices (no long-context tier or fast multiplier, as
 * the rollups do not keep which rows had them): by token count output is a sliver, by cost often the biggest part.
 */
function costComposition(rows: RollRow[], models: Map<number, ModelInfo>, prices: PriceTable): Insights['costComposition'] {
  const out = { input: 0, output: 0, cache5m: 0, cache1h: 0, cacheRead: 0 };
  for (const r of rows) {
    const m = models.get(r[C.model]!);
    const price = m && !m.hidden ? prices.lookup(m.name)?.price : undefined;
    if (!price) continue;
    out.input += r[C.input]! * price.input;
    out.output += r[C.output]! * price.output;
    out.cache5m += (r[C.cacheCreate]! - r[C.cache1h]!) * price.cacheWrite5m;
    out.cache1h += r[C.cache1h]! * price.cacheWrite1h;
    out.cacheRead += r[C.cacheRead]! * price.cacheRead;
  }
  return out;
}

/**
 * Average cost per day over the whole local days of [startMs, endMs) that have ended (today's part of a day would make
 * a 24-minute day count as one), x 30. No whole day yet: days 0, and the dashboard says it cannot project.
 */
function wholeDayRate(hours: [number, number][], startMs: number, endMs: number): Insights['runRate'] {
  const first = dayNumber(startOfDay(startMs) === startMs ? startMs : addDays(startMs, 1));
  const end = dayNumber(startOfDay(endMs));
  const days = Math.max(0, end - first);
  let cost = 0;
  for (const [lhour, c] of hours) {
    const day = Math.floor(lhour / 24);
    if (day >= first && day < end) cost += c;
  }
  const dailyAvg = days ? cost / days : 0;
  return { dailyAvg, projectedMonthly: dailyAvg * 30, days };
}

/** heatmap[weekday][hour] of cost, local time, Monday = 0, from the cost per local hour number. */
function heatmap(hours: [number, number][]): number[][] {
  const grid = Array.from({ length: 7 }, () => new Array<number>(24).fill(0));
  for (const [lhour, cost] of hours) {
    const day = Math.floor(lhour / 24);
    grid[(day + 3) % 7]![lhour - day * 24]! += cost; // day 0 (1970-01-01) was a Thursday
  }
  return grid;
}

/** Every local week (Monday start) touching [startMs, toMs), zero weeks included, from the cost per local hour number (in order). */
function weeklyCost(hours: [number, number][], startMs: number, toMs: number): Insights['weeklyCost'] {
  const weeks = new Map<number, { weekStart: string; cost: number }>();
  for (let w = startOfWeek(startMs); w < toMs; w = addDays(w, 7)) weeks.set(dayNumber(w), { weekStart: dayKey(w), cost: 0 });
  for (const [lhour, cost] of hours) {
    const week = weeks.get(weekStartDay(Math.floor(lhour / 24)));
    if (week) week.cost += cost;
  }
  return [...weeks.values()];
}
