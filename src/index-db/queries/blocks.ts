// 5-hour billing blocks, ccusage-compatible (decisions.md): a block starts at its first entry floored
// to the UTC hour and lasts 5 h; an entry more than 5 h after the block's start, or more than 5 h after
// the previous entry, starts a new one (an entry exactly at start + 5 h stays in the block).
//
// Blocks are a property of the whole history, so a range only selects the blocks that overlap it.
// Computing them from the first entry ever would read the whole history for every range; instead the
// walk starts at the latest entry at or before the range start that follows a gap of more than 5 h
// (or is the first entry): such an entry starts a block whatever came before it, and every block
// before it ended before it. From there the walk reads hourly rollup rows (every entry of one UTC
// hour joins the same block, except in the hour where a block ends: entries exactly at its end stay,
// later ones start the next block; that hour alone is read entry by entry). The models of a block are read
// afterwards, for the blocks an answer lists: a read per hour x project x model costs more than the walk itself, and so
// are the plan limit hits that fall inside them (a block that ended in a hit says so).
import type { Block, BlockHit, BurnRate, Totals } from '../../shared/api-types.ts';
import { HOUR_MS, iso } from '../time.ts';
import { addRow, addTokens, emptyTotals } from './fold.ts';
import { ENTRY_COL, HOUR_COL, type HourRow, type ModelInfo, type Reader } from './reader.ts';
import type { ProjectSet } from './scope.ts';
import { byCost } from './session-rows.ts';

export const BLOCK_MS = 5 * HOUR_MS;

/** Hours read per step when walking back to the last gap (doubled on each step). */
const WALK_HOURS = 7 * 24;

/**
 * A block while the walk adds to it: its sums and times as numbers (a Block, with ISO times, is made for the blocks
 * listed). Its cost is whole; its messages and tokens are those of the entries read one by one until the block is
 * listed, when those of its whole hours are added (`listBlocks`): most blocks of a walk are only counted or costed.
 */
export interface BlockSums extends Totals {
  start: number;
  last: number;
  /** Models of the entries read one by one, with what they cost. */
  models: Map<number, number>;
  /** The hours whose every entry is in the block (their models, messages and tokens are read for the blocks listed). */
  hours: number[];
}

/** The blocks of a range, most recent first, up to the limit asked for, and how many overlap the range. */
export interface BlocksInRange {
  blocks: Block[];
  total: number;
}

/** The blocks of the history from the last gap at or before a range's start through the range, in time order. */
export type BlockWalk = readonly BlockSums[];

/**
 * The `limit` most recent blocks (all by default) overlapping [fromMs, toMs) of the projects in scope (null: all),
 * with their models, and how many blocks overlap the range; `now` decides the active one.
 */
export function blocksOverlapping(
  reader: Reader, project: ProjectSet, models: ReadonlyMap<number, ModelInfo>, fromMs: number, toMs: number, now: number, limit = Infinity,
): BlocksInRange {
  return listBlocks(reader, project, models, walkBlocks(reader, project, fromMs, toMs), fromMs, toMs, now, limit);
}

/**
 * Every block overlapping [fromMs, toMs), and those before it back to the last gap, as sums: all a yardstick needs
 * (the models and plan limit hits are read for the blocks listed only).
 */
export function walkBlocks(reader: Reader, project: ProjectSet, fromMs: number, toMs: number): BlockWalk {
  const anchor = chainStart(reader, project, fromMs) ?? Math.floor(fromMs / HOUR_MS);
  // The last block starting before toMs may hold an entry at its very end, 5 h after its start hour.
  const endHour = Math.floor((toMs - 1) / HOUR_MS) + 6;
  const out: BlockSums[] = [];
  let cur: BlockSums | null = null;
  // A row's cost goes straight into its block: an object per hour row made a year's walk allocate thousands.
  for (const [hour, cost, firstTs, lastTs] of reader.hourCosts(anchor, endHour, project)) {
    const hourStart = hour * HOUR_MS;
    const first = firstTs ?? hourStart;
    const last = lastTs ?? first;
    if (cur && first - cur.last <= BLOCK_MS && first - cur.start <= BLOCK_MS && last - cur.start > BLOCK_MS) {
      // The hour where the block ends: entry by entry.
      for (const e of reader.entries(hourStart, hourStart + HOUR_MS, project)) {
        const ts = e[ENTRY_COL.ts];
        cur = blockAt(out, cur, ts, ts);
        addRow(cur, e, ENTRY_COL);
        cur.models.set(e[ENTRY_COL.model], (cur.models.get(e[ENTRY_COL.model]) ?? 0) + e[ENTRY_COL.cost]);
      }
    } else {
      cur = blockAt(out, cur, first, last);
      cur.cost += cost;
      cur.hours.push(hour);
    }
  }
  return out;
}

/** Whether a block is the active one at `now`: not over yet, and its last entry less than 5 h ago. */
export function isActive(b: BlockSums, now: number): boolean {
  return now < b.start + BLOCK_MS && now - b.last < BLOCK_MS;
}

