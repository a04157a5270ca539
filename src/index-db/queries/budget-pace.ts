// The maths of a budget's period, in the server's local time (decisions.md "Time": days follow TZ, weeks start on
// Monday): the period's bounds, the projection to its end at today's pace, and the state shown and alerted on.
import type { BudgetPeriod, BudgetStatus } from '../../http/api-types.ts';
import { addDays, dayKey, dayNumber, HOUR_MS, startOfDay, startOfMonth, startOfWeek } from '../time.ts';

export interface PeriodSpan {
  /** Exact bounds, epoch ms: [start, end). A DST day is 23 or 25 hours long. */
  start: number;
  end: number;
  /** Local day numbers of the first and last days. */
  firstDay: number;
  lastDay: number;
  /** First and last local days, YYYY-MM-DD. */
  from: string;
  to: string;
}

/** The local day, week (from Monday) or month that contains `now`. */
export function periodSpan(period: BudgetPeriod, now: number): PeriodSpan {
  const start = period === 'daily' ? startOfDay(now) : period === 'weekly' ? startOfWeek(now) : startOfMonth(now);
  const end = period === 'daily' ? addDays(start, 1) : period === 'weekly' ? addDays(start, 7) : startOfMonth(now, 1);
  const last = addDays(end, -1);
  return { start, end, firstDay: dayNumber(start), lastDay: dayNumber(last), from: dayKey(start), to: dayKey(last) };
}

/**
 * The use at the period's end if the rest of it goes at today's pace: today's cost per hour since local midnight,
 * where the first hour counts as a whole one (a few minutes after midnight must not be multiplied by a day).
 */
export function projectedUse(use: number, todayCost: number, now: number, span: PeriodSpan): number {
  const elapsed = Math.max(now - startOfDay(now), HOUR_MS);
  return use + (todayCost / elapsed) * Math.max(0, span.end - now);
}

/** Amber from 80 % projected, red when the use or the projection passes the amount. */
export const WARN_SHARE = 0.8;

export function budgetState(amount: number, use: number, projected: number): BudgetStatus['state'] {
  if (use > amount || projected > amount) return 'over';
  return projected >= WARN_SHARE * amount ? 'warn' : 'ok';
}
