// The period a range is compared with: the same number of days just before it. Pure (tested in Node).
import type { RangeInfo } from '../../src/shared/api-types.ts';
import { dayKey, parseDayKey } from '../../src/calendar/days.ts';
import { dayCount, previousPeriod } from '../../src/calendar/periods.ts';
import { formatPercent } from './format.ts';

/** The days just before `range`, as long as it; null for all time and the rolling 24 hours (no calendar span). */
export function previousSpan(range: Pick<RangeInfo, 'from' | 'to' | 'kind'>): { from: string; to: string; label: string } | null {
  if (range.kind === 'all' || range.kind === '24h') return null;
  const from = parseDayKey(range.from);
  const to = parseDayKey(range.to);
  if (from === null || to === null) return null;
  const days = dayCount({ from, to });
  const before = previousPeriod({ from, to });
  return { from: dayKey(before.from), to: dayKey(before.to), label: days === 1 ? 'the day before' : `previous ${days} days` };
}

/** "+18% vs previous 30 days", "−5% vs …", "new vs …" (nothing before), "no change vs …". */
export function changeText(current: number, previous: number, label: string): string {
  if (previous === 0) return current === 0 ? `no change vs ${label}` : `new vs ${label}`;
  const r = (current - previous) / previous;
  if (r === 0) return `no change vs ${label}`;
  return `${r > 0 ? '+' : '−'}${formatPercent(Math.abs(r), 0)} vs ${label}`;
}
