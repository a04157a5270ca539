// 5-hour billing blocks, ccusage-compatible (decisions.md): a block starts at its first entry floored
// to the UTC hour and lasts 5 h; an entry at or past the end, or more than 5 h after the previous
// entry, starts a new one. Works on hourly rollup rows: every entry of one UTC hour falls in the same
// block, and each hour's first/last timestamps give the exact gaps.
import type { Block, BurnRate } from '../../http/api-types.ts';
import { HOUR_MS, iso } from '../time.ts';
import { H, type HourRow, type ModelInfo } from './reader.ts';

export const BLOCK_MS = 5 * HOUR_MS;

interface Acc {
  start: number;
  last: number;
  block: Block;
  models: Set<string>;
}

/** Blocks of per-hour totals (ordered by hour), most recent first; `now` decides the active one. */
export function blocksOf(rows: HourRow[], models: Map<number, ModelInfo>, now: number): Block[] {
  const out: Acc[] = [];
  let cur: Acc | null = null;
  for (const r of rows) {
    const hourStart = r[H.hour] * HOUR_MS;
    const first = r[H.first] ?? hourStart;
    if (!cur || hourStart >= cur.start + BLOCK_MS || first - cur.last > BLOCK_MS) {
      cur = { start: hourStart, last: first, models: new Set(), block: newBlock(hourStart) };
      out.push(cur);
    }
    const b = cur.block;
    b.cost += r[H.cost];
    b.messages += r[H.messages];
    b.inputTokens += r[H.input];
    b.outputTokens += r[H.output];
    b.cacheCreationTokens += r[H.cacheCreate];
    b.cacheReadTokens += r[H.cacheRead];
    b.totalTokens += r[H.input] + r[H.output] + r[H.cacheCreate] + r[H.cacheRead];
    cur.last = Math.max(cur.last, r[H.last] ?? first);
    for (const id of r[H.models].split(',')) {
      const m = models.get(Number(id));
      if (m && !m.hidden) cur.models.add(m.name);
    }
  }
  return out.reverse().map(({ start, last, models: names, block }) => {
    const end = start + BLOCK_MS;
    const active = now < end && now - last < BLOCK_MS;
    return { ...block, lastActivity: iso(last), models: [...names].sort(), active, burn: active ? burnOf(block, start, now) : null };
  });
}

function newBlock(start: number): Block {
  return {
    start: iso(start), end: iso(start + BLOCK_MS), lastActivity: iso(start), cost: 0, totalTokens: 0, inputTokens: 0,
    outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, messages: 0, models: [], active: false, burn: null,
  };
}

/** Pace since the block started (at least one minute, so a fresh block does not explode). */
function burnOf(b: Block, start: number, now: number): BurnRate {
  const elapsed = Math.max(now - start, 60_000);
  const costPerHour = (b.cost / elapsed) * HOUR_MS;
  return {
    costPerHour,
    tokensPerMinute: (b.totalTokens / elapsed) * 60_000,
    projectedCost: costPerHour * (BLOCK_MS / HOUR_MS),
    minutesLeft: Math.max(0, (start + BLOCK_MS - now) / 60_000),
  };
}
