// The wire syntax of a range, one parser for the server's query and the dashboard's URL and storage:
//   range=today | 24h | <N> (the last N local days, N >= 1, more than MAX_RANGE_DAYS is MAX_RANGE_DAYS)
//        | week | month (so far) | lastmonth | all;   from=YYYY-MM-DD&to=YYYY-MM-DD (whole local days, wins over range)
// and the compact form of the URL's `range` and `cost:range`: the same values, or `YYYY-MM-DD..YYYY-MM-DD`.
import { parseDayKey } from './days.ts';

/** Calendar periods the server resolves in its zone: this week (from Monday) and month so far, last month, all time. */
export type PeriodKind = 'week' | 'month' | 'lastmonth' | 'all';
const PERIODS: readonly string[] = ['week', 'month', 'lastmonth', 'all'] satisfies PeriodKind[];

export type RangeSel =
  | { kind: 'today' }
  | { kind: '24h' }
  | { kind: PeriodKind }
  | { kind: 'days'; days: number }
  | { kind: 'custom'; from: string; to: string };

export type RangeKind = RangeSel['kind'];

/** Longest `range=<N>`; larger values are this. */
export const MAX_RANGE_DAYS = 3650;

/** The one error text of a bad range (spec "Errors"). */
export const INVALID_RANGE = 'Invalid date range';

export class RangeSyntaxError extends Error {
  constructor() {
    super(INVALID_RANGE);
    this.name = 'RangeSyntaxError';
  }
}

/** A `range=` value; null when it is none of the forms. */
export function parseRangeValue(s: string): RangeSel | null {
  if (s === 'today' || s === '24h') return { kind: s };
  if (PERIODS.includes(s)) return { kind: s as PeriodKind };
  if (/^\d+$/.test(s) && Number(s) >= 1) return { kind: 'days', days: Math.min(Number(s), MAX_RANGE_DAYS) };
  return null;
}

/** A custom range from two calendar days, swapped into order; null when either is not a real date. */
export function customRange(a: string, b: string): RangeSel | null {
  if (parseDayKey(a) === null || parseDayKey(b) === null) return null;
  return a <= b ? { kind: 'custom', from: a, to: b } : { kind: 'custom', from: b, to: a };
}

/**
 * The range a query asks for; null when it names none (the route's default applies). `from`/`to` win over `range`;
 * only one of them, a date that is no real day, or an unknown `range` throws RangeSyntaxError.
 */
export function rangeFromQuery(q: { range?: string; from?: string; to?: string }): RangeSel | null {
  if (q.from !== undefined || q.to !== undefined) {
    const custom = q.from !== undefined && q.to !== undefined ? customRange(q.from, q.to) : null;
    if (!custom) throw new RangeSyntaxError();
    return custom;
  }
  if (q.range === undefined || q.range === '') return null;
  const sel = parseRangeValue(q.range);
  if (!sel) throw new RangeSyntaxError();
  return sel;
}

/** The query that asks the server for a range. */
export function rangeParams(range: RangeSel): Record<string, string> {
  switch (range.kind) {
    case 'days':
      return { range: String(range.days) };
    case 'custom':
      return { from: range.from, to: range.to };
    default:
      return { range: range.kind };
  }
}

/** The compact form: 'today', '24h', '7', 'week', '2025-01-01..2025-01-31'. */
export function rangeToString(range: RangeSel): string {
  return range.kind === 'custom' ? `${range.from}..${range.to}` : (rangeParams(range).range as string);
}

/** Inverse of rangeToString; null for anything malformed. A custom range comes back ordered (from <= to). */
export function parseRangeString(s: string | null | undefined): RangeSel | null {
  if (!s) return null;
  const m = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/.exec(s);
  return m ? customRange(m[1] as string, m[2] as string) : parseRangeValue(s);
}
