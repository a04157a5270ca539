// A folder of transcripts indexed once through the real pipeline (the worker pool, ingest, the writer), then the
// pipeline closed: the "open, price, scan, idle, close" steps the pipeline-level suites share.
import fs from 'node:fs';
import { openIndex } from '../../src/index-db/index.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import type { IndexDb } from '../../src/index-db/types.ts';
import { startPipeline } from '../../src/main/pipeline.ts';

const catalogue = JSON.parse(fs.readFileSync(new URL('../../../shared/fixtures/prices/catalogue.json', import.meta.url), 'utf8')) as unknown;

export interface IndexDirOptions {
  /** Index file; default in memory. */
  file?: string;
  /** 'calculate' prices every line from its tokens (as ccusage --mode calculate). */
  mode?: 'auto' | 'calculate';
}

export async function indexDir(projects: string, opts: IndexDirOptions = {}): Promise<IndexDb> {
  const index = openIndex(opts.file ?? ':memory:', { log: () => undefined });
  index.setPrices(PriceTable.fromCatalogue(catalogue, 'fixture', opts.mode ?? 'auto'));
  const pipeline = await startPipeline({ projectsDirs: [projects], index, log: () => undefined, threads: 1 });
  await pipeline.ingest.idle();
  await pipeline.close();
  return index;
}
