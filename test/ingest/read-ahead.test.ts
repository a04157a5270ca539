// A first index reads ahead of its listing (pipeline.ts prepareFirstScan): its worker starts before the listing ends,
// the last week's main transcripts are read while the walk still lists their subagents, nothing is final meanwhile (not in the
// API, which has no pipeline yet, nor for the statusline, which reads the index file), and the finished index holds
// what an index read after the whole listing holds. The walk's last level is held back by the test until it lets it go.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { openStatusReader } from '../../src/index-db/status-reader.ts';
import type { QueryScope } from '../../src/index-db/types.ts';
import { listTranscripts, readFolders, type FolderSource } from '../../src/ingest/discovery.ts';
import { prepareFirstScan, startPipeline } from '../../src/ingest/pipeline.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { PRICES_FILE, SHARED } from '../helpers/paths.ts';
import { indexDir } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';

const test = suite('read ahead');

const allTime: QueryScope = {
  range: { from: '1970-01-01', to: '2100-01-01', fromMs: 0, toMs: Date.UTC(2100, 0, 1), bucket: 'day', kind: 'all', days: null },
  project: null,
  now: Date.now(),
};

/** The threads of this process (Linux): the pool's workers among them. */
const threadsNow = (): number => fs.readdirSync('/proc/self/task').length;
const SUBAGENTS = `${path.sep}subagents${path.sep}`;

test('a worker starts and main transcripts are read while the listing runs; nothing is final until it ends; same index', async () => {
  const { dir, cleanup } = tempDir('cost-read-ahead-');
  const corpus = path.join(dir, 'corpus');
  const end = new Date(Date.now() - 3_600_000).toISOString();
  execFileSync(process.execPath, [path.join(SHARED, 'tools/gen-corpus.mjs'), '--out', corpus, '--mb', '6', '--days', '20', '--seed', '5', '--projects', '2', '--end', end], { stdio: 'ignore' });
  const projects = path.join(corpus, 'projects');
  const all = await listTranscripts([projects]);
  const subagents = all.filter((f) => f.path.includes(SUBAGENTS));
  assert.ok(subagents.length > 0 && subagents.length < all.length, 'the premise: sessions with subagents');
  const weekAgo = Date.now() - 8 * 86_400_000;
  assert.ok(all.some((f) => f.mtimeMs < weekAgo && !f.path.includes(SUBAGENTS)), 'the premise: main transcripts older than the week read ahead');

  // The third level (the sessions' folders, where the subagents' are) waits for the test.
  let letGo!: () => void;
  const gate = new Promise<void>((resolve) => (letGo = resolve));
  let levels = 0;
  let listed = false;
  const folders: FolderSource = async (dirs, unreadable) => {
    if (++levels === 3) await gate;
    return readFolders(dirs, unreadable);
  };
  const file = path.join(dir, 'index.db');
  const before = threadsNow();
  const prepared = await prepareFirstScan(file, [projects], () => undefined, folders);
  assert.ok(prepared, 'no index file: a first index');
  void prepared.listed.then(() => (listed = true));
  const index = openIndex(file, { log: () => undefined });
  index.setPrices(PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')), 'fixture', 'auto'));
  const starting = startPipeline({ projectsDirs: [projects], index, log: () => undefined, recheckMs: 600_000, prepared: Promise.resolve(prepared) });
  const status = openStatusReader(file);
  try {
    await waitFor(() => levels === 3, 'the walk at its held level', 10_000);
    await waitFor(() => threadsNow() > before, 'a worker started before the listing ends', 10_000);
    const read = (): string[] => all.filter((f) => index.cursorOf(f.path)?.size === f.size).map((f) => f.path);
    // Seen by another connection (the statusline's): committed, with what the scan stored of finalSince.
    await waitFor(() => read().some((p) => status.fileState(p) !== null), 'a main transcript read and committed while the listing is held', 20_000);
    assert.is(listed, false, 'the listing is still held');
    assert.ok(read().every((p) => !p.includes(SUBAGENTS)), 'only what the listing found: main transcripts');
    const old = new Set(all.filter((f) => f.mtimeMs < weekAgo).map((f) => f.path));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(read().every((p) => !old.has(p)), 'none older than the week (8 days) before the listing is done');
    assert.is(status.status(null, Date.now()).todayFinal, false, 'the statusline takes nothing for final');

    letGo();
    const pipeline = await starting;
    try {
      await pipeline.ingest.idle();
      const progress = pipeline.ingest.progress();
      assert.is(progress.done, true);
      assert.is(progress.filesDone, all.length, 'each file counted once');
      assert.is(progress.bytesTotal, all.reduce((n, f) => n + f.size, 0));
      assert.is(read().length, all.length);
      const plain = await indexDir(projects);
      try {
        // Costs to the micro-dollar: the rows are the same, but added up in the order they were written.
        const figures = (i: Pick<typeof index, 'queries'>): unknown => {
          const o = i.queries.overview(allTime);
          return JSON.parse(JSON.stringify({ totals: o.totals, costByModel: o.costByModel }), (_, v: unknown) => (typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v));
        };
        assert.equal(figures(index), figures(plain), 'the same figures as an index read after the whole listing');
      } finally {
        plain.close();
      }
    } finally {
      await pipeline.close();
    }
  } finally {
    letGo();
    status.close();
    index.close();
    cleanup();
  }
});

test.run();
