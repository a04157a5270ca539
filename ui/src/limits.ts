// Plan limits as the dashboard shows them (GET /api/limits; the server keeps the readings, pace and forecast).
import type { LimitAlert, LimitWindow } from '../../src/shared/api-types.ts';
import { formatDateTime, formatTime } from './format.ts';

/** "15:00" within the next 20 hours, else "Mar 5, 15:00". */
const when = (iso: string | null): string => (iso !== null && Math.abs(Date.parse(iso) - Date.now()) < 20 * 3_600_000 ? formatTime(iso) : formatDateTime(iso));

/** "5-hour", "Weekly", "Weekly (Opus)", "Usage credits". */
export function windowName(window: string): string {
  if (window === 'five_hour') return '5-hour';
  if (window === 'seven_day') return 'Weekly';
  if (window === 'extra_usage') return 'Usage credits';
  const model = /^seven_day_(.+)$/.exec(window)?.[1];
  const cap = (s: string): string => s.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
  return model ? `Weekly (${cap(model)})` : cap(window);
}

export const pct = (n: number | null): string => (n === null ? '—' : `${Math.round(n)}%`);

/** One alert per window, kind and reset: the key of a desktop notification (its tag) and of a dismissed banner line. */
export const limitAlertKey = (a: LimitAlert): string => `cost-limit:${a.window}:${a.kind}:${a.resetsAt}`;

/** "5-hour limit at 80% (passed 75%), resets 15:00" or "… reaches 100% at 14:20 at this pace, before its reset at 15:00". */
export function limitAlertText(a: LimitAlert): string {
  const head = `${windowName(a.window)} limit`;
  if (a.kind === 'forecast') {
    return `${head} reaches 100% at ${when(a.fullAt)} at this pace, before its reset at ${when(a.resetsAt)} (${pct(a.usedPercent)} used)`;
  }
  return `${head} at ${pct(a.usedPercent)} (passed ${a.kind}%), resets ${when(a.resetsAt)}`;
}

/** The tone of a window: critical at 90 % or with 100 % forecast before the reset, warn at 75 % or a pace over 1. */
export function toneOf(w: LimitWindow): '' | 'ok' | 'warn' | 'critical' {
  if (w.ended) return '';
  if (w.usedPercent >= 90 || w.fullAt !== null) return 'critical';
  if (w.usedPercent >= 75 || (w.pace ?? 0) > 1) return 'warn';
  return 'ok';
}
