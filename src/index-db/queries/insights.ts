// GET /api/insights: blocks and burn rate, run rate, cache savings, token composition, top tools,
// heatmap, subagent share, weekly cost, cost by cause (causes.ts). All from the rollups of the range, except the blocks: those
// overlapping the range, computed over the whole history, and the active block whatever the range.
import type { PriceTable } from '../../pricing/table.ts';
import type { Block, Insights } from '../../shared/api-types.ts';
import type { InsightsData } from '../types.ts';
import { dayKey, weekday, weekStart } from '../../calendar/days.ts';
import { firstWholeDay } from '../../calendar/resolve.ts';
import { dayOf, dayStartMs, type Zone } from '../../calendar/zone.ts';
import { blocksOverlapping, isActive, listBlocks, overlapping, walkBlocks, type BlockWalk } from './blocks.ts';
import { seriesStart, totalsOf } from './fold.ts';
import { ROLL_COL, type ModelInfo, type Reader, type RollRow } from './reader.ts';
import { emptySlice, sliceOf } from './slice.ts';
import { resolveScope, type ProjectSet } from './scope.ts';
import type { SpannedScope } from './spans.ts';
import type { Causes } from './causes.ts';

const TOP_TOOLS = 15;

/** Blocks listed in an answer (most recent first). */
export const MAX_BLOCKS = 100;
/** The active block's yardstick looks this far back, whatever the range: the block does not change with the range. */
const YARDSTICK_MS = 30 * 86_400_000;

/** The average and most expensive cost of the blocks of a walk that ended within the 30 days before `now`. */
function yardstick(walk: BlockWalk, now: number): InsightsData['blockYardstick'] {
  // Most recent first, as the costs have always been added.
  const done = overlapping(walk, now - YARDSTICK_MS, now + 1).filter((b) => !isActive(b, now)).map((b) => b.cost);
  if (!done.length) return null;
  return { average: done.reduce((s, c) => s + c, 0) / done.length, max: Math.max(...done), blocks: done.length };
}

/**
 * The range's blocks, the active block (the one of now, also when the range ends before now) and its yardstick.
 * A range that holds now and its 30 days before (a year, all time) walks once for both; the yardstick's blocks are
 * never listed, so their models are never read.
 */
function blockFigures(
  reader: Reader, pid: ProjectSet, models: ReadonlyMap<number, ModelInfo>, fromMs: number, toMs: number, now: number,
): Pick<InsightsData, 'blocks' | 'blocksInRange' | 'activeBlock' | 'blockYardstick'> {
  const walk = walkBlocks(reader, pid, fromMs, toMs);
  const { blocks, total } = listBlocks(reader, pid, models, walk, fromMs, toMs, now, MAX_BLOCKS);
  const holdsNow = fromMs <= now && now < toMs;
  const activeBlock: Block | null = (holdsNow ? blocks : blocksOverlapping(reader, pid, models, now, now + 1, now).blocks).find((b) => b.active) ?? null;
  if (!activeBlock) return { blocks, blocksInRange: total, activeBlock, blockYardstick: null };
  const around = holdsNow && fromMs <= now - YARDSTICK_MS ? walk : walkBlocks(reader, pid, now - YARDSTICK_MS, now + 1);
  return { blocks, blocksInRange: total, activeBlock, blockYardstick: yardstick(around, now) };
}

