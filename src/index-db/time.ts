// The writer's view of local time (process TZ; src/calendar owns the calendar itself): the local hour of each
// entry for the local rollups, and the zone they were built in. Rollups are per UTC hour, per local day and per
// local hour; an entry's local day and hour come from its own timestamp (decisions.md "Time").
import { HOUR_MS } from '../calendar/days.ts';
import { systemZone } from '../calendar/zone.ts';

export { HOUR_MS };
export { LocalClock } from '../calendar/local-clock.ts';

export const iso = (ms: number): string => new Date(ms).toISOString();

/** The process time zone; the local rollups are valid for one zone only. */
export const timeZone = (): string => systemZone.name;

/** The names ECMA-402 resolves to 'UTC' (Intl's name for them). */
const UTC_NAMES = new Set(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT']);

/**
 * Whether the process's zone is `name` (a name `timeZone()` gave, as meta 'daily_tz' stores it). A TZ that names it
 * answers without Intl, whose zone lookup is slow in a fresh process (a command line's start): the name
 * Intl resolves a name it gave to is that name, and the UTC names to 'UTC'. Any other TZ, or none, asks Intl.
 */
export function isProcessZone(name: string | undefined): boolean {
  if (name === undefined) return false;
  const tz = process.env.TZ;
  return tz === name || (name === 'UTC' && tz !== undefined && UTC_NAMES.has(tz)) || timeZone() === name;
}
