// The one Piscina pool. Workers only parse; the main thread owns SQLite.
import os from 'node:os';
import { Piscina } from 'piscina';
import type { ParseTask, UsageBatch } from '../workers/protocol.ts';
import type { Log } from './log.ts';

export interface ParsePool {
  parse(task: ParseTask): Promise<UsageBatch>;
  readonly threads: number;
  close(): Promise<void>;
}

/** The worker threads' pool. */
export interface WorkerPool extends ParsePool {
  /** Starts the first worker now instead of at the first task (pipeline.ts prepareFirstScan). */
  warm(): void;
  /** Ends the workers now when no task is pending (the next task starts them again); otherwise a no-op. */
  release(): Promise<void>;
}

/** The built server runs dist/parse-worker.js; under tsx (tests, bench) the .ts source runs directly. */
function workerUrl(): string {
  const here = import.meta.url;
  return here.endsWith('.ts')
    ? new URL('../workers/parse-transcript.ts', here).href
    : new URL('./parse-worker.js', here).href;
}

export interface PoolOptions {
  threads?: number;
  /** The bytes the first tasks will read (a start-up scan, a catch-up), when known: sizes the pool (poolThreads). */
  workBytes?: number;
  /** A worker file URL other than the default (the bench runs the built worker from its .ts code). */
  worker?: string;
  /** Node flags of the workers, by default the process's own (under tsx, its loader: ~0.1 s per worker start). */
  execArgv?: string[];
  log?: Log;
  /** How long an idle worker lives (default 30 s). */
  idleMs?: number;
}

/**
 * Resident memory one more parse worker adds to the server while it builds a 1 GiB index: 21-26 MB measured (peak
 * RSS with 2, 4 and 8 workers: 227, 280 and 365 MB, before the young generation's cap: at 1 GiB the peak did not move
 * with it, 233 against 237 MB).
 */
const WORKER_MB = 25;
/**
 * A pathological transcript must not take the server down: past its old generation the task fails and the file is
 * counted unreadable. The young generation is capped at 16 MB: at the end of a cold 10 GiB index the two workers
 * held 98-99 MB of resident memory without the cap (what their end released, three runs), 65-67 MB with it (two
 * runs). A worker parses line after line and keeps little, so the smaller young generation cost no measurable CPU (a
 * cold 1 GiB index: the workers' CPU 3.56 s with it, 3.64 s without, medians of 3 interleaved runs).
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 16 } as const;
/** What the workers together may hold: beside the ~180 MB of the rest, a cold index of 1 GiB stays under 300 MB. */
const WORKERS_BUDGET_MB = 100;
/**
 * The rest grows with the history (the writer's key index, ~4.6 MB per GiB, its id maps), so past 2 GiB to read each
 * GiB takes 5 MB off the workers' budget: 2 workers at 10 GiB, where a cold index (pool sized as on 16 cores, one
 * run each) peaked at 433 MB with 4 and 349 MB with 2, against issue 17's 400 MB.
 */
const BUDGET_FULL_GIB = 2;
const BUDGET_MB_PER_GIB = 5;

/**
 * Below this much to read, the main thread (which writes what the workers parse) keeps a core of its own. Each worker
 * costs ~55 ms to start and ~0.1 s of CPU for V8 to optimise its parser, whatever it reads; on two cores a 100 MiB
 * cold index with one worker instead of two took 629 against 673 ms, 0.87 against 1.04 s of CPU and 121 against
 * 132 MB (medians of 8 interleaved runs); at 256 MiB one and two were even, at 1 GiB two were 0.27 s faster.
 */
const ALL_CORES_BYTES = 256 * 1048576;

/**
 * One worker per core but the writer's (every core once there is enough to read, `workBytes`; unknown counts as
 * enough), as many as the memory allows: at most WORKERS_BUDGET_MB in all, less for a big history, and at most a
 * quarter of the memory free now (a small machine under pressure gets fewer, never none).
 */
