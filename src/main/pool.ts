// The one Piscina pool. Workers only parse; the main thread owns SQLite.
import os from 'node:os';
import { Piscina } from 'piscina';
import type { ParseTask, UsageBatch } from '../workers/protocol.ts';

export interface ParsePool {
  parse(task: ParseTask): Promise<UsageBatch>;
  readonly threads: number;
  close(): Promise<void>;
}

/** The built server runs dist/parse-worker.js; under tsx (tests, bench) the .ts source runs directly. */
function workerUrl(): string {
  const here = import.meta.url;
  return here.endsWith('.ts')
    ? new URL('../workers/parse-transcript.ts', here).href
    : new URL('./parse-worker.js', here).href;
}

export function createPool(opts: { threads?: number } = {}): ParsePool {
  // All cores while the first index is built (the main thread mostly waits on workers then);
  // idle threads leave after 30 s so a background dashboard holds none.
  const threads = opts.threads ?? Math.max(1, Math.min(4, os.availableParallelism()));
  const pool = new Piscina({
    filename: workerUrl(),
    minThreads: 1,
    maxThreads: threads,
    idleTimeout: 30_000,
    // Queued on the worker itself, a next task starts the moment one ends, not when the main thread (busy
    // writing the last batch) gets round to dispatching it: ~7% off a cold index on two cores.
    concurrentTasksPerWorker: 3,
    // A pathological transcript must not take the server down: the task fails, the file is counted unreadable.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  return {
    threads,
    parse: (task) => pool.run(task) as Promise<UsageBatch>,
    close: () => pool.destroy(),
  };
}
