// A range resolved at an instant in a zone, once per request: the window the answer reports (local dates and exact
// instants, to exclusive) and the spans the rollups are read by (local days, UTC hours with their partial edges,
// local hours), so no query works out bounds of its own.
import { dayKey, DAY_MS, HOUR_MS, parseDayKey } from './days.ts';
import { dayCount, lastDays, lastMonth, thisMonth, thisWeek, type DaySpan } from './periods.ts';
import { MAX_RANGE_DAYS, type RangeKind, type RangeSel } from './range.ts';
import { dayOf, dayStartMs, localHourCeil, type Zone } from './zone.ts';

/** The window of a range. `from`/`to` are local dates (YYYY-MM-DD); fromMs/toMs the exact bounds, to exclusive. */
export interface RangeWindow {
  from: string;
  to: string;
  fromMs: number;
  toMs: number;
  /** One day (or the rolling 24 hours) by hour, else by day. */
  bucket: 'hour' | 'day';
  kind: RangeKind;
  /** Local days counted, null for all time and the rolling 24 hours. */
  days: number | null;
}

/**
 * The window of a selection at `now`. A day after today is today (spec rule 2), and a custom range counts at most
 * MAX_RANGE_DAYS days, as `range=<N>` does: an earlier `from` is the first of those days.
 */
export function resolveRange(sel: RangeSel, now: number, zone: Zone): RangeWindow {
  const today = dayOf(zone, now);
  switch (sel.kind) {
    case 'custom': {
      const from = Math.min(parseDayKey(sel.from) ?? today, today);
      const to = Math.min(parseDayKey(sel.to) ?? today, today);
      const last = Math.max(from, to);
      return daysWindow(zone, { from: Math.max(Math.min(from, to), last - MAX_RANGE_DAYS + 1), to: last }, 'custom');
    }
    case 'today':
      return daysWindow(zone, { from: today, to: today }, 'today');
    case 'days':
      return daysWindow(zone, lastDays(sel.days, today), 'days');
    case 'week':
      return daysWindow(zone, thisWeek(today), 'week');
    case 'month':
      return daysWindow(zone, thisMonth(today), 'month');
    case 'lastmonth':
      return daysWindow(zone, lastMonth(today), 'lastmonth');
    case '24h': {
      const fromMs = now - DAY_MS;
      return { from: dayKey(dayOf(zone, fromMs)), to: dayKey(today), fromMs, toMs: now + 1, bucket: 'hour', kind: '24h', days: null };
    }
    case 'all': {
      // From the epoch: the queries only see rows that exist.
      const toMs = dayStartMs(zone, today + 1);
      return { from: dayKey(dayOf(zone, 0)), to: dayKey(today), fromMs: 0, toMs, bucket: 'day', kind: 'all', days: null };
    }
  }
}

/** The dates a selection covers, to pre-fill date inputs: a custom range as asked, all time today, else its window's. */
export function selectionDays(sel: RangeSel, now: number, zone: Zone): { from: string; to: string } {
  if (sel.kind === 'custom') return { from: sel.from, to: sel.to };
  if (sel.kind === 'all') return { from: dayKey(dayOf(zone, now)), to: dayKey(dayOf(zone, now)) };
  const { from, to } = resolveRange(sel, now, zone);
  return { from, to };
}

/** Whole local days, both ends included. */
function daysWindow(zone: Zone, span: DaySpan, kind: RangeKind): RangeWindow {
  const fromMs = dayStartMs(zone, span.from);
  const toMs = dayStartMs(zone, span.to + 1);
  const days = dayCount(span);
  return {
    from: dayKey(dayOf(zone, fromMs)), to: dayKey(dayOf(zone, toMs - 1)), fromMs, toMs, bucket: days === 1 ? 'hour' : 'day', kind, days,
  };
}

/** A [from, to) span of day, hour or local hour numbers. */
export interface Span {
  from: number;
  to: number;
}

/** Whole UTC hours [from, to) of an interval plus the [start, end) ms pieces of the partial hours at its edges. */
export interface HourSpan extends Span {
  edges: [number, number][];
}

/** What the rollups of a window are read by. */
export interface RangeSpan {
  fromMs: number;
  toMs: number;
  /** Local days [from, to) when the window is whole local days (all time counts as such); null for a rolling window. */
  days: Span | null;
  /** The UTC hours starting inside the window. */
  utcHours: Span;
  /** Whole local days: the UTC hours inside them and the partial hours at their edges (a :30 or :45 zone's); a
   *  rolling window: the UTC hours starting inside it. What reads per session cover. */
  hours: HourSpan;
  /** The local hour numbers of the window (its whole days' hours, or those starting inside a rolling window). */
  localHours: Span;
}

/** The spans of whole local days. */
export interface DaysSpan extends RangeSpan {
  days: Span;
}

/** The spans of a window (its kind says whether `all`, which starts at the epoch, reads as whole days). */
export function rangeSpan(range: Pick<RangeWindow, 'fromMs' | 'toMs' | 'kind'>, zone: Zone): RangeSpan {
  const { fromMs, toMs } = range;
  const first = dayOf(zone, fromMs);
  const end = dayOf(zone, toMs);
  if (range.kind === 'all' || (fromMs === dayStartMs(zone, first) && toMs === dayStartMs(zone, end))) return daysSpan(fromMs, toMs, first, end);
  const utcHours = { from: Math.ceil(fromMs / HOUR_MS), to: Math.ceil(toMs / HOUR_MS) };
  return {
    fromMs, toMs, days: null, utcHours, hours: { ...utcHours, edges: [] },
    localHours: { from: localHourCeil(zone, fromMs), to: localHourCeil(zone, toMs) },
  };
}

/** The spans of [fromMs, toMs) read as the local days [first, end). */
function daysSpan(fromMs: number, toMs: number, first: number, end: number): DaysSpan {
  return {
    fromMs, toMs, days: { from: first, to: end }, utcHours: { from: Math.ceil(fromMs / HOUR_MS), to: Math.ceil(toMs / HOUR_MS) },
    hours: exactHours(fromMs, toMs), localHours: { from: first * 24, to: end * 24 },
  };
}

/** [fromMs, toMs) exactly: the UTC hours inside it, and its edges (none when both bounds are on the hour). */
export function exactHours(fromMs: number, toMs: number): HourSpan {
  const h0 = Math.ceil(fromMs / HOUR_MS);
  const h1 = Math.floor(toMs / HOUR_MS);
  if (h1 <= h0) return { from: h0, to: h0, edges: fromMs < toMs ? [[fromMs, toMs]] : [] };
  const edges: [number, number][] = [];
  if (fromMs < h0 * HOUR_MS) edges.push([fromMs, h0 * HOUR_MS]);
  if (h1 * HOUR_MS < toMs) edges.push([h1 * HOUR_MS, toMs]);
  return { from: h0, to: h1, edges };
}

/** The spans of the local day of `now` (the overview's, a session's and the statusline's "today"). */
export function todaySpan(now: number, zone: Zone): DaysSpan {
  const today = dayOf(zone, now);
  return daysSpan(dayStartMs(zone, today), dayStartMs(zone, today + 1), today, today + 1);
}

/** The first whole local day at or after an instant (the day it starts, or the next). */
export function firstWholeDay(zone: Zone, ms: number): number {
  const day = dayOf(zone, ms);
  return dayStartMs(zone, day) === ms ? day : day + 1;
}
