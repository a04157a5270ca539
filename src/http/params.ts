// Query parameters of the data routes -> a resolved RangeInfo and project (spec "Query parameters").
// Days are local to the process TZ: midnights come from Date's local constructor, so a DST day is
// 23 or 25 hours long. Bad input throws an HttpError with status 400.
import type { RangeInfo } from '../shared/api-types.ts';
import { Errors } from './errors.ts';
import { MACHINE_RE } from '../shared/machine-label.ts';

export type Query = Record<string, string | string[] | undefined>;

/** Longest `range=<N>` accepted; larger values are clamped to it. */
export const MAX_RANGE_DAYS = 3650;
const PROJECT_RE = /^[A-Za-z0-9._-]+$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The first value of a (possibly repeated) query parameter. */
function one(q: Query, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[0] : v;
}

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

/** Local calendar date YYYY-MM-DD of an instant. */
export function localDate(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Local midnight of a calendar day; day overflow (e.g. 32) rolls into the next month. */
function midnight(y: number, m: number, day: number): number {
  const d = new Date(2000, 0, 1);
  d.setFullYear(y, m - 1, day);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

interface Ymd { y: number; m: number; d: number }

function ymdOf(ms: number): Ymd {
  const t = new Date(ms);
  return { y: t.getFullYear(), m: t.getMonth() + 1, d: t.getDate() };
}

/** Strict YYYY-MM-DD that names a real calendar day; null otherwise. */
function parseDate(s: string): Ymd | null {
  const m = DATE_RE.exec(s);
  if (!m) return null;
  const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return null;
  const probe = ymdOf(midnight(y, mo, d));
  return probe.y === y && probe.m === mo && probe.d === d ? { y, m: mo, d } : null;
}

const key = (v: Ymd): number => v.y * 10000 + v.m * 100 + v.d;

/** Whole local days [from, to] -> RangeInfo; `kind` says what was asked. */
function daysWindow(from: Ymd, to: Ymd, kind: RangeInfo['kind']): RangeInfo {
  const fromMs = midnight(from.y, from.m, from.d);
  const toMs = midnight(to.y, to.m, to.d + 1);
  // Count calendar days, not 24 h periods (DST days are 23/25 h).
  const days = Math.round((Date.UTC(to.y, to.m - 1, to.d) - Date.UTC(from.y, from.m - 1, from.d)) / 86_400_000) + 1;
  return { from: localDate(fromMs), to: localDate(toMs - 1), fromMs, toMs, bucket: days === 1 ? 'hour' : 'day', kind, days };
}

export type RangeDefault = 'days30' | 'all';

/**
 * Resolves `range` / `from` + `to` at instant `now`. `from`/`to` win over `range`; with neither,
 * `fallback` decides: 30 days (overview, insights) or all time (the other routes).
 */
export function parseRange(q: Query, fallback: RangeDefault, now: number): RangeInfo {
  const today = ymdOf(now);
  const fromRaw = one(q, 'from');
  const toRaw = one(q, 'to');
  if (fromRaw !== undefined || toRaw !== undefined) {
    if (fromRaw === undefined || toRaw === undefined) throw Errors.badRange();
    let a = parseDate(fromRaw);
    let b = parseDate(toRaw);
    if (!a || !b) throw Errors.badRange();
    if (key(a) > key(b)) [a, b] = [b, a];
    if (key(a) > key(today)) a = today;
    if (key(b) > key(today)) b = today;
    return daysWindow(a, b, 'custom');
  }

  const range = one(q, 'range');
  if (range === undefined || range === '') {
    return fallback === 'days30' ? lastDays(30, today) : allTime(today);
  }
  if (range === 'all') return allTime(today);
  if (range === 'today') return { ...daysWindow(today, today, 'today') };
  // Calendar periods so far (weeks start on Monday), and the whole previous month.
  if (range === 'week') {
    const dow = (new Date(midnight(today.y, today.m, today.d)).getDay() + 6) % 7;
    return daysWindow(ymdOf(midnight(today.y, today.m, today.d - dow)), today, 'week');
  }
  if (range === 'month') return daysWindow({ y: today.y, m: today.m, d: 1 }, today, 'month');
  if (range === 'lastmonth') {
    const first = ymdOf(midnight(today.y, today.m - 1, 1));
    return daysWindow(first, ymdOf(midnight(today.y, today.m, 0)), 'lastmonth');
  }
  if (range === '24h') {
    const fromMs = now - 86_400_000;
    return { from: localDate(fromMs), to: localDate(now), fromMs, toMs: now + 1, bucket: 'hour', kind: '24h', days: null };
  }
  if (!/^\d+$/.test(range) || Number(range) < 1) throw Errors.badRange();
  return lastDays(Math.min(Number(range), MAX_RANGE_DAYS), today);
}

/** All time: from the epoch to the end of today; the queries only see rows that exist. */
function allTime(today: Ymd): RangeInfo {
  const toMs = midnight(today.y, today.m, today.d + 1);
  return { from: localDate(0), to: localDate(toMs - 1), fromMs: 0, toMs, bucket: 'day', kind: 'all', days: null };
}

/** The last `n` calendar days ending today. */
function lastDays(n: number, today: Ymd): RangeInfo {
  const start = ymdOf(midnight(today.y, today.m, today.d - (n - 1)));
  return daysWindow(start, today, 'days');
}

/** `project` on overview/insights/projects: null when absent, 400 when it does not match the pattern. */
export function parseProject(q: Query): string | null {
  const p = one(q, 'project');
  if (p === undefined || p === '') return null;
  if (!PROJECT_RE.test(p)) throw Errors.badProject();
  return p;
}

/** Longest repository id (a main checkout's path) accepted. */
export const MAX_REPOSITORY_LENGTH = 4096;

/** `repository` beside `project`: a main checkout's path; null when absent, 400 when too long (an unknown one is the route's 400). */
export function parseRepository(q: Query): string | null {
  const r = one(q, 'repository');
  if (r === undefined || r === '') return null;
  if (r.length > MAX_REPOSITORY_LENGTH) throw Errors.badRepository();
  return r;
}

/** `machine` beside `project`: a machine label; null when absent, 400 when it is no label (an unknown one is the route's 400). */
export function parseMachineParam(q: Query): string | null {
  const m = one(q, 'machine');
  if (m === undefined || m === '') return null;
  if (!MACHINE_RE.test(m)) throw Errors.badMachine();
  return m;
}

export function isProjectName(s: string): boolean {
  return PROJECT_RE.test(s);
}

/** Cache-key part of a range: stable for 24h (a rolling window) within the cache lifetime. */
export function rangeKey(r: RangeInfo): string {
  return r.kind === '24h' ? '24h' : `${r.kind}:${r.from}:${r.to}`;
}
