// GET /api/repository?id=: one repository's project folders (its main checkout and its worktrees) in the range,
// summed, with the branches of all of them.
import type Database from 'better-sqlite3';
import type { RepositoryDetail } from '../../http/api-types.ts';
import type { QueryScope } from '../types.ts';
import { createBranches } from './branches.ts';
import { addTotals, emptyTotals } from './fold.ts';
import { projects } from './projects.ts';
import type { Reader } from './reader.ts';
import { hourBounds } from '../time.ts';

export function createRepository(db: Database.Database, reader: Reader, syncTimeZone: () => void) {
  const branchesOf = createBranches(db);
  /** `machine`: this machine's name, for the unlabelled dirs. */
  return function repository(id: string, scope: QueryScope, machine: string): RepositoryDetail | null {
    const folders = [...reader.projects()].filter(([, p]) => p.repository.id === id);
    if (!folders.length) return null;
    const rows = projects(reader, syncTimeZone, { ...scope, project: null, repository: id }, machine);
    const totals = { ...emptyTotals(), sessions: 0 };
    const [h0, h1] = hourBounds(scope.range.fromMs, scope.range.toMs);
    const branches = branchesOf(folders.map(([pid]) => pid), h0, h1).branches;
    for (const b of branches) addTotals(totals, b);
    // A session belongs to one folder, so the folders' counts add up.
    for (const p of rows) totals.sessions += p.sessions;
    return { range: scope.range, repository: folders[0]![1].repository, totals, projects: rows, branches };
  };
}
