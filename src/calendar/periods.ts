// Calendar periods as spans of local day numbers, both ends included (as the wire's from/to dates): the last N days,
// this week (from Monday) and this month so far, the whole last month, and the period of the same length just before.
import { monthStart, weekStart } from './days.ts';

export interface DaySpan {
  from: number;
  to: number;
}

export const lastDays = (n: number, today: number): DaySpan => ({ from: today - n + 1, to: today });

export const thisWeek = (today: number): DaySpan => ({ from: weekStart(today), to: today });

export const thisMonth = (today: number): DaySpan => ({ from: monthStart(today), to: today });

export function lastMonth(today: number): DaySpan {
  const end = monthStart(today) - 1;
  return { from: monthStart(end), to: end };
}

/** How many days a span holds. */
export const dayCount = (span: DaySpan): number => span.to - span.from + 1;

/** The days just before a span, as many as it has. */
export function previousPeriod(span: DaySpan): DaySpan {
  return { from: span.from - dayCount(span), to: span.from - 1 };
}