export function insights(reader: Reader, causes: Causes, prices: PriceTable, scope: SpannedScope): InsightsData {
  const { range, now, zone } = scope;
  const pid = resolveScope(reader.projects(), scope);
  const slice = pid === undefined ? emptySlice : sliceOf(reader, scope.span, range.bucket, zone, pid);
  const models = reader.models();
  const start = seriesStart(scope, pid === undefined ? null : reader.firstHour(pid));
  const groups = slice.modelGroups;
  const totals = totalsOf(groups);
  // A year holds hundreds of blocks; the dashboard lists recent ones (every block made a year's answer heavy).
  const blockParts = pid === undefined
    ? { blocks: [], blocksInRange: 0, activeBlock: null, blockYardstick: null }
    : blockFigures(reader, pid, models, range.fromMs, range.toMs, now);
  const { activeBlock } = blockParts;
  const localHours = pid === undefined ? [] : reader.localHours(slice.local, pid);
  const runRate = wholeDayRate(zone, localHours, start, Math.min(range.toMs, now));

  let cache1h = 0;
  let mainCost = 0;
  let subagentCost = 0;
  for (const r of groups) {
    cache1h += r[ROLL_COL.cache1h]!;
    if (r[ROLL_COL.sub] === 1) subagentCost += r[ROLL_COL.cost]!;
    else mainCost += r[ROLL_COL.cost]!;
  }

  return {
    ...blockParts,
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
    weeklyCost: weeklyCost(zone, localHours, start, range.toMs),
    ...(pid === undefined ? { bySkill: [], byMcpServer: [], byAgent: [], byEffort: [] } : causes(scope.span.hours, pid, totals)),
  };
}

/** cache-read tokens x (input price - cache-read price), per model, at the current prices. */
function cacheSavings(rows: RollRow[], models: ReadonlyMap<number, ModelInfo>, prices: PriceTable): Insights['cacheSavings'] {
  const reads = new Map<number, number>();
  let cacheReadTokens = 0;
  for (const r of rows) {
    reads.set(r[ROLL_COL.model]!, (reads.get(r[ROLL_COL.model]!) ?? 0) + r[ROLL_COL.cacheRead]!);
    cacheReadTokens += r[ROLL_COL.cacheRead]!;
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
function costComposition(rows: RollRow[], models: ReadonlyMap<number, ModelInfo>, prices: PriceTable): Insights['costComposition'] {
  const out = { input: 0, output: 0, cache5m: 0, cache1h: 0, cacheRead: 0 };
  for (const r of rows) {
    const m = models.get(r[ROLL_COL.model]!);
    const price = m && !m.hidden ? prices.lookup(m.name)?.price : undefined;
    if (!price) continue;
    out.input += r[ROLL_COL.input]! * price.input;
    out.output += r[ROLL_COL.output]! * price.output;
    out.cache5m += (r[ROLL_COL.cacheCreate]! - r[ROLL_COL.cache1h]!) * price.cacheWrite5m;
    out.cache1h += r[ROLL_COL.cache1h]! * price.cacheWrite1h;
    out.cacheRead += r[ROLL_COL.cacheRead]! * price.cacheRead;
  }
  return out;
}

/**
 * Average cost per day over the whole local days of [startMs, endMs) that have ended (today's part of a day would make
 * a 24-minute day count as one), x 30. No whole day yet: days 0, and the dashboard says it cannot project.
 */
function wholeDayRate(zone: Zone, hours: [number, number][], startMs: number, endMs: number): Insights['runRate'] {
  const first = firstWholeDay(zone, startMs);
  const end = dayOf(zone, endMs);
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
    grid[weekday(day)]![lhour - day * 24]! += cost;
  }
  return grid;
}

/** Every local week (Monday start) touching [startMs, toMs), zero weeks included, from the cost per local hour number (in order). */
function weeklyCost(zone: Zone, hours: [number, number][], startMs: number, toMs: number): Insights['weeklyCost'] {
  const weeks = new Map<number, { weekStart: string; cost: number }>();
  for (let w = weekStart(dayOf(zone, startMs)); dayStartMs(zone, w) < toMs; w += 7) weeks.set(w, { weekStart: dayKey(w), cost: 0 });
  for (const [lhour, cost] of hours) {
    const week = weeks.get(weekStart(Math.floor(lhour / 24)));
    if (week) week.cost += cost;
  }
  return [...weeks.values()];
}
