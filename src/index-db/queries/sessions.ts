// GET /api/sessions: the range's sessions across the projects in scope, the dearest first, so the expensive one is
// found in one step. Sessions that are only Claude Code's Warmup side calls are folded into one count.
import type Database from 'better-sqlite3';
import type { SessionListRow } from '../../shared/api-types.ts';
import type { SessionListData } from '../types.ts';
import type { Reader } from './reader.ts';
import { resolveScope } from './scope.ts';
import { sliceOf } from './slice.ts';
import { createSessionBranches } from './branches.ts';
import { createSessionCosts, createSessionRows, WARMUP_SQL, type SessionCostsRead } from './session-rows.ts';
import { coversMost, readsAsTotal } from './span-files.ts';
import type { SpannedScope } from './spans.ts';
import type { HourSpan } from '../../calendar/resolve.ts';

/** The most sessions one answer lists: the dearest of a long history are what the view is for. */
export const SESSION_LIST_LIMIT = 300;

/** How far below the last listed session's cost (relative) a session is still read whole: a rounding is ~1e-13. */
const NEAR = 1e-9;

export function createSessions(db: Database.Database, reader: Reader) {
  const branchesOf = createSessionBranches(db);
  const sessionRows = createSessionRows(db, reader);
  const sessionCosts = createSessionCosts(db);
  const warmupSessions = db.prepare(`SELECT s.id FROM sessions s WHERE s.project_id IN (SELECT value FROM json_each(?)) AND ${WARMUP_SQL}`).pluck();

  /**
   * The sessions whose rows an answer needs, or undefined for all of them, and how many it counts (Warmup left out).
   * A long range has thousands of sessions, and a row each cost most of its answer (a year at 10 GiB: ~0.6 s): the
   * listed are the dearest, so only the sessions that SQLite's sums of their costs put near enough the top are read
   * whole, with every Warmup session (their cost is summed as the rows come). SQLite's sum of a session's cost differs
   * from its row's (summed in another order) by a rounding, far below `NEAR`: the dearest by the rows' costs are
   * among those read, and every figure is the one the rows of all sessions gave.
   */
  function needed(pids: readonly number[], hours: HourSpan): { only: number[] | undefined; total: number } | null {
    const history = reader.historyHours(null);
    const read: SessionCostsRead = history === null ? 'part'
      : readsAsTotal(hours.from, hours.to, history.first, history.last) ? 'total'
      : coversMost(hours.from, hours.to, history.first, history.last) ? 'index' : 'part';
    const costs = sessionCosts(pids, hours, read);
    if (!costs.length) return null;
    const warm = new Set(warmupSessions.all(JSON.stringify(pids)) as number[]);
    const listed = costs.filter(([id]) => !warm.has(id));
    if (listed.length <= SESSION_LIST_LIMIT) return { only: undefined, total: listed.length };
    const byCost = listed.map(([, cost]) => cost).sort((a, b) => b - a);
    const last = byCost[SESSION_LIST_LIMIT - 1]!;
    const floor = last - NEAR * Math.max(1, Math.abs(last));
    const only = costs.filter(([id, cost]) => warm.has(id) || cost >= floor).map(([id]) => id);
    return { only, total: listed.length };
  }

  /** `machine`: this machine's name, for the unlabelled dirs. */
  return function sessions(scope: SpannedScope, machine: string): SessionListData {
    const all = reader.projects();
    const set = resolveScope(all, scope);
    const none: SessionListData = { sessions: [], limit: SESSION_LIST_LIMIT, total: 0, warmup: { sessions: 0, cost: 0 } };
    if (set === undefined) return none;
    const pids = set ? [...set] : [...all.keys()];
    if (!pids.length) return none;
    const { hours } = sliceOf(reader, scope.span, scope.range.bucket, scope.zone, pids);
    // A project's (or a repository's, a machine's) folders have few sessions: one read of their rows costs less than two.
    const need = set === null ? needed(pids, hours) : { only: undefined, total: undefined };
    if (!need) return none;
    const rows = sessionRows(pids, hours, need.only);
    const warmup = { sessions: 0, cost: 0 };
    const listed: { row: SessionListRow; session: number }[] = [];
    for (const { folder, session, ...row } of rows) {
      if (row.warmup) {
        warmup.sessions++;
        warmup.cost += row.cost;
        continue;
      }
      const p = all.get(folder)!;
      listed.push({ row: { ...row, project: { id: p.id, name: p.name }, machine: p.machine ?? machine }, session });
    }
    listed.sort((a, b) => b.row.cost - a.row.cost || b.row.lastActivity.localeCompare(a.row.lastActivity));
    // The branches of the sessions shown only: a long range's every message was read for those of every session.
    const shown = listed.slice(0, SESSION_LIST_LIMIT);
    const branches = branchesOf(pids, hours.from, hours.to, shown.map((s) => s.session));
    for (const s of shown) s.row.branches = branches.get(s.session) ?? [];
    return { sessions: shown.map((s) => s.row), limit: SESSION_LIST_LIMIT, total: need.total ?? listed.length, warmup };
  };
}
