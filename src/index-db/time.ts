// Local calendar arithmetic (process TZ) on epoch ms. Rollups are per UTC hour, per local day and per
// local hour; an entry's local day and hour come from its own timestamp (decisions.md "Time").

export const HOUR_MS = 3_600_000;

const pad = (n: number): string => String(n).padStart(2, '0');

export function dayKey(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function hourKey(ms: number): string {
  return `${dayKey(ms)}T${pad(new Date(ms).getHours())}`;
}

export function startOfDay(ms: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/** Local midnight `n` days after the local day of `ms` (DST-safe). */
export function addDays(ms: number, n: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + n).getTime();
}

/** 0 = Monday … 6 = Sunday. */
export function weekday(ms: number): number {
  return (new Date(ms).getDay() + 6) % 7;
}

export function startOfWeek(ms: number): number {
  return addDays(ms, -weekday(ms));
}

/** Local midnight of the 1st of the month `n` months after the local month of `ms` (DST-safe). */
export function startOfMonth(ms: number, n = 0): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth() + n, 1).getTime();
}

/** The UTC hours whose start lies in [fromMs, toMs): [first, end). */
export function hourBounds(fromMs: number, toMs: number): [number, number] {
  return [Math.ceil(fromMs / HOUR_MS), Math.ceil(toMs / HOUR_MS)];
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Local calendar days as integers: the day number of a local date is the count of days from
 * 1970-01-01 to that date (so day 0 is a Thursday). Used as the key of the daily rollup.
 */
export function dayNumber(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / 86_400_000;
}

/** 'YYYY-MM-DD' of a day number (no time zone involved). */
export const dayNumberKey = (day: number): string => new Date(day * 86_400_000).toISOString().slice(0, 10);

/** The Monday starting the week of a day number (day 0 was a Thursday). */
export const weekStartDay = (day: number): number => day - ((day + 3) % 7);

/** 'YYYY-MM-DDTHH' of a local hour number (see LocalClock; no time zone involved). */
export const localHourKey = (lhour: number): string => `${dayNumberKey(Math.floor(lhour / 24))}T${pad(((lhour % 24) + 24) % 24)}`;

/**
 * Local hour numbers (local day number x 24 + local hour) of instants, cached per UTC hour. In a
 * :30 or :45 zone (or at a DST change off the hour) the local hour, and so maybe the local day,
 * changes inside a UTC hour: the cache keeps where, so every instant gets its own exact local hour.
 */
export class LocalClock {
  private hours = new Map<number, { split: number; before: number; after: number }>();

  /** Local hour number of an instant. */
  lhour(ms: number): number {
    const h = Math.floor(ms / HOUR_MS);
    let c = this.hours.get(h);
    if (!c) this.hours.set(h, (c = splitHour(h)));
    return ms < c.split ? c.before : c.after;
  }

  /** Local day number of an instant. */
  day(ms: number): number {
    return Math.floor(this.lhour(ms) / 24);
  }

  /** Forget the cache (the zone changed). */
  clear(): void {
    this.hours.clear();
  }
}

function lhourOf(ms: number): number {
  return dayNumber(ms) * 24 + new Date(ms).getHours();
}

/** The local hours of a UTC hour: one, or two with the first instant of the second (found by bisection). */
function splitHour(h: number): { split: number; before: number; after: number } {
  const start = h * HOUR_MS;
  const before = lhourOf(start);
  const after = lhourOf(start + HOUR_MS - 1);
  if (before === after) return { split: Infinity, before, after };
  let lo = start; // lhourOf(lo) === before
  let hi = start + HOUR_MS - 1; // lhourOf(hi) === after
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (lhourOf(mid) === before) lo = mid;
    else hi = mid;
  }
  return { split: hi, before, after };
}

/** The first local hour number starting at or after `ms`. */
export function lhourCeil(ms: number): number {
  const d = new Date(ms);
  const onHour = d.getMinutes() === 0 && d.getSeconds() === 0 && d.getMilliseconds() === 0;
  return lhourOf(ms) + (onHour ? 0 : 1);
}

/** The process time zone; the local rollups are valid for one zone only. */
export const timeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Whole UTC hours [from, to) of an interval plus the [start, end) ms pieces of the partial hours at its edges. */
export interface HourSpan {
  from: number;
  to: number;
  edges: [number, number][];
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
