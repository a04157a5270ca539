// The ingestion side of the server: pool -> ingest -> start-up scan + watcher, over one index.
// main/index.ts starts it after the server listens; tests and the bench start it on their own.
import type { FileRole, IndexDb } from '../index-db/types.ts';
import { agentMeta, listTranscripts, roleOf } from './discovery.ts';
import { repositoryOf } from './repository.ts';
import { createIngest, type Ingest } from './ingest.ts';
import { createPool } from './pool.ts';
import { watchProjects, type Watcher } from './watcher.ts';
import type { Log } from './log.ts';

export interface Pipeline {
  ingest: Ingest;
  /** Resolves when the watcher is live (after the start-up scan). */
  watching: Promise<void>;
  close(): Promise<void>;
}

export interface PipelineOptions {
  projectsDirs: readonly string[];
  index: IndexDb;
  log: Log;
  threads?: number;
}

export async function startPipeline(opts: PipelineOptions): Promise<Pipeline> {
  const { projectsDirs, index, log } = opts;
  const pool = createPool({ threads: opts.threads, log });
  const roles = new Map<string, FileRole | null>();
  const roleFor = async (file: string): Promise<FileRole | null> => {
    if (roles.has(file)) return roles.get(file)!;
    const dir = projectsDirs.find((d) => roleOf(d, file));
    const base = dir ? roleOf(dir, file) : null;
    const meta = base?.agentId ? agentMeta(file) : { agentType: null, agentDescription: null };
    const role = base ? { ...base, ...meta } : null;
    roles.set(file, role);
    return role;
  };
  // Each project folder's repository, resolved once, when its first cwd is stored (and at start for folders an older
  // version indexed): never per request.
  const resolveRepositories = (): void => {
    for (const { project, cwd } of index.unresolvedRepositories()) index.setRepository(project, repositoryOf(cwd));
  };
  resolveRepositories();
  const ingest = createIngest({ index, pool, roleOf: roleFor, log, newCwd: resolveRepositories });
  ingest.startScan(await listTranscripts(projectsDirs));
  // The watcher starts once the start-up scan is done: its own walk would compete with the first
  // index for the main thread. What changed meanwhile is caught by one more (cursor-checked) pass.
  let watcher: Watcher | null = null;
  let closed = false;
  const watching = ingest.idle().then(async () => {
    if (closed) return;
    watcher = watchProjects(
      projectsDirs,
      {
        changed: (p) => ingest.changed(p),
        removed: (p) => {
          roles.delete(p);
          ingest.removed(p);
        },
      },
      log,
    );
    await watcher.ready;
    for (const f of await listTranscripts(projectsDirs)) ingest.check(f.path);
  });
  return {
    ingest,
    watching,
    async close() {
      closed = true;
      await (watcher as Watcher | null)?.close();
      await ingest.close();
      await pool.close();
    },
  };
}
