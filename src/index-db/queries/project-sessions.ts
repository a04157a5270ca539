// GET /api/projects/:path/sessions: one project's totals, series, models and its sessions in the range.
import type Database from 'better-sqlite3';
import type { SessionRow } from '../../shared/api-types.ts';
import type { ProjectSessionsData } from '../types.ts';
import { costByModel, costSeries, seriesStart, totalsOf } from './fold.ts';
import type { Reader } from './reader.ts';
import { sliceOf } from './slice.ts';
import { createBranches } from './branches.ts';
import { createSessionRows } from './session-rows.ts';
import type { SpannedScope } from './spans.ts';

export function createProjectSessions(db: Database.Database, reader: Reader) {
  const branchesOf = createBranches(db);
  const sessionRows = createSessionRows(db, reader);

  return function projectSessions(project: string, scope: SpannedScope): ProjectSessionsData | null {
    // One folder name is one project, however many machines hold it (a row per machine, summed here).
    const all = reader.projects();
    const pids = [...all].filter(([, p]) => p.id === project).map(([id]) => id);
    if (!pids.length) return null;
    const { range } = scope;
    const info = all.get(pids[0]!)!;
    const models = reader.models();
    const slice = sliceOf(reader, scope.span, range.bucket, scope.zone, pids);
    const branches = branchesOf(pids, slice.hours.from, slice.hours.to);
    const sessions: SessionRow[] = sessionRows(pids, slice.hours)
      .map(({ folder: _folder, session, ...row }) => ({ ...row, branches: branches.bySession.get(session) ?? [] }))
      .sort((a, b) => b.lastActivity.localeCompare(a.lastActivity));

    return {
      project: { id: info.id, name: info.name, repository: info.repository },
      totals: totalsOf(slice.modelGroups),
      costSeries: costSeries(slice, scope, seriesStart(scope, reader.firstHour(pids)), models),
      costByModel: costByModel(slice.modelGroups, models),
      sessions,
      branches: branches.branches,
    };
  };
}
