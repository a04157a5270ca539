// The maths of a budget's period, in the server's local time (decisions.md "Time": days follow TZ, weeks start on
// Monday): the period's bounds, the projection to its end at today's pace, and the state shown and alerted on.
import type { BudgetPeriod, BudgetStatus } from '../../shared/api-types.ts';
import { dayKey, daysInMonth, HOUR_MS, monthStart, weekStart } from '../../calendar/days.ts';
import { dayOf, dayStartMs, systemZone, type Zone } from '../../calendar/zone.ts';

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
export function periodSpan(period: BudgetPeriod, now: number, zone: Zone = systemZone): PeriodSpan {
  const today = dayOf(zone, now);
  const firstDay = period === 'daily' ? today : period === 'weekly' ? weekStart(today) : monthStart(today);
  const lastDay = period === 'daily' ? today : period === 'weekly' ? firstDay + 6 : firstDay + daysInMonth(firstDay) - 1;
  return { start: dayStartMs(zone, firstDay), end: dayStartMs(zone, lastDay + 1), firstDay, lastDay, from: dayKey(firstDay), to: dayKey(lastDay) };
}

/**
 * The use at the period's end if the rest of it goes at today's pace: today's cost per hour since local midnight,
 * where the first hour counts as a whole one (a few minutes after midnight must not be multiplied by a day).
 */
export function projectedUse(use: number, todayCost: number, now: number, span: PeriodSpan, zone: Zone = systemZone): number {
  const elapsed = Math.max(now - dayStartMs(zone, dayOf(zone, now)), HOUR_MS);
  return use + (todayCost / elapsed) * Math.max(0, span.end - now);
}

/** Amber from 80 % projected, red when the use or the projection passes the amount. */
export const WARN_SHARE = 0.8;

export function budgetState(amount: number, use: number, projected: number): BudgetStatus['state'] {
  if (use > amount || projected > amount) return 'over';
  return projected >= WARN_SHARE * amount ? 'warn' : 'ok';
}
