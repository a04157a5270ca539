// /api/limits and `cost-dashboard limits`: each window's last reading with its pace and forecast, the hits, and the
// readings of the last weeks. The forecast runs from the last reading at the recent pace (the readings of the last
// RECENT of the window, else the average since the window began) to the reset; a window whose reset has passed keeps
// its figures and peak, marked ended. The cost of 1 % is an estimate: the index's API-equivalent cost between the first
// and the last reading of each period of the window, over the used % they moved.
import type Database from 'better-sqlite3';
import { exactHours } from '../../calendar/resolve.ts';
import type { LimitAlert, LimitHitData, LimitReadingData, LimitsData, LimitWindow } from '../../shared/api-types.ts';
import { limitSettingsReader } from '../limit-settings.ts';
import type { Reader } from './reader.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** How far back the readings are listed and the cost of 1 % is estimated. */
const READINGS_MS = 35 * DAY_MS;
/** Readings whose resets differ by less than this belong to one period (sources round the reset differently). */
const SAME_RESET_MS = 10 * 60_000;
const HITS_LISTED = 500;

interface Row {
  window: string;
  observedAt: number;
  source: string;
  usedPercent: number;
  resetsAt: number | null;
}

/** A window's length: five_hour 5 hours, the weekly ones 7 days, the usage credits a month. */
export function windowLength(window: string): number {
  if (window === 'five_hour') return 5 * HOUR_MS;
  if (window === 'extra_usage') return 30 * DAY_MS;
  return 7 * DAY_MS;
}

/** How far back the recent pace looks: an hour of a 5-hour window, a day of a week. */
const recentOf = (length: number): number => (length <= 5 * HOUR_MS ? HOUR_MS : DAY_MS);

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const samePeriod = (a: Row, b: Row): boolean =>
  a.resetsAt === null ? b.resetsAt === null : b.resetsAt !== null && Math.abs(a.resetsAt - b.resetsAt) < SAME_RESET_MS;

/** Splits one window's readings (oldest first) into its periods (one reset each). */
function periodsOf(rows: Row[]): Row[][] {
  const out: Row[][] = [];
  for (const r of rows) {
    const cur = out[out.length - 1];
    if (cur && samePeriod(cur[cur.length - 1]!, r)) cur.push(r);
    else out.push([r]);
  }
  return out;
}

/** The window now from its current period's readings (oldest first). */
export function windowOf(period: Row[], now: number, costPerPercent: number | null): LimitWindow {
  const last = period[period.length - 1]!;
  const length = windowLength(last.window);
  const start = last.resetsAt === null ? null : last.resetsAt - length;
  const elapsed = start === null ? null : Math.min(1, Math.max(0, (last.observedAt - start) / length));
  const pace = elapsed ? last.usedPercent / (elapsed * 100) : null;
  const ended = last.resetsAt !== null && last.resetsAt <= now;
  // Percent per ms: over the recent readings, else since the window began.
  const since = period.find((r) => r.observedAt >= last.observedAt - recentOf(length) && r.observedAt < last.observedAt);
  let slope: number | null = null;
  if (since) slope = Math.max(0, (last.usedPercent - since.usedPercent) / (last.observedAt - since.observedAt));
  else if (start !== null && last.observedAt > start) slope = last.usedPercent / (last.observedAt - start);
  let projected: number | null = null;
  let fullAt: number | null = null;
  if (!ended && slope !== null && last.resetsAt !== null) {
    projected = last.usedPercent + slope * (last.resetsAt - last.observedAt);
    const full = period.find((r) => r.usedPercent >= 100);
    if (full) fullAt = full.observedAt;
    else if (slope > 0) {
      const t = last.observedAt + (100 - last.usedPercent) / slope;
      if (t < last.resetsAt) fullAt = Math.round(t);
    }
  }
  return {
    window: last.window,
    usedPercent: last.usedPercent,
    resetsAt: iso(last.resetsAt),
    observedAt: iso(last.observedAt)!,
    source: last.source,
    lengthMs: length,
    elapsed,
    pace,
    projectedPercent: projected,
    fullAt: iso(fullAt),
    ended,
    peakPercent: Math.max(...period.map((r) => r.usedPercent)),
    costPerPercent,
  };
}

