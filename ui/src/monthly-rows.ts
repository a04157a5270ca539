// The rows of the Every month table: the months without usage between the first and the last filled in, each month's
// change against the month before, and how a change reads. Pure.
import type { Monthly } from '../../src/shared/api-types.ts';
import { formatInt, formatPercent } from './format.ts';

export type Month = Monthly['months'][number] & { change: number | null };

/** 'YYYY-MM' of the calendar month before `key`. */
const monthBefore = (key: string): string => {
  const [y, m] = key.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
};

/** The months from the oldest to the newest with usage, newest first, the months without usage between them as zero rows. */
export function withGaps(months: Monthly['months']): Monthly['months'] {
  if (!months.length) return [];
  const have = new Map(months.map((m) => [m.month, m]));
  const keys = [...have.keys()].sort();
  const out: Monthly['months'] = [];
  for (let k = keys.at(-1)!; k >= keys[0]!; k = monthBefore(k)) out.push(have.get(k) ?? { month: k, cost: 0, totalTokens: 0, messages: 0, topModel: null });
  return out;
}

/** Above this rise a change reads as a multiple ("×125"), not as "+12431%". */
const MULTIPLE_FROM = 9.995;

/**
 * A month's change as shown: "+12%", "−100%", "×125" for a rise over +999%, "new" for usage after a month without,
 * "—" for a month without usage after another.
 */
export function changeLabel({ cost, change }: Pick<Month, 'cost' | 'change'>): string {
  if (change === null) return cost > 0 ? 'new' : '—';
  if (change >= MULTIPLE_FROM) return `×${formatInt(Math.round(1 + change))}`;
  return `${change > 0 ? '+' : change < 0 ? '−' : ''}${formatPercent(Math.abs(change), 0)}`;
}

/** Cost change against the calendar month before (no usage that month: null, shown as "new"). */
export function withChange(months: Monthly['months']): Month[] {
  const cost = new Map(months.map((m) => [m.month, m.cost]));
  return months.map((m) => {
    const before = cost.get(monthBefore(m.month)) ?? 0;
    return { ...m, change: before > 0 ? (m.cost - before) / before : null };
  });
}
