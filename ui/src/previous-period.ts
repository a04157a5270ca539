// The period a range is compared with: the same number of days just before it. Pure (tested in Node).
import type { RangeInfo } from '../../src/shared/api-types.ts';
import { formatPercent } from './format.ts';

const DAY = 86_400_000;
const shift = (key: string, days: number): string => new Date(Date.parse(`${key}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** The days just before `range`, as long as it; null for all time and the rolling 24 hours (no calendar span). */
export function previousSpan(range: Pick<RangeInfo, 'from' | 'to' | 'kind'>): { from: string; to: string; label: string } | null {
  if (range.kind === 'all' || range.kind === '24h') return null;
  const days = Math.round((Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / DAY) + 1;
  const label = days === 1 ? 'the day before' : `previous ${days} days`;
  return { from: shift(range.from, -days), to: shift(range.from, -1), label };
}

/** "+18% vs previous 30 days", "−5% vs …", "new vs …" (nothing before), "no change vs …". */
export function changeText(current: number, previous: number, label: string): string {
  if (previous === 0) return current === 0 ? `no change vs ${label}` : `new vs ${label}`;
  const r = (current - previous) / previous;
  if (r === 0) return `no change vs ${label}`;
  return `${r > 0 ? '+' : '−'}${formatPercent(Math.abs(r), 0)} vs ${label}`;
}
