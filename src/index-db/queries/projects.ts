// GET /api/projects: projects with usage in the range, most expensive first.
import type { ProjectRow } from '../../shared/api-types.ts';
import { projectRows } from './fold.ts';
import type { Reader } from './reader.ts';
import { sliceOf } from './slice.ts';
import { resolveScope } from './scope.ts';
import type { SpannedScope } from './spans.ts';

/** `machine`: this machine's name, for the unlabelled dirs. */
export function projects(reader: Reader, scope: SpannedScope, machine: string): ProjectRow[] {
  const projects = reader.projects();
  const pid = resolveScope(projects, scope);
  if (pid === undefined) return [];
  const slice = sliceOf(reader, scope.span, scope.range.bucket, scope.zone, pid);
  return projectRows(slice.groups, reader.sessionCounts(slice.span, pid), projects, reader.models(), machine);
}
