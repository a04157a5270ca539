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
import { totalTokens } from '../schema/measures.ts';
import { addTotals, emptyTotals } from './fold.ts';
import { HOUR_COL, type ModelInfo, type Reader } from './reader.ts';
import type { ProjectSet } from './scope.ts';
import { byCost } from './session-rows.ts';

export const BLOCK_MS = 5 * HOUR_MS;

/** Hours read per step when walking back to the last gap (doubled on each step). */
const WALK_HOURS = 7 * 24;

/** A block while the walk adds to it: its sums and times as numbers (a Block, with ISO times, is made for the blocks returned). */
interface Acc extends Totals {
  start: number;
  last: number;
  /** Models of the entries read one by one, with what they cost. */
  models: Map<number, number>;
  /** The hours whose every entry is in the block (their models are read for the blocks listed). */
  hours: number[];
}

/** The blocks of a range, most recent first, up to the limit asked for, and how many overlap the range. */
export interface BlocksInRange {
  blocks: Block[];
  total: number;
}

/** Usage of one hour row or one entry: what a block adds up. */
interface Piece extends Totals {
  first: number;
  last: number;
  /** The entry's model; null for an hour row. */
  model: number | null;
  /** The UTC hour of an hour row; null for an entry. */
  hour: number | null;
}

/** An hour row's or an entry's usage as a piece, its tokens summed. */
function pieceOf(
  first: number, last: number, messages: number, input: number, output: number, cacheCreate: number, cacheRead: number, cost: number,
  model: number | null, hour: number | null,
): Piece {
  return {
    first, last, cost, messages, inputTokens: input, outputTokens: output, cacheCreationTokens: cacheCreate, cacheReadTokens: cacheRead,
    totalTokens: totalTokens({ input, output, cacheCreate, cacheRead }), model, hour,
  };
}

/**
 * The `limit` most recent blocks (all by default) overlapping [fromMs, toMs) of the projects in scope (null: all),
 * with their models, and how many blocks overlap the range; `now` decides the active one. Only the blocks returned
 * are made into Blocks: an all-time answer of a big history walks ten times as many blocks as it lists.
 */
export function blocksOverlapping(
  reader: Reader, project: ProjectSet, models: ReadonlyMap<number, ModelInfo>, fromMs: number, toMs: number, now: number, limit = Infinity,
): BlocksInRange {
  const anchor = chainStart(reader, project, fromMs) ?? Math.floor(fromMs / HOUR_MS);
  // The last block starting before toMs may hold an entry at its very end, 5 h after its start hour.
  const endHour = Math.floor((toMs - 1) / HOUR_MS) + 6;
  const out: Acc[] = [];
  let cur: Acc | null = null;
  for (const r of reader.hours(anchor, endHour, project)) {
    const hourStart = r[HOUR_COL.hour] * HOUR_MS;
    const piece = pieceOf(
      r[HOUR_COL.first] ?? hourStart, r[HOUR_COL.last] ?? r[HOUR_COL.first] ?? hourStart, r[HOUR_COL.messages], r[HOUR_COL.input], r[HOUR_COL.output],
      r[HOUR_COL.cacheCreate], r[HOUR_COL.cacheRead], r[HOUR_COL.cost], null, r[HOUR_COL.hour],
    );
    if (cur && piece.first - cur.last <= BLOCK_MS && piece.first - cur.start <= BLOCK_MS && piece.last - cur.start > BLOCK_MS) {
      // The hour where the block ends: entry by entry.
      for (const [ts, messages, input, output, cacheCreate, cacheRead, cost, model] of reader.entries(hourStart, hourStart + HOUR_MS, project)) {
        cur = place(out, cur, pieceOf(ts, ts, messages, input, output, cacheCreate, cacheRead, cost, model, null));
      }
    } else {
      cur = place(out, cur, piece);
    }
  }
  const inRange = out.filter((a) => a.start < toMs && a.start + BLOCK_MS > fromMs);
  const picked = inRange.slice(Math.max(0, inRange.length - limit)).reverse();
  const named = picked.flatMap((a) => a.hours);
  const hourModels = named.length ? reader.hourModels(Math.min(...named), Math.max(...named) + 1, project) : new Map<number, [number, number][]>();
  const hits = picked.length ? reader.limitHits(picked[picked.length - 1]!.start, picked[0]!.start + BLOCK_MS) : [];
  const blocks = picked.map((a): Block => {
    const end = a.start + BLOCK_MS;
    const active = now < end && now - a.last < BLOCK_MS;
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

/** Adds a piece (in time order) to the current block, or starts the next block with it. */
function place(out: Acc[], cur: Acc | null, p: Piece): Acc {
  if (!cur || p.first - cur.last > BLOCK_MS || p.first - cur.start > BLOCK_MS) {
    const start = Math.floor(p.first / HOUR_MS) * HOUR_MS;
    cur = { start, last: p.first, ...emptyTotals(), models: new Map(), hours: [] };
    out.push(cur);
  }
  addTotals(cur, p);
  cur.last = Math.max(cur.last, p.last);
  if (p.model !== null) cur.models.set(p.model, (cur.models.get(p.model) ?? 0) + p.cost);
  if (p.hour !== null) cur.hours.push(p.hour);
  return cur;
}

/** Pace since the block started (at least one minute, so a fresh block does not explode). */
function burnOf(b: Acc, now: number): BurnRate {
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