export function poolThreads(cores: number, freeBytes: number, workBytes?: number): number {
  const gib = (workBytes ?? 0) / 1024 ** 3;
  const budgetMb = Math.min(WORKERS_BUDGET_MB - BUDGET_MB_PER_GIB * Math.max(0, gib - BUDGET_FULL_GIB), freeBytes / 1048576 / 4);
  const byCores = workBytes === undefined || workBytes >= ALL_CORES_BYTES ? cores : cores - 1;
  return Math.max(1, Math.min(byCores, Math.floor(budgetMb / WORKER_MB)));
}

export function createPool(opts: PoolOptions = {}): WorkerPool {
  // Every core but the writer's, every core for a big first index (poolThreads), bounded by memory; idle threads
  // leave after 30 s, the last one too (see release), so a background dashboard holds none.
  const threads = opts.threads ?? poolThreads(os.availableParallelism(), os.freemem(), opts.workBytes);
  // A worker that cannot start (a broken install) rejects the tasks it took, and Piscina then starts no other
  // one: tasks still queued would wait forever, and the 'error' it emits when no task is there to reject would
  // end the process. Such a rejection leaves the pool without threads (a worker that died mid-task, e.g. out of
  // memory, is replaced before its task is rejected), so then every pending and later task fails with the
  // cause, and the server keeps serving the index it has.
  let broken: Error | null = null;
  const pending = new Set<(err: Error) => void>();
  const fail = (err: Error): void => {
    if (broken) return;
    broken = new Error(`parse worker failed: ${err.message}`);
    opts.log?.(`${broken.message}; transcripts cannot be read until the server is restarted`);
    for (const reject of pending) reject(broken);
    pending.clear();
  };
  // Made at the first task: a restart with nothing new to read starts no worker (~25 MB each), and the first
  // answers after it do not share the CPU with workers starting.
  let pool: Piscina | null = null;
  const start = (): Piscina => {
    if (pool) return pool;
    pool = new Piscina({
      filename: opts.worker ?? workerUrl(),
      ...(opts.execArgv ? { execArgv: opts.execArgv } : {}),
      minThreads: 1,
      maxThreads: threads,
      idleTimeout: idleMs,
      // Queued on the worker itself, a next task starts the moment one ends, not when the main thread (busy
      // writing the last batch) gets round to dispatching it: ~7% off a cold index on two cores.
      concurrentTasksPerWorker: 3,
      resourceLimits: WORKER_LIMITS,
    });
    pool.on('error', fail);
    return pool;
  };
  const idleMs = opts.idleMs ?? 30_000;
  // Piscina keeps its minimum thread (which the failure check above relies on): the last worker goes with the pool,
  // once no task has been pending for idleMs.
  let idleTimer: NodeJS.Timeout | undefined;
  const parse = (task: ParseTask): Promise<UsageBatch> => {
    if (broken) return Promise.reject(broken);
    clearTimeout(idleTimer);
    return new Promise<UsageBatch>((resolve, reject) => {
      pending.add(reject);
      // Done before the caller hears of it, so a release() right after the last result ends the workers.
      const settled = (): void => {
        pending.delete(reject);
        if (!pending.size) idleTimer = setTimeout(() => void release(), idleMs).unref();
      };
      const own = start();
      (own.run(task) as Promise<UsageBatch>).then(
        (batch) => {
          settled();
          resolve(batch);
        },
        (err: Error) => {
          settled();
          reject(err);
          if (own.threads.length === 0) fail(err);
        },
      );
    });
  };
  const release = async (): Promise<void> => {
    if (!pool || pending.size) return;
    const own = pool;
    pool = null;
    await own.destroy();
  };
  const close = async (): Promise<void> => {
    clearTimeout(idleTimer);
    await pool?.destroy();
  };
  return { threads, parse, warm: () => void start(), release, close };
}
