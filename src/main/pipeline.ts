// The ingestion side of the server: pool -> ingest -> start-up scan + watcher, over one index.
// main/index.ts starts it after the server listens; tests and the bench start it on their own.
import type { IndexDb } from '../index-db/types.ts';
import { fileRoles, listTranscripts } from './discovery.ts';
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
  const roles = fileRoles(projectsDirs);
  const ingest = createIngest({ index, pool, roleOf: roles.of, log });
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
          roles.forget(p);
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