/** The blocks of a walk overlapping [fromMs, toMs), most recent first. */
export function overlapping(walk: BlockWalk, fromMs: number, toMs: number): BlockSums[] {
  return walk.filter((a) => a.start < toMs && a.start + BLOCK_MS > fromMs).reverse();
}

/**
 * The `limit` most recent blocks of a walk (`walkBlocks` over at least [fromMs, toMs)) that overlap [fromMs, toMs),
 * as `blocksOverlapping` gives them. Only these are made into Blocks: an all-time answer of a big history walks ten
 * times as many blocks as it lists.
 */
export function listBlocks(
  reader: Reader, project: ProjectSet, models: ReadonlyMap<number, ModelInfo>, walk: BlockWalk, fromMs: number, toMs: number, now: number,
  limit = Infinity,
): BlocksInRange {
  const inRange = overlapping(walk, fromMs, toMs);
  const picked = inRange.slice(0, limit);
  const named = picked.flatMap((a) => a.hours);
  const [h0, h1] = named.length ? [Math.min(...named), Math.max(...named) + 1] : [0, 0];
  const hourModels = named.length ? reader.hourModels(h0, h1, project) : new Map<number, [number, number][]>();
  const hourSums = new Map<number, HourRow>();
  if (named.length) for (const r of reader.hours(h0, h1, project)) hourSums.set(r[HOUR_COL.hour], r);
  const hits = picked.length ? reader.limitHits(picked[picked.length - 1]!.start, picked[0]!.start + BLOCK_MS) : [];
  const blocks = picked.map((walked): Block => {
    // Listed: the messages and tokens of its whole hours too (integers: the same sums in any order), into a copy, so
    // that the walk's block stays as walked.
    const a = { ...walked };
    for (const h of a.hours) addTokens(a, hourSums.get(h)!, HOUR_COL);
    const end = a.start + BLOCK_MS;
    const active = isActive(a, now);
    const names = new Map<string, number>();
    const add = (id: number, cost: number): void => {
      const m = models.get(id);
      if (m && !m.hidden) names.set(m.name, (names.get(m.name) ?? 0) + cost);
    };
    a.models.forEach((cost, id) => add(id, cost));
    for (const h of a.hours) for (const [id, cost] of hourModels.get(h) ?? []) add(id, cost);
    const listed = byCost(names);
    return {
      start: iso(a.start), end: iso(end), lastActivity: iso(a.last), cost: a.cost, totalTokens: a.totalTokens, inputTokens: a.inputTokens,
      outputTokens: a.outputTokens, cacheCreationTokens: a.cacheCreationTokens, cacheReadTokens: a.cacheReadTokens, messages: a.messages,
      models: listed, modelCosts: listed.map((model) => ({ model, cost: names.get(model)! })), active, burn: active ? burnOf(a, now) : null, limitHit: hitIn(hits, a.start, end),
    };
  });
  return { blocks, total: inRange.length };
}

/**
 * The UTC hour of the latest entry at or before `t` that starts a block whatever came before it: the
 * first entry, or one more than 5 h after the previous entry. null when no entry is at or before `t`.
 * Only the first entry of an hour can follow such a gap, so hourly first/last times find it.
 */
function chainStart(reader: Reader, project: ProjectSet, t: number): number | null {
  const first = reader.firstHour(project);
  if (first === null) return null;
  let next: [number, number, number] | null = null;
  let to = Math.floor(t / HOUR_MS) + 1;
  for (let step = WALK_HOURS; to > first; step *= 2) {
    const from = Math.max(first, to - step);
    for (const row of reader.hourTimes(from, to, project)) {
      if (next && next[1] <= t && next[1] - row[2] > BLOCK_MS) return next[0];
      next = row;
    }
    to = from;
  }
  return next && next[1] <= t ? next[0] : null;
}

/** The first hit of [start, end] (an entry at the very end is in the block), as the API gives it. */
function hitIn(hits: readonly [number, string | null, number | null][], start: number, end: number): BlockHit | null {
  const h = hits.find(([at]) => at >= start && at <= end);
  return h ? { at: iso(h[0]), window: h[1], resetsAt: h[2] === null ? null : iso(h[2]) } : null;
}

/** The block that usage from `first` to `last` (in time order) belongs to: the current one, or the next, started here. */
function blockAt(out: BlockSums[], cur: BlockSums | null, first: number, last: number): BlockSums {
  if (!cur || first - cur.last > BLOCK_MS || first - cur.start > BLOCK_MS) {
    cur = { start: Math.floor(first / HOUR_MS) * HOUR_MS, last: first, ...emptyTotals(), models: new Map(), hours: [] };
    out.push(cur);
  }
  cur.last = Math.max(cur.last, last);
  return cur;
}

/** Pace since the block started (at least one minute, so a fresh block does not explode). */
function burnOf(b: BlockSums, now: number): BurnRate {
  const { start } = b;
  const elapsed = Math.max(now - start, 60_000);
  const costPerHour = (b.cost / elapsed) * HOUR_MS;
  return {
    costPerHour,
    tokensPerMinute: (b.totalTokens / elapsed) * 60_000,
    projectedCost: costPerHour * (BLOCK_MS / HOUR_MS),
    minutesLeft: Math.max(0, (start + BLOCK_MS - now) / 60_000),
  };
}
