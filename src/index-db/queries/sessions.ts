// GET /api/sessions: the range's sessions across the projects in scope, the dearest first, so the expensive one is
// found in one step. Sessions that are only Claude Code's Warmup side calls are folded into one count.
import type Database from 'better-sqlite3';
import type { SessionListRow } from '../../shared/api-types.ts';
import type { SessionListData } from '../types.ts';
import type { Reader } from './reader.ts';
import { resolveScope } from './scope.ts';
import { sliceOf } from './slice.ts';
import { createSessionBranches } from './branches.ts';
import { createSessionRows } from './session-rows.ts';
import type { SpannedScope } from './spans.ts';

/** The most sessions one answer lists: the dearest of a long history are what the view is for. */
export const SESSION_LIST_LIMIT = 300;

export function createSessions(db: Database.Database, reader: Reader) {
  const branchesOf = createSessionBranches(db);
  const sessionRows = createSessionRows(db, reader);

  /** `machine`: this machine's name, for the unlabelled dirs. */
  return function sessions(scope: SpannedScope, machine: string): SessionListData {
    const all = reader.projects();
    const set = resolveScope(all, scope);
    const none: SessionListData = { sessions: [], limit: SESSION_LIST_LIMIT, total: 0, warmup: { sessions: 0, cost: 0 } };
    if (set === undefined) return none;
    const pids = set ? [...set] : [...all.keys()];
    if (!pids.length) return none;
    const { hours } = sliceOf(reader, scope.span, scope.range.bucket, scope.zone, pids);
    const rows = sessionRows(pids, hours);
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
    return { sessions: shown.map((s) => s.row), limit: SESSION_LIST_LIMIT, total: listed.length, warmup };
  };
}
