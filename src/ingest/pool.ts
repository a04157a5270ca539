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
  /**
   * Starts every worker now instead of at the first tasks (pipeline.ts prepareFirstScan): each one's start (its
   * modules, its parser not yet optimised) overlaps the listing and the index's creation, not the first reads.
   */
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
  /** Node flags of the workers, by default the process's own (under tsx, its loader, which slows every worker's start). */
  execArgv?: string[];
  log?: Log;
  /** How long an idle worker lives (default 30 s). */
  idleMs?: number;
}

/**
 * Resident memory one more parse worker adds to the server while it builds an index, as measured with 2, 4 and 8
 * workers (bench/RESULTS.md).
 */
const WORKER_MB = 25;
/**
 * A pathological transcript must not take the server down: past its old generation the task fails and the file is
 * counted unreadable. The young generation is capped: without the cap the workers of a big cold index held
 * markedly more resident memory at its end. A worker parses line after line and keeps little, so the smaller young
 * generation costs no measurable CPU.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 16 } as const;
/** What the workers together may hold, so that with the rest of the server a cold index stays within its memory bound. */
const WORKERS_BUDGET_MB = 100;
/**
 * The rest grows with the history (the writer's key index, its id maps), so past BUDGET_FULL_GIB to read each GiB
 * takes BUDGET_MB_PER_GIB off the workers' budget: a 10 GiB history gets fewer workers, which keeps a cold index
 * under issue 17's memory bound even on a machine with many cores.
 */
const BUDGET_FULL_GIB = 2;
const BUDGET_MB_PER_GIB = 5;

/**
 * Below this much to read, the main thread (which writes what the workers parse) keeps a core of its own. Each worker
 * has a fixed cost, its start and V8 optimising its parser, whatever it reads; on two cores a small cold index was
 * faster and smaller with one worker than with two, they were even at this size, and above it two were faster.
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
  // Made at the first task: a restart with nothing new to read starts no worker (WORKER_MB each), and the first
  // answers after it do not share the CPU with workers starting.
  let pool: Piscina | null = null;
  const start = (minThreads = 1): Piscina => {
    if (pool) return pool;
    pool = new Piscina({
      filename: opts.worker ?? workerUrl(),
      ...(opts.execArgv ? { execArgv: opts.execArgv } : {}),
      minThreads,
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
  return { threads, parse, warm: () => void start(threads), release, close };
}
