// Folders of transcripts indexed through the real pipeline (the worker pool, ingest, the writer): the "open the index,
// price it, start the pipeline, wait until it is idle" steps the pipeline-level suites share, with the pipeline kept
// running (startIndexing: the watcher live, for suites that change files) or closed (indexDir).
import fs from 'node:fs';
import { openIndex } from '../../src/index-db/index.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import type { CostMode } from '../../src/pricing/types.ts';
import type { IndexDb } from '../../src/index-db/types.ts';
import { startPipeline, type Pipeline } from '../../src/ingest/pipeline.ts';
import { PRICES_FILE } from './paths.ts';

const catalogue = JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as unknown;

export interface IndexingOptions {
  /** Index file; default in memory. */
  file?: string;
  /** The fixture catalogue (default) or the built-in table; `table` wins over both. */
  prices?: 'fixture' | 'builtin';
  table?: PriceTable;
  /** 'calculate' prices every line from its tokens (as ccusage --mode calculate); default 'auto'. */
  mode?: CostMode;
  /** The machine label of each projects dir. */
  machines?: readonly (string | null)[];
  /** Parse worker threads; default 1 (a suite's transcripts are small). */
  threads?: number;
  recheckMs?: number;
  /** The index's and the pipeline's log lines; default dropped. */
  log?: (msg: string) => void;
  /** Row ids per chunk of a reprice (default the writer's). */
  repriceChunkRows?: number;
  /** What the pipeline is given instead of the opened index (a test's spy around it). */
  wrap?: (index: IndexDb) => IndexDb;
}

export interface Indexing {
  index: IndexDb;
  pipeline: Pipeline;
  /** Closes the pipeline, then the index. */
  stop(): Promise<void>;
}

async function start(projects: string | readonly string[], opts: IndexingOptions): Promise<Indexing> {
  const log = opts.log ?? (() => undefined);
  const opened = openIndex(opts.file ?? ':memory:', { log, ...(opts.repriceChunkRows ? { repriceChunkRows: opts.repriceChunkRows } : {}) });
  const mode = opts.mode ?? 'auto';
  opened.setPrices(opts.table ?? (opts.prices === 'builtin' ? PriceTable.builtin(mode) : PriceTable.fromCatalogue(catalogue, 'fixture', mode)));
  const index = opts.wrap?.(opened) ?? opened;
  const pipeline = await startPipeline({
    projectsDirs: typeof projects === 'string' ? [projects] : projects,
    machines: opts.machines,
    index,
    log,
    threads: opts.threads ?? 1,
    recheckMs: opts.recheckMs,
  });
  await pipeline.ingest.idle();
  return {
    index,
    pipeline,
    async stop() {
      await pipeline.close();
      index.close();
    },
  };
}

/** Indexes the folders, then leaves the pipeline running with its watcher live (15 s at most) and ingest idle. */
export async function startIndexing(projects: string | readonly string[], opts: IndexingOptions = {}): Promise<Indexing> {
  const running = await start(projects, opts);
  // bounded: a watcher that walks a link loop never gets ready
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the watcher was not ready in 15 s')), 15_000)));
  try {
    await Promise.race([running.pipeline.watching, late]);
  } catch (err) {
    await running.stop();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  await running.pipeline.ingest.idle();
  return running;
}

/** Indexes the folders once, closes the pipeline and returns the index. */
export async function indexDir(projects: string | readonly string[], opts: IndexingOptions = {}): Promise<IndexDb> {
  const { index, pipeline } = await start(projects, opts);
  await pipeline.close();
  return index;
}
