// Project folders grouped under their repository (decisions.md "Repository"): a repository with several folders in
// the list becomes one row that sums them, its folders its children; a repository of one folder stays that folder.
import type { ProjectMachine, ProjectRow } from '../../src/shared/api-types.ts';
import { repositoryScope } from './state.ts';

export interface GroupedRow extends ProjectRow {
  /** The repository's folders, on a row that sums several; absent on a folder's own row. */
  folders?: ProjectRow[];
}

/** Row key of a repository row: its scope (folder ids never contain ':'). */
export const repositoryKey = repositoryScope;

export function groupByRepository(rows: readonly ProjectRow[]): GroupedRow[] {
  const by = new Map<string, ProjectRow[]>();
  for (const r of rows) by.set(r.repository.id, [...(by.get(r.repository.id) ?? []), r]);
  return [...by.values()].map((folders): GroupedRow => {
    if (folders.length === 1) return folders[0]!;
    const top = folders.reduce((a, b) => (b.cost > a.cost ? b : a));
    const last = folders.map((f) => f.lastActivity).filter((t): t is string => t !== null).sort().at(-1) ?? null;
    return {
      id: repositoryKey(top.repository.id),
      name: top.repository.name,
      repository: top.repository,
      cost: folders.reduce((a, f) => a + f.cost, 0),
      sessions: folders.reduce((a, f) => a + f.sessions, 0),
      messages: folders.reduce((a, f) => a + f.messages, 0),
      totalTokens: folders.reduce((a, f) => a + f.totalTokens, 0),
      lastActivity: last,
      topModel: top.topModel,
      machines: machinesOf(folders),
      folders,
    };
  });
}

/** The folders' machines merged by name, most expensive first (as each row's own list). */
function machinesOf(folders: readonly ProjectRow[]): ProjectMachine[] {
  const by = new Map<string, number>();
  for (const f of folders) for (const m of f.machines) by.set(m.machine, (by.get(m.machine) ?? 0) + m.cost);
  return [...by].map(([machine, cost]) => ({ machine, cost })).sort((a, b) => b.cost - a.cost || a.machine.localeCompare(b.machine));
}
