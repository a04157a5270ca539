// GET /api/repository?id=: one repository's project folders (its main checkout and its worktrees) in the range,
// summed, with the branches of all of them.
import type Database from 'better-sqlite3';
import type { RepositoryData } from '../types.ts';
import { createBranches } from './branches.ts';
import { addTotals, costByModel, costSeries, emptyTotals, seriesStart } from './fold.ts';
import { sliceOf } from './slice.ts';
import { projects } from './projects.ts';
import type { Reader } from './reader.ts';
import type { SpannedScope } from './spans.ts';

export function createRepository(db: Database.Database, reader: Reader) {
  const branchesOf = createBranches(db);
  /** `machine`: this machine's name, for the unlabelled dirs. */
  return function repository(id: string, scope: SpannedScope, machine: string): RepositoryData | null {
    const folders = [...reader.projects()].filter(([, p]) => p.repository.id === id);
    if (!folders.length) return null;
    const rows = projects(reader, { ...scope, project: null, repository: id }, machine);
    const totals = { ...emptyTotals(), sessions: 0 };
    const branches = branchesOf(folders.map(([pid]) => pid), scope.span.utcHours.from, scope.span.utcHours.to).branches;
    for (const b of branches) addTotals(totals, b);
    // A session belongs to one folder, so the folders' counts add up.
    for (const p of rows) totals.sessions += p.sessions;
    // The project view's chart and model split, over all the folders.
    const pids = folders.map(([pid]) => pid);
    const slice = sliceOf(reader, scope.span, scope.range.bucket, scope.zone, pids);
    const models = reader.models();
    return {
      repository: folders[0]![1].repository, totals, projects: rows, branches,
      costSeries: costSeries(slice, scope, seriesStart(scope, reader.firstHour(pids)), models), costByModel: costByModel(slice.modelGroups, models),
    };
  };
}
