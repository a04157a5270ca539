// GET /api/projects: projects with usage in the range, most expensive first.
import type { ProjectRow } from '../../http/api-types.ts';
import type { QueryScope } from '../types.ts';
import { projectRows } from './fold.ts';
import type { Reader } from './reader.ts';
import { sliceOf } from './slice.ts';
import { resolveScope } from './scope.ts';

/** `machine`: this machine's name, for the unlabelled dirs. */
export function projects(reader: Reader, syncTimeZone: () => void, scope: QueryScope, machine: string): ProjectRow[] {
  const projects = reader.projects();
  const pid = resolveScope(projects, scope);
  if (pid === undefined) return [];
  const slice = sliceOf(reader, scope.range, pid, syncTimeZone);
  return projectRows(slice.groups, reader.sessionCounts(slice.hours, pid), projects, reader.models(), machine);
}
