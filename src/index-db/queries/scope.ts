// A query's scope as the set of project folders it reads: one folder (`project=`), a repository's folders
// (`repository=`), or both at once (their intersection). Every ranged read takes this one notion.
import type { ProjectInfo } from './reader.ts';

/** null: every folder; else a non-empty list of project ids. */
export type ProjectSet = readonly number[] | null;

/** What a route asks for: an encoded folder name and/or a repository's main checkout path. */
export interface ScopeAsk {
  project: string | null;
  repository?: string | null;
}

/** The folders of `ask`; undefined when none matches (an unknown folder or repository, or an empty intersection). */
export function resolveScope(projects: Map<number, ProjectInfo>, ask: ScopeAsk): ProjectSet | undefined {
  const repository = ask.repository ?? null;
  if (ask.project === null && repository === null) return null;
  const ids: number[] = [];
  for (const [id, p] of projects) {
    if ((ask.project === null || p.id === ask.project) && (repository === null || p.repository.id === repository)) ids.push(id);
  }
  return ids.length ? ids : undefined;
}
