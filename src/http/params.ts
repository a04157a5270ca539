// Query parameters of the data routes -> a resolved RangeInfo and project (spec "Query parameters").
// The range's syntax and calendar are src/calendar's, in the process TZ. Bad input throws an HttpError with status 400.
import type { RangeInfo } from '../shared/api-types.ts';
import { Errors } from './errors.ts';
import { MACHINE_RE } from '../shared/machine-label.ts';
import { PROJECT_RE } from '../shared/project-name.ts';
import { rangeFromQuery, RangeSyntaxError, type RangeSel } from '../calendar/range.ts';
import { resolveRange } from '../calendar/resolve.ts';
import { systemZone } from '../calendar/zone.ts';

export type Query = Record<string, string | string[] | undefined>;

/** The first value of a (possibly repeated) query parameter. */
function one(q: Query, name: string): string | undefined {
  const v = q[name];
  return Array.isArray(v) ? v[0] : v;
}

export type RangeDefault = 'days30' | 'all';

const DEFAULTS: Record<RangeDefault, RangeSel> = { days30: { kind: 'days', days: 30 }, all: { kind: 'all' } };

/**
 * Resolves `range` / `from` + `to` at instant `now`. `from`/`to` win over `range`; with neither,
 * `fallback` decides: 30 days (overview, insights) or all time (the other routes).
 */
export function parseRange(q: Query, fallback: RangeDefault, now: number): RangeInfo {
  let sel: RangeSel | null;
  try {
    sel = rangeFromQuery({ range: one(q, 'range'), from: one(q, 'from'), to: one(q, 'to') });
  } catch (err) {
    if (err instanceof RangeSyntaxError) throw Errors.badRange();
    throw err;
  }
  return resolveRange(sel ?? DEFAULTS[fallback], now, systemZone);
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


/** Cache-key part of a range: stable for 24h (a rolling window) within the cache lifetime. */
export function rangeKey(r: RangeInfo): string {
  return r.kind === '24h' ? '24h' : `${r.kind}:${r.from}:${r.to}`;
}
