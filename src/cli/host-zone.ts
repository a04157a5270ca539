// The system's time zone by name without Intl, for a command that runs with TZ unset. ICU (behind Intl and Date) takes
// the zone's name from the link /etc/localtime: the part of its real path after `/zoneinfo/`. Naming that zone in TZ
// makes ICU read the same name from TZ instead, so the process's zone is the one it was, and the check of the daily
// rollups' zone (isProcessZone) is a string comparison instead of an Intl zone lookup, slow in a fresh process.
import fs from 'node:fs';

/** A zone name as the tz database spells them (Europe/Paris, America/Argentina/Buenos_Aires, Etc/GMT+5, UTC). */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;
const ZONEINFO = '/zoneinfo/';

/** Sets `env.TZ` to the zone `/etc/localtime` links to, when TZ is unset and the link names one; else leaves it. */
export function pinHostZone(env: NodeJS.ProcessEnv, localtime = '/etc/localtime'): void {
  if (env.TZ !== undefined) return;
  let target: string;
  try {
    if (!fs.lstatSync(localtime).isSymbolicLink()) return;
    target = fs.realpathSync(localtime);
  } catch {
    return;
  }
  // ICU takes the first `/zoneinfo/` of the real path.
  const at = target.indexOf(ZONEINFO);
  const name = at < 0 ? '' : target.slice(at + ZONEINFO.length);
  if (ZONE_NAME.test(name)) env.TZ = name;
}
