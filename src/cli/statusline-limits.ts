// The statusline's part in the plan limits: the readings of a render's `rate_limits` appended to the index's side
// file (limit-readings.ts; the writer takes them in), the windows for the line, and `--wrap`: another statusline
// command run on the same stdin, its output and exit status passed on, so a user keeps their own line and the
// readings are still kept.
import { createRequire } from 'node:module';
import { appendReadings, limitsSideFile, statusReadings, type LimitReading } from '../index-db/limit-readings.ts';
import { windowOf } from '../index-db/queries/limits.ts';
import { windowSegment } from './limits-output.ts';

/** How long a wrapped command may take before it is killed. */
export const WRAP_TIMEOUT_MS = 5000;

/** Keeps a render's readings (those that changed); returns them, for the line. Bad ones are skipped and counted. */
export function keepReadings(input: unknown, indexPath: string, machine: string, now: number, warn: (msg: string) => void): LimitReading[] {
  const rateLimits = input && typeof input === 'object' ? (input as { rate_limits?: unknown }).rate_limits : undefined;
  const { readings, skipped } = statusReadings(rateLimits, now, machine);
  if (skipped) warn(`statusline: skipped ${skipped} rate_limits reading${skipped === 1 ? '' : 's'} with a bad used % or reset`);
  try {
    appendReadings(limitsSideFile(indexPath), readings, skipped);
  } catch (err) {
    warn(`statusline: plan limit readings not kept (${(err as Error).message})`);
  }
  return readings;
}

/** ` | ⏳ 5h 42% → 71% @15:00 · 7d 63%`, or '' without readings. */
export function limitsSegment(readings: readonly LimitReading[], now: number): string {
  const shown = readings.filter((r) => r.window !== 'extra_usage');
  if (!shown.length) return '';
  const order = (w: string): number => (w === 'five_hour' ? 0 : w === 'seven_day' ? 1 : 2);
  const parts = [...shown].sort((a, b) => order(a.window) - order(b.window)).map((r) => windowSegment(windowOf([r], now, null), now));
  return ` | ⏳ ${parts.join(' · ')}`;
}

/** Runs the wrapped command with `stdin`, writes its stdout (its stderr passes through) and returns its exit status. */
export function runWrapped(command: string, stdin: string, out: (text: string) => void, warn: (msg: string) => void): number {
  // Required here, not imported: a plain render does not load node:child_process.
  const { spawnSync } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  const r = spawnSync(command, { shell: true, input: stdin, timeout: WRAP_TIMEOUT_MS, stdio: ['pipe', 'pipe', 'inherit'], maxBuffer: 1 << 20 });
  if (r.stdout?.length) out(r.stdout.toString('utf8'));
  if (r.error || r.signal) {
    warn(`statusline --wrap: ${r.error ? r.error.message : `killed by ${r.signal} after ${WRAP_TIMEOUT_MS} ms`}`);
    return r.status ?? 1;
  }
  return r.status ?? 0;
}
