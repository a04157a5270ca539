// Claude Code's cleanupPeriodDays from `<config dir>/settings.json`: the age in days past which it deletes transcripts at
// its start. A missing or unreadable file means its default; a file that is not JSON or a value that is not a positive
// integer is reported (the default applies, as it would for Claude Code reading nothing usable), never fatal.
import fs from 'node:fs';
import path from 'node:path';

export const DEFAULT_CLEANUP_DAYS = 30;

export interface CleanupPeriod {
  days: number;
  /** One line saying why the file was not used; null when it was (or there is none to use). */
  error: string | null;
}

export function readCleanupPeriod(configDir: string): CleanupPeriod {
  const file = path.join(configDir, 'settings.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { days: DEFAULT_CLEANUP_DAYS, error: null };
  }
  let settings: unknown;
  try {
    settings = JSON.parse(text);
  } catch {
    return { days: DEFAULT_CLEANUP_DAYS, error: `${file} is not JSON; taking cleanupPeriodDays as ${DEFAULT_CLEANUP_DAYS}` };
  }
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) {
    return { days: DEFAULT_CLEANUP_DAYS, error: `${file} is not a JSON object; taking cleanupPeriodDays as ${DEFAULT_CLEANUP_DAYS}` };
  }
  const value = (settings as Record<string, unknown>).cleanupPeriodDays;
  if (value === undefined) return { days: DEFAULT_CLEANUP_DAYS, error: null };
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    return { days: DEFAULT_CLEANUP_DAYS, error: `cleanupPeriodDays in ${file} is not a positive integer (${JSON.stringify(value)}); taking ${DEFAULT_CLEANUP_DAYS}` };
  }
  return { days: value, error: null };
}
