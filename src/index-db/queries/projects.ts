// GET /api/projects: projects with usage in the range, most expensive first.
import type { ProjectRow } from '../../http/api-types.ts';
import type { QueryScope } from '../types.ts';
import { projectRows } from './fold.ts';
import type { Reader } from './reader.ts';
import { sliceOf } from './slice.ts';
import { hourBounds } from '../time.ts';

export function projects(reader: Reader, syncTimeZone: () => void, scope: QueryScope): ProjectRow[] {
  const pid = reader.projectId(scope.project);
  if (pid === undefined) return [];
  const [h0, h1] = hourBounds(scope.range.fromMs, scope.range.toMs);
  return projectRows(sliceOf(reader, scope.range, pid, syncTimeZone).groups, reader.sessionCounts(h0, h1, pid), reader.projects(), reader.models());
}
