// The maths of a budget's period, in the server's local time (decisions.md "Time": days follow TZ, weeks start on
// Monday): the period's bounds, the one projection to its end, and the state shown and alerted on.
import type { BudgetPeriod, BudgetStatus } from '../../shared/api-types.ts';
import { dayKey, daysInMonth, monthStart, weekStart } from '../../calendar/days.ts';
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

/** How many ended days stand for a usual day when the period has none ended yet (a daily budget, a first day). */
export const USUAL_DAYS = 7;

/**
 * A usual day's cost: the average of the period's ended days, else of the USUAL_DAYS days before today (days without
 * usage count as $0). `costOf`: a local day's cost.
 */
export function usualDay(span: PeriodSpan, today: number, costOf: (day: number) => number): number {
  const from = today > span.firstDay ? span.firstDay : today - USUAL_DAYS;
  let sum = 0;
  for (let day = from; day < today; day++) sum += costOf(day);
  return sum / (today - from);
}

/**
 * The one projection of a period, used by the strip, the meters, the alerts and the log: the use so far, plus a usual
 * day for each day left after today, plus the part of a usual day that today still has ahead (its share of the day's
 * hours not yet run). A night session therefore adds what it cost, never that cost per hour times the hours left.
 */
export function projectedUse(use: number, usual: number, now: number, span: PeriodSpan, zone: Zone = systemZone): number {
  const today = dayOf(zone, now);
  const dayStart = dayStartMs(zone, today);
  const dayEnd = dayStartMs(zone, today + 1);
  const todayLeft = Math.min(1, Math.max(0, (dayEnd - now) / (dayEnd - dayStart)));
  return use + usual * (Math.max(0, span.lastDay - today) + todayLeft);
}

/** Amber from 80 % projected ("On pace for $X" once past the amount), red only when the money spent passed it. */
export const WARN_SHARE = 0.8;

export function budgetState(amount: number, use: number, projected: number): BudgetStatus['state'] {
  if (use > amount) return 'over';
  return projected >= WARN_SHARE * amount ? 'warn' : 'ok';
}

/** Whether a budget is alerted on (banner, notification, log): spent over, or on pace to be. */
export const alerts = (b: Pick<BudgetStatus, 'amount' | 'use' | 'projected'>): boolean => b.use > b.amount || b.projected > b.amount;
