// Instants <-> local days and hours in a time zone. A zone is its UTC offset at each instant; local wall-clock time
// as epoch ms (instant + offset) then gives the day and hour numbers of days.ts by division, so a DST day of 23 or 25
// hours, a :30 or :45 offset and a skipped midnight need no special case except where a wall-clock time must become
// an instant again (`instantOf`).
import { DAY_MS, HOUR_MS } from './days.ts';

export interface Zone {
  /** The IANA name. */
  readonly name: string;
  /** Offset from UTC at an instant, in ms: local wall-clock time = instant + offset. */
  offsetAt(ms: number): number;
}

/**
 * The zone of Date's local methods: the server's TZ (Node reads it again when it is assigned), the browser's zone.
 * Offsets come from Date itself, so every day matches what Date's local constructor and getters say.
 */
export const systemZone: Zone = {
  get name() {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  },
  offsetAt: (ms) => -new Date(ms).getTimezoneOffset() * 60_000 || 0,
};

const named = new Map<string, Zone>();
const OFFSET = /GMT(?:([+-])(\d\d):(\d\d)(?::(\d\d))?)?$/;

/** A zone by IANA name (Intl's tz data); throws RangeError for a name Intl does not know. */
export function ianaZone(name: string): Zone {
  let zone = named.get(name);
  if (zone) return zone;
  // The offset as Intl writes it ("GMT+05:45", "GMT-03:30:52" for a local mean time, "GMT" for none): one short
  // format call, cheaper than formatting the wall-clock parts (the parse workers ask once or twice per UTC hour).
  const format = new Intl.DateTimeFormat('en-US', { timeZone: name, hour: 'numeric', timeZoneName: 'longOffset' });
  zone = {
    name: format.resolvedOptions().timeZone,
    offsetAt(ms) {
      const m = OFFSET.exec(format.format(ms));
      if (!m?.[1]) return 0;
      return (m[1] === '-' ? -1 : 1) * ((Number(m[2]) * 60 + Number(m[3])) * 60 + Number(m[4] ?? 0)) * 1000;
    },
  };
  named.set(name, zone);
  return zone;
}

/** The local day number of an instant. */
export const dayOf = (zone: Zone, ms: number): number => Math.floor((ms + zone.offsetAt(ms)) / DAY_MS);

/** The local hour number (day number x 24 + hour) of an instant. */
export const localHourOf = (zone: Zone, ms: number): number => Math.floor((ms + zone.offsetAt(ms)) / HOUR_MS);

/** The first local hour number starting at or after an instant. */
export const localHourCeil = (zone: Zone, ms: number): number => Math.ceil((ms + zone.offsetAt(ms)) / HOUR_MS);

/**
 * The instant of a local wall-clock time (as epoch ms), as Date's local constructor resolves it: a time that occurs
 * twice (clocks set back) is the earlier one; a time that a DST gap skips takes the offset before the gap, so it lands
 * as far after the gap's start as it was asked after it (a skipped midnight becomes the first instant of the day).
 */
export function instantOf(zone: Zone, wall: number): number {
  // Offsets a day either side: a zone changes offset at most once in two days, and mostly not at all.
  const before = zone.offsetAt(wall - DAY_MS);
  const after = zone.offsetAt(wall + DAY_MS);
  if (before === after) return wall - before;
  const early = wall - before;
  const late = wall - after;
  const fits = (t: number): boolean => t + zone.offsetAt(t) === wall;
  if (fits(early) && fits(late)) return Math.min(early, late);
  if (fits(early)) return early;
  if (fits(late)) return late;
  return early;
}

/** The first instant of a local day. */
export const dayStartMs = (zone: Zone, day: number): number => instantOf(zone, day * DAY_MS);