export function createLimits(db: Database.Database, reader: Reader): (now: number) => LimitsData {
  const readings = db.prepare(`SELECT window, observed_at AS observedAt, source, used_percent AS usedPercent, resets_at AS resetsAt
    FROM limit_readings WHERE observed_at >= ? ORDER BY window, observed_at, source`);
  // Each window's last reading, however old (a window not read for weeks still shows where it was left).
  const lastOld = db.prepare(`SELECT window, observed_at AS observedAt, source, used_percent AS usedPercent, resets_at AS resetsAt
    FROM limit_readings r WHERE observed_at < ? AND observed_at = (SELECT max(observed_at) FROM limit_readings WHERE window = r.window)`);
  const hits = db.prepare(`SELECT at, window, resets_at AS resetsAt, text FROM limit_hits ORDER BY at DESC LIMIT ${HITS_LISTED}`);
  const hitCounts = db.prepare("SELECT coalesce(window, 'unknown') AS window, count(*) AS n FROM limit_hits GROUP BY 1").raw(true);
  const skipped = db.prepare("SELECT value FROM meta WHERE key = 'limits_skipped'").pluck();
  const settings = limitSettingsReader(db);
  const lastCredits = db.prepare(`SELECT amount, used_percent AS percent, observed_at AS observedAt FROM limit_readings
    WHERE window = 'extra_usage' AND amount IS NOT NULL ORDER BY observed_at DESC LIMIT 1`);

  /** The index's API-equivalent cost of [fromMs, toMs). */
  const costBetween = (fromMs: number, toMs: number): number => reader.spanCost(exactHours(fromMs, toMs), null);
  const costPerPercent = (periods: Row[][]): number | null => {
    let cost = 0;
    let percent = 0;
    for (const p of periods) {
      const first = p[0]!;
      const last = p[p.length - 1]!;
      if (last.usedPercent <= first.usedPercent) continue;
      cost += costBetween(first.observedAt, last.observedAt);
      percent += last.usedPercent - first.usedPercent;
    }
    return percent > 0 && cost > 0 ? cost / percent : null;
  };

  return (now) => {
    const since = now - READINGS_MS;
    const rows = [...(lastOld.all(since) as Row[]), ...(readings.all(since) as Row[])];
    const byWindow = new Map<string, Row[]>();
    for (const r of rows) {
      const list = byWindow.get(r.window);
      if (list) list.push(r);
      else byWindow.set(r.window, [r]);
    }
    const windows: LimitWindow[] = [];
    for (const list of byWindow.values()) {
      list.sort((a, b) => a.observedAt - b.observedAt);
      const periods = periodsOf(list);
      windows.push(windowOf(periods[periods.length - 1]!, now, list[0]!.window === 'extra_usage' ? null : costPerPercent(periods)));
    }
    windows.sort((a, b) => order(a.window) - order(b.window) || a.window.localeCompare(b.window));
    const { thresholds, alerted, plan } = settings();
    const credit = lastCredits.get() as { amount: number; percent: number; observedAt: number } | undefined;
    const counts: Record<string, number> = {};
    for (const [w, n] of hitCounts.all() as [string, number][]) counts[w] = n;
    return {
      windows,
      hits: (hits.all() as { at: number; window: string | null; resetsAt: number | null; text: string }[]).map(
        (h): LimitHitData => ({ at: iso(h.at)!, window: h.window, resetsAt: iso(h.resetsAt), text: h.text }),
      ),
      hitCounts: counts,
      readings: rows.filter((r) => r.observedAt >= since).sort((a, b) => a.observedAt - b.observedAt).map(
        (r): LimitReadingData => ({ window: r.window, usedPercent: r.usedPercent, resetsAt: iso(r.resetsAt), observedAt: iso(r.observedAt)!, source: r.source }),
      ),
      skipped: Number(skipped.get() ?? 0),
      thresholds,
      alerts: windows.flatMap((w) => alertsOf(w, thresholds, alerted)),
      plan,
      credits: credit ? { amount: credit.amount, percent: credit.percent, observedAt: iso(credit.observedAt)! } : null,
    };
  };
}

/** A window's alerts now: each threshold its used % reached, and 100 % forecast before the reset. */
export function alertsOf(w: LimitWindow, thresholds: readonly number[], alerted: ReadonlyMap<string, number>): LimitAlert[] {
  if (w.ended || w.resetsAt === null || w.window === 'extra_usage') return [];
  const resetsAt = Date.parse(w.resetsAt);
  const alert = (kind: string): LimitAlert => {
    const was = alerted.get(`${w.window}:${kind}`);
    const logged = was !== undefined && Math.abs(was - resetsAt) < SAME_RESET_MS;
    return { window: w.window, kind, usedPercent: w.usedPercent, projectedPercent: w.projectedPercent, resetsAt: w.resetsAt!, fullAt: w.fullAt, logged };
  };
  const out = thresholds.filter((t) => w.usedPercent >= t).map((t) => alert(String(t)));
  if (w.usedPercent < 100 && w.fullAt !== null) out.push(alert('forecast'));
  return out;
}

/** five_hour, seven_day, the model weeks, the usage credits. */
function order(window: string): number {
  return window === 'five_hour' ? 0 : window === 'seven_day' ? 1 : window === 'extra_usage' ? 3 : 2;
}
