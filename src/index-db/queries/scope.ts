// A query's scope as the set of project folders it reads: one folder (`project=`), a repository's folders
// (`repository=`), a machine's folders (`machine=`), or several at once (their intersection). A folder is stored once
// per machine, so one folder name may be several ids. Every ranged read takes this one notion.

/** null: every folder; else a non-empty list of project ids. */
export type ProjectSet = readonly number[] | null;

/** What a folder is matched on (reader.ts's ProjectInfo, which imports ProjectSet from here). */
export interface ScopedFolder {
  id: string;
  repository: { id: string };
  machine: string | null;
}

/** What a route asks for: an encoded folder name and/or a repository's main checkout path. */
export interface ScopeAsk {
  project: string | null;
  repository?: string | null;
  /** Absent: every machine; null: this machine's unlabelled dirs; else a --dir label. */
  machine?: string | null;
}

/** The folders of `ask`; undefined when none matches (an unknown folder or repository, or an empty intersection). */
export function resolveScope(projects: ReadonlyMap<number, ScopedFolder>, ask: ScopeAsk): ProjectSet | undefined {
  const repository = ask.repository ?? null;
  const machine = ask.machine;
  if (ask.project === null && repository === null && machine === undefined) return null;
  const ids: number[] = [];
  for (const [id, p] of projects) {
    if ((ask.project === null || p.id === ask.project) && (repository === null || p.repository.id === repository)
      && (machine === undefined || p.machine === machine)) ids.push(id);
  }
  return ids.length ? ids : undefined;
}
