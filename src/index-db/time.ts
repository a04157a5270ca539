// The writer's view of local time (process TZ; src/calendar owns the calendar itself): the local hour of each
// entry for the local rollups, and the zone they were built in. Rollups are per UTC hour, per local day and per
// local hour; an entry's local day and hour come from its own timestamp (decisions.md "Time").
import { HOUR_MS } from '../calendar/days.ts';
import { localHourOf, systemZone } from '../calendar/zone.ts';

export { HOUR_MS };

export const iso = (ms: number): string => new Date(ms).toISOString();

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

const lhourOf = (ms: number): number => localHourOf(systemZone, ms);

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

/** The process time zone; the local rollups are valid for one zone only. */
export const timeZone = (): string => systemZone.name;

/** The names ECMA-402 resolves to 'UTC' (Intl's name for them). */
const UTC_NAMES = new Set(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT']);

/**
 * Whether the process's zone is `name` (a name `timeZone()` gave, as meta 'daily_tz' stores it). A TZ that names it
 * answers without Intl, whose zone lookup costs ~12 ms of CPU in a fresh process (a command line's start): the name
 * Intl resolves a name it gave to is that name, and the UTC names to 'UTC'. Any other TZ, or none, asks Intl.
 */
export function isProcessZone(name: string | undefined): boolean {
  if (name === undefined) return false;
  const tz = process.env.TZ;
  return tz === name || (name === 'UTC' && tz !== undefined && UTC_NAMES.has(tz)) || timeZone() === name;
}
