// Plan limit readings: what one is, which ones are good, and the side file the statusline appends them to. The
// statusline only ever reads the index (a writer must load every dedup key first, which no render can afford), so it
// appends its readings, one JSON line each, to `<index>.limits`; the index's writer takes them in (limit-store.ts).
// An append of one short line is atomic on a local file system, so renders never interleave. Bundled into the
// statusline: node:fs and nothing else.
import fs from 'node:fs';

export interface LimitReading {
  /** five_hour, seven_day, seven_day_<model>, or extra_usage (the usage credits). */
  window: string;
  /** 0-100 (over 100 when a window was overrun). */
  usedPercent: number;
  /** Epoch ms; null when the source gave none (a probe window not started yet). */
  resetsAt: number | null;
  /** Epoch ms. */
  observedAt: number;
  /** statusline or probe. */
  source: string;
  machine: string;
  /** Usage credits spent this month (extra_usage only), in the account's currency. */
  amount: number | null;
}

const MAX_PERCENT = 1000;
/** A reset further than this from its observation is not a window's (5 hours, 7 days) but damage. */
const MAX_RESET_DISTANCE_MS = 60 * 86_400_000;
const WINDOW_NAME = /^[a-z0-9_]{1,60}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a reading can be stored: a known window name, a used % in 0-1000, a reset within 60 days of it. */
export function goodReading(r: LimitReading): boolean {
  return WINDOW_NAME.test(r.window) && Number.isFinite(r.usedPercent) && r.usedPercent >= 0 && r.usedPercent <= MAX_PERCENT
    && Number.isFinite(r.observedAt) && r.observedAt > 0
    && (r.resetsAt === null || (Number.isFinite(r.resetsAt) && Math.abs(r.resetsAt - r.observedAt) <= MAX_RESET_DISTANCE_MS))
    && (r.amount === null || (Number.isFinite(r.amount) && r.amount >= 0));
}

/**
 * The readings of a statusline render's `rate_limits` ({five_hour: {used_percentage, resets_at (epoch seconds)},
 * seven_day: ...}); a window whose used % or reset is not a number, or out of bounds, is skipped and counted, and so
 * is a `rate_limits` that is not an object. Absent (an API key, or before the first response): nothing.
 */
export function statusReadings(rateLimits: unknown, observedAt: number, machine: string): { readings: LimitReading[]; skipped: number } {
  if (rateLimits === undefined || rateLimits === null) return { readings: [], skipped: 0 };
  if (!isObject(rateLimits)) return { readings: [], skipped: 1 };
  const readings: LimitReading[] = [];
  let skipped = 0;
  for (const [window, v] of Object.entries(rateLimits)) {
    const used = isObject(v) ? v.used_percentage : undefined;
    const resets = isObject(v) ? v.resets_at : undefined;
    const r: LimitReading = {
      window, observedAt, machine, source: 'statusline', amount: null,
      usedPercent: typeof used === 'number' ? used : Number.NaN,
      resetsAt: typeof resets === 'number' ? resets * 1000 : Number.NaN,
    };
    if (goodReading(r)) readings.push(r);
    else skipped++;
  }
  return { readings, skipped };
}

/** The statusline's side file of an index file. */
export const limitsSideFile = (indexPath: string): string => `${indexPath}.limits`;

/** One side-file line per reading (the source is the statusline's). */
const lineOf = (r: LimitReading): string =>
  JSON.stringify({ w: r.window, u: r.usedPercent, r: r.resetsAt, o: r.observedAt, m: r.machine });

/** How many bad readings a side-file line reports (the statusline skipped them); 1 for a line that is no reading. */
export function skippedOfLine(line: string): number {
  const m = /^\{"skip":(\d{1,6})\}$/.exec(line);
  return m ? Number(m[1]) : 1;
}

/** A side-file line -> its reading, or null when it is not one (a torn or hand-edited line, a count of skipped ones). */
export function readingOfLine(line: string): LimitReading | null {
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(o) || typeof o.w !== 'string' || typeof o.u !== 'number' || typeof o.o !== 'number' || typeof o.m !== 'string') return null;
  const resetsAt = typeof o.r === 'number' ? o.r : o.r === null ? null : Number.NaN;
  const r: LimitReading = { window: o.w, usedPercent: o.u, resetsAt, observedAt: o.o, source: 'statusline', machine: o.m, amount: null };
  return goodReading(r) ? r : null;
}

/** How much of the side file's end is read for each window's last reading. */
const TAIL_BYTES = 16 * 1024;

/** The side file's last reading of each window (its last TAIL_BYTES: renders append only what changed). */
export function lastSideReadings(file: string): Map<string, LimitReading> {
  const last = new Map<string, LimitReading>();
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return last;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const from = Math.max(0, size - TAIL_BYTES);
    const buf = Buffer.alloc(size - from);
    fs.readSync(fd, buf, 0, buf.length, from);
    for (const line of buf.toString('utf8').split('\n')) {
      const r = readingOfLine(line);
      if (r) last.set(r.window, r);
    }
  } finally {
    fs.closeSync(fd);
  }
  return last;
}

/**
 * Appends the readings that differ from their window's last one (used % or reset) in one write; returns how many.
 */
export function appendReadings(file: string, readings: readonly LimitReading[], skipped = 0): number {
  // Skipped ones are counted by the intake, which sums them into the index.
  if (skipped > 0) fs.appendFileSync(file, `{"skip":${Math.min(skipped, 999_999)}}\n`);
  if (!readings.length) return 0;
  const last = lastSideReadings(file);
  const fresh = readings.filter((r) => {
    const l = last.get(r.window);
    return !l || l.usedPercent !== r.usedPercent || l.resetsAt !== r.resetsAt;
  });
  if (!fresh.length) return 0;
  fs.appendFileSync(file, fresh.map((r) => `${lineOf(r)}\n`).join(''));
  return fresh.length;
}
