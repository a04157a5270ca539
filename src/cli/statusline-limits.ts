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

/**
 * Runs the wrapped command with `stdin`, writes its stdout (its stderr passes through) and resolves with its exit
 * status. It runs in a process group of its own, so the time limit ends whatever it started too (a `sleep` holding
 * its stdout would otherwise keep the line waiting).
 */
export function runWrapped(command: string, stdin: string, out: (text: string) => void, warn: (msg: string) => void): Promise<number> {
  // Required here, not imported: a plain render does not load node:child_process.
  const { spawn } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, detached: true, stdio: ['pipe', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    let killed = false;
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    // Claude Code stopping this render (SIGTERM: the statusline exits) ends the wrapped command with it.
    process.once('exit', killGroup);
    const timer = setTimeout(() => {
      killed = true;
      killGroup();
    }, WRAP_TIMEOUT_MS);
    child.stdout!.on('data', (c: Buffer) => chunks.push(c));
    child.stdin!.on('error', () => {}); // a command that does not read its stdin
    child.stdin!.end(stdin);
    child.once('error', (err) => {
      clearTimeout(timer);
      warn(`statusline --wrap: ${err.message}`);
      resolve(1);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      process.off('exit', killGroup);
      out(Buffer.concat(chunks).toString('utf8'));
      if (killed) warn(`statusline --wrap: killed after ${WRAP_TIMEOUT_MS} ms`);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}
