// Civil calendar days as integers, with no time zone involved: day N is N days after 1970-01-01 (day 0 was a
// Thursday), local hour number N is hour N % 24 of day floor(N / 24). The zone only enters when an instant becomes a
// day (zone.ts); from there, weeks, months and keys are plain arithmetic here.

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

const pad = (n: number): string => String(n).padStart(2, '0');
const mod = (a: number, n: number): number => ((a % n) + n) % n;

/** 'YYYY-MM-DD' of a day number. */
export const dayKey = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** 'YYYY-MM-DDTHH' of a local hour number. */
export const hourKey = (lhour: number): string => `${dayKey(Math.floor(lhour / 24))}T${pad(mod(lhour, 24))}`;

/** The day number of a civil date; a day or month past the end rolls over (day 0 is the last of the month before). */
export function dayFromDate(y: number, m: number, d: number): number {
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d); // not Date.UTC, which reads years 0-99 as 1900-1999
  return Math.round(t.getTime() / DAY_MS);
}

/** The civil date of a day number (m from 1). */
export function dateOfDay(day: number): { y: number; m: number; d: number } {
  const t = new Date(day * DAY_MS);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

/** The day number of a strict 'YYYY-MM-DD' that names a real calendar day; null otherwise. */
export function parseDayKey(s: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return null;
  const day = dayFromDate(Number(m[1]), Number(m[2]), Number(m[3]));
  return dayKey(day) === s ? day : null;
}

/** 0 = Monday … 6 = Sunday. */
export const weekday = (day: number): number => mod(day + 3, 7);

/** The Monday starting the week of a day. */
export const weekStart = (day: number): number => day - weekday(day);

/** The first day of the month of a day. */
export const monthStart = (day: number): number => day - dateOfDay(day).d + 1;

/** How many days the month of a day has. */
export function daysInMonth(day: number): number {
  const { y, m } = dateOfDay(day);
  return dateOfDay(dayFromDate(y, m + 1, 0)).d;
}
