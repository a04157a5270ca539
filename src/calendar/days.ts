// Civil calendar days as integers, with no time zone involved: day N is N days after 1970-01-01 (day 0 was a
// Thursday), local hour number N is hour N % 24 of day floor(N / 24). The zone only enters when an instant becomes a
// day (zone.ts); from there, weeks, months and keys are plain arithmetic here.

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

const pad = (n: number): string => String(n).padStart(2, '0');
const mod = (a: number, n: number): number => ((a % n) + n) % n;

/** 'YYYY-MM-DD' of a day number (years 0-9999). */
export function dayKey(day: number): string {
  const { y, m, d } = dateOfDay(day);
  return `${String(y).padStart(4, '0')}-${pad(m)}-${pad(d)}`;
}

/** 'YYYY-MM-DDTHH' of a local hour number. */
export const hourKey = (lhour: number): string => `${dayKey(Math.floor(lhour / 24))}T${pad(mod(lhour, 24))}`;

// Civil dates <-> day numbers by integer arithmetic (H. Hinnant's days_from_civil / civil_from_days, proleptic
// Gregorian, eras of 400 years from March 1st), as these run for every point of a series.

/** The day number of a civil date; a day or month past the end rolls over (day 0 is the last of the month before). */
export function dayFromDate(y: number, m: number, d: number): number {
  const year = y + Math.floor((m - 1) / 12) - (mod(m - 1, 12) < 2 ? 1 : 0);
  const month = mod(m - 1, 12) + 1;
  const era = Math.floor(year / 400);
  const yoe = year - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

/** The civil date of a day number (m from 1). */
export function dateOfDay(day: number): { y: number; m: number; d: number } {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d: doy - Math.floor((153 * mp + 2) / 5) + 1 };
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
