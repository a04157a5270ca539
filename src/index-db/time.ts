// Local calendar arithmetic (process TZ) on epoch ms. Rollups are per UTC hour; a UTC hour belongs
// to the local day and local hour its start falls in.

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

/** The process time zone; the daily rollup is valid for one zone only. */
export const timeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;
