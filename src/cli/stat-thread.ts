// A report's check stats ~14,000 transcripts at 10 GiB (~60-80 ms of one thread on Node 20, which builds a Stats
// object and four Dates for each). Those stats go to a worker thread of their own, so the main thread reads the
// cursors and the report meanwhile; the thread starts before the walk lists the folders, so its start (~20 ms)
// is spent while the main thread lists them. Stats do not go faster split between threads or over libuv's pool
// (measured: they queue on the same kernel paths), so the walk hands the whole batch to this one thread.
import { Worker } from 'node:worker_threads';
import { statFiles, type FoundFile, type StatSource } from '../main/discovery.ts';
import type { StatAnswer } from './stat-worker.ts';

const here = import.meta.url;
/** Run from source (tsx, tests) the worker is the .ts file; built, the bundle beside this one (build.mjs). */
const WORKER = new URL(here.endsWith('.ts') ? './stat-worker.ts' : './stat-worker.cjs', here);

export interface StatThread {
  /** The walk's StatSource: the thread's answers (this thread's own stats if it failed). */
  stats: StatSource;
  /** Settles once the walk has handed its transcripts to the thread. */
  handedOver: Promise<void>;
}

/** `workerFile`: the thread's script (tests give one that fails to start). */
export function startStatThread(workerFile: URL = WORKER): StatThread {
  const worker = new Worker(workerFile);
  // Until the walk hands it work, the thread must not keep the process alive (a walk that fails never does).
  worker.unref();
  let failed = false;
  worker.on('error', () => {
    failed = true;
  });
  let handOver!: () => void;
  const handedOver = new Promise<void>((resolve) => (handOver = resolve));
  const stats: StatSource = async (paths) => {
    const answer = new Promise<StatAnswer | null>((resolve) => {
      worker.once('message', resolve);
      worker.once('exit', () => resolve(null));
    });
    if (!failed) {
      worker.ref();
      worker.postMessage(paths.join('\0'));
    }
    handOver();
    const a = failed ? null : await answer;
    if (a === null) return statFiles(paths);
    const out: (FoundFile | null)[] = new Array(paths.length);
    for (let i = 0; i < paths.length; i++) out[i] = a.found[i] ? { path: paths[i]!, size: a.sizes[i]!, mtimeMs: a.mtimes[i]! } : null;
    return out;
  };
  return { stats, handedOver };
}
