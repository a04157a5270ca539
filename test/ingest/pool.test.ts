// The real worker through a real Piscina pool: results arrive as typed arrays (the transfer path), errors as errors.
// createPool (src/ingest/pool.ts) with the built worker, and with a stand-in worker for the ways a worker can fail.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Piscina, transferableSymbol, valueSymbol } from 'piscina';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { prepareFirstScan, startPipeline } from '../../src/ingest/pipeline.ts';
import { createPool, poolThreads } from '../../src/ingest/pool.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import parseTranscript, { readTranscript } from '../../src/workers/parse-transcript.ts';
import { NUM, NUM_COLS, STR_COLS, encodeBatch, hashKey, responseKey, rowsOf } from '../../src/workers/protocol.ts';
import type { ParseTask, UsageBatch } from '../../src/workers/protocol.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { waitFor } from '../helpers/wait.ts';

const FILE = path.resolve(
  import.meta.dirname,
  '../../../shared/fixtures/transcripts/config/projects/sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl',
);
const task = (over: Partial<ParseTask> = {}): ParseTask => ({ path: FILE, from: 0, to: fs.statSync(FILE).size, wantPrompt: true, ...over });

/** Output tokens per response, read the simplest way: every line parsed, copies keep their largest figure. */
function referenceOutputByResponse(): Map<string, number> {
  const best = new Map<string, number>();
  for (const text of fs.readFileSync(FILE, 'utf8').split('\n').filter(Boolean)) {
    const line = JSON.parse(text) as { requestId?: string; message?: { id?: string; usage?: { output_tokens?: number } } };
    const usage = line.message?.usage;
    if (!usage) continue;
    const key = `${line.message!.id}\0${line.requestId}`;
    best.set(key, Math.max(best.get(key) ?? 0, usage.output_tokens ?? 0));
  }
  return best;
}

const Pool = suite('piscina pool');
/** The pool tests' stand-in worker (test/fixtures/stand-in-worker.mjs): answers with the task's path, its flags and limits. */
const STAND_IN_WORKER = pathToFileURL(path.resolve(import.meta.dirname, '../fixtures/stand-in-worker.mjs')).href;
/** The threads of this process (Linux): the pool's workers among them. */
const threadsNow = (): number => fs.readdirSync('/proc/self/task').length;
let pool: Piscina<ParseTask, UsageBatch>;
Pool.before(() => {
  pool = new Piscina({
    filename: new URL('../../src/workers/parse-transcript.ts', import.meta.url).href,
    minThreads: 1,
    maxThreads: 1,
  });
});
Pool.after(async () => {
  await pool.destroy();
});

Pool('a fixture file through the pool: typed arrays arrive, rows and totals match', async () => {
  const batch = await pool.run(task());
  assert.ok(batch.nums instanceof Float64Array);
  assert.ok(batch.flags instanceof Uint8Array);
  assert.ok(batch.strIdx instanceof Uint32Array);
  assert.ok(batch.strTable instanceof Uint8Array);
  assert.is(batch.nums.length, batch.rows * NUM_COLS);
  assert.is(batch.strIdx.length, batch.rows * STR_COLS);

  const reference = referenceOutputByResponse();
  assert.is(batch.rows, reference.size, 'one row per response within one file');
  const rows = [...rowsOf(batch)];
  assert.is(rows.reduce((s, r) => s + r.output, 0), [...reference.values()].reduce((a, b) => a + b, 0));
  assert.is(batch.consumedTo, fs.statSync(FILE).size);
  assert.is(batch.meta.firstPrompt, '/orchestrator create TODO app by Next.js');
  const local = readTranscript(task());
  assert.equal(rows, [...rowsOf(local)], 'same rows as in-process');
  assert.equal([batch.meta, batch.stats, batch.head], [local.meta, local.stats, local.head]);
});

Pool('the worker hashes each response key as the index would, and leaves a row without both ids to the index', async () => {
  const batch = await pool.run(task());
  const rows = [...rowsOf(batch)];
  assert.ok(rows.length > 0);
  rows.forEach((r, i) => assert.is(batch.nums[i * NUM_COLS + NUM.hkey], hashKey(responseKey(r.messageId, r.requestId))));
  const partial = encodeBatch([{ ...rows[0]!, requestId: '' }, { ...rows[0]!, messageId: '' }], {
    path: FILE, from: 0, consumedTo: 0, head: '', meta: {}, stats: batch.stats,
  });
  assert.ok(Number.isNaN(partial.nums[NUM.hkey]) && Number.isNaN(partial.nums[NUM_COLS + NUM.hkey]));
});

Pool('the worker hands its buffers to the transfer list', () => {
  const moved = parseTranscript(task()) as unknown as Record<symbol, unknown>;
  const batch = moved[valueSymbol] as UsageBatch;
  const list = moved[transferableSymbol] as ArrayBuffer[];
  assert.equal(list, [batch.nums.buffer, batch.flags.buffer, batch.strIdx.buffer, batch.strTable.buffer]);
  assert.is(new Set(list).size, 4, 'four distinct buffers (a repeated one cannot be transferred)');
  for (const b of list) assert.instance(b, ArrayBuffer);
  assert.is(batch.strTable.byteOffset, 0);
  assert.is(batch.strTable.buffer.byteLength, batch.strTable.byteLength, 'the string table owns its whole buffer');
});

Pool('ranges through the pool add up to the whole file', async () => {
  const size = fs.statSync(FILE).size;
  const first = await pool.run(task({ to: Math.floor(size / 2) }));
  const second = await pool.run(task({ from: first.consumedTo, wantPrompt: false }));
  assert.is(second.consumedTo, size);
  assert.is(first.stats.lines + second.stats.lines, 438);
  assert.is(first.stats.usageLines + second.stats.usageLines, readTranscript(task()).stats.usageLines);
});

Pool('a missing file rejects with a clear error and the pool keeps working', async () => {
  try {
    await pool.run(task({ path: '/nonexistent/x.jsonl', to: 10 }));
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.instance(err, Error);
    assert.match((err as Error).message, /cannot open transcript \/nonexistent\/x\.jsonl/);
  }
  const again = await pool.run(task());
  assert.ok(again.rows > 0);
});

Pool('createPool runs the worker file it is given: the built worker (npm test builds first) reads like the source', async () => {
  const built = path.resolve(import.meta.dirname, '../../dist/parse-worker.js');
  const own = createPool({ threads: 1, worker: pathToFileURL(built).href });
  try {
    const batch = await own.parse(task());
    const local = readTranscript(task());
    assert.equal([...rowsOf(batch)], [...rowsOf(local)]);
    assert.equal([batch.meta, batch.stats, batch.head], [local.meta, local.stats, local.head]);
  } finally {
    await own.close();
  }
});

Pool('a worker that cannot start fails every task with the cause, neither hanging nor ending the process', async () => {
  const logged: string[] = [];
  const missing = createPool({ threads: 2, worker: pathToFileURL('/nonexistent/no-such-worker.js').href, log: (m) => logged.push(m) });
  try {
    // more tasks than the workers take at once: some wait in Piscina's queue for a worker that never starts
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => missing.parse(task())));
    for (const r of results) {
      assert.is(r.status, 'rejected');
      assert.match(String((r as PromiseRejectedResult).reason), /no-such-worker/);
    }
    const later = await missing.parse(task()).catch((err: Error) => err);
    assert.instance(later, Error);
    assert.match((later as Error).message, /^parse worker failed: .*no-such-worker/);
    assert.is(logged.length, 1, 'logged once');
    assert.match(logged[0]!, /parse worker failed: .*no-such-worker.*cannot be read until the server is restarted/);
  } finally {
    await missing.close();
  }
});

Pool('a worker that dies mid-task fails that task only: it is replaced and the pool goes on', async () => {
  const logged: string[] = [];
  const own = createPool({ threads: 1, worker: STAND_IN_WORKER, log: (m) => logged.push(m) });
  try {
    const died = await own.parse(task({ path: 'exit' })).catch((err: Error) => err);
    assert.instance(died, Error);
    assert.not.match((died as Error).message, /^parse worker failed/);
    const next = (await own.parse(task({ path: 'after' }))) as unknown as { path: string };
    assert.is(next.path, 'after');
    assert.equal(logged, []);
  } finally {
    await own.close();
  }
});

Pool('no worker starts before the first task: a restart with nothing to read holds none', async () => {
  const before = threadsNow();
  const own = createPool({ threads: 2, worker: STAND_IN_WORKER });
  try {
    await new Promise((r) => setTimeout(r, 300));
    assert.is(threadsNow(), before, 'no thread started by createPool');
    const done = (await own.parse(task({ path: 'first' }))) as unknown as { path: string };
    assert.is(done.path, 'first');
    assert.ok(threadsNow() > before, 'a worker once there is a task');
  } finally {
    await own.close();
  }
});

Pool('warm() starts every worker before any task (a first index needs them all)', async () => {
  // libuv's thread pool, started by the first asynchronous file read, is not counted as the pool's.
  await fs.promises.readFile(new URL(STAND_IN_WORKER));
  const before = threadsNow();
  const own = createPool({ threads: 3, worker: STAND_IN_WORKER });
  try {
    own.warm();
    await waitFor(() => threadsNow() >= before + 3, 'three workers started by warm()', 5_000);
    assert.is(((await own.parse(task({ path: 'first' }))) as unknown as { path: string }).path, 'first');
  } finally {
    await own.close();
  }
});

Pool('idle workers leave, the last one too, and a task after that starts one again', async () => {
  const before = threadsNow();
  const own = createPool({ threads: 2, worker: STAND_IN_WORKER, idleMs: 200 });
  try {
    await own.parse(task({ path: 'first' }));
    assert.ok(threadsNow() > before, 'a worker for the task');
    await waitFor(() => threadsNow() === before, 'the idle worker leaving', 5_000);
    assert.is(((await own.parse(task({ path: 'again' }))) as unknown as { path: string }).path, 'again');
  } finally {
    await own.close();
  }
});

Pool('release() ends the workers at once unless a task is pending; a task after it starts one again', async () => {
  const before = threadsNow();
  const own = createPool({ threads: 2, worker: STAND_IN_WORKER, idleMs: 60_000 });
  try {
    const pendingTask = own.parse(task({ path: 'pending' }));
    await own.release();
    assert.is(((await pendingTask) as unknown as { path: string }).path, 'pending', 'a pending task is not cut off');
    assert.ok(threadsNow() > before, 'nor its worker');
    await own.release();
    // the threads' exit is seen a moment after the workers' (well within the minute an idle worker would live)
    await waitFor(() => threadsNow() === before, 'no worker thread left', 2_000);
    assert.is(((await own.parse(task({ path: 'after' }))) as unknown as { path: string }).path, 'after');
    assert.ok(threadsNow() > before, 'a worker again');
  } finally {
    await own.close();
  }
});

Pool('the workers get the Node flags they are given, else the process\'s own', async () => {
  const flagsOf = async (execArgv?: string[]): Promise<string[]> => {
    const own = createPool({ threads: 1, worker: STAND_IN_WORKER, ...(execArgv ? { execArgv } : {}) });
    try {
      return ((await own.parse(task())) as unknown as { execArgv: string[] }).execArgv;
    } finally {
      await own.close();
    }
  };
  assert.equal(await flagsOf(['--no-warnings']), ['--no-warnings']);
  assert.equal(await flagsOf([]), []);
  assert.equal(await flagsOf(), process.execArgv, 'inherited (here: the tsx loader of the test run)');
});

Pool('the workers\' heaps are bounded: old generation 256 MB, young generation 16 MB', async () => {
  const own = createPool({ threads: 1, worker: STAND_IN_WORKER });
  try {
    const limits = ((await own.parse(task())) as unknown as { resourceLimits: Record<string, number> }).resourceLimits;
    assert.is(limits.maxOldGenerationSizeMb, 256);
    assert.is(limits.maxYoungGenerationSizeMb, 16);
  } finally {
    await own.close();
  }
});

Pool('one worker per core, bounded by memory', () => {
  const GiB = 1024 ** 3;
  assert.is(poolThreads(2, 8 * GiB), 2);
  assert.is(poolThreads(3, 8 * GiB), 3);
  assert.is(poolThreads(16, 64 * GiB), 4, 'the workers\' memory budget (100 MB) bounds a big machine');
  assert.is(poolThreads(16, 0.25 * GiB), 2, 'a quarter of the free memory');
  assert.is(poolThreads(4, 0), 1, 'never none');
});

Pool('little to read: the writer keeps a core of its own; 256 MiB or more: every core', () => {
  const GiB = 1024 ** 3;
  const MiB = 1024 ** 2;
  assert.is(poolThreads(2, 8 * GiB, 100 * MiB), 1);
  assert.is(poolThreads(2, 8 * GiB, 255 * MiB), 1);
  assert.is(poolThreads(2, 8 * GiB, 256 * MiB), 2);
  assert.is(poolThreads(2, 8 * GiB, GiB), 2);
  assert.is(poolThreads(3, 8 * GiB, 0), 2);
  assert.is(poolThreads(1, 8 * GiB, 0), 1, 'never none');
  assert.is(poolThreads(16, 64 * GiB, 0), 4, 'still bounded by memory');
});

Pool('a big history leaves the workers less memory: the writer\'s own grows with it', () => {
  const GiB = 1024 ** 3;
  assert.is(poolThreads(16, 64 * GiB, GiB), 4);
  assert.is(poolThreads(16, 64 * GiB, 2 * GiB), 4);
  assert.is(poolThreads(16, 64 * GiB, 5 * GiB), 3);
  assert.is(poolThreads(16, 64 * GiB, 10.5 * GiB), 2, 'ten 1 GiB histories: 433 MB with four workers, 327-369 MB with two');
  assert.is(poolThreads(16, 64 * GiB, 30 * GiB), 1, 'never none');
  assert.is(poolThreads(2, 8 * GiB, 10 * GiB), 2);
});

Pool('createPool and the pipeline size the pool by the bytes there are to read', async () => {
  const cores = os.availableParallelism;
  os.availableParallelism = () => 3;
  const { dir, cleanup } = tempDir('cost-pool-size-');
  const index = openIndex(path.join(dir, 'index.db'), { log: () => undefined });
  try {
    assert.is(createPool({ workBytes: 1024 ** 2 }).threads, 2);
    assert.is(createPool({ workBytes: 1024 ** 3 }).threads, 3);
    assert.is(createPool({}).threads, 3, 'unknown: every core');
    const projects = path.join(dir, 'projects', '-p');
    fs.mkdirSync(projects, { recursive: true });
    fs.copyFileSync(FILE, path.join(projects, path.basename(FILE)));
    index.setPrices(PriceTable.builtin());
    const pipeline = await startPipeline({ projectsDirs: [path.dirname(projects)], index, log: () => undefined, recheckMs: 600_000 });
    try {
      assert.is(pipeline.threads, 2, 'a small history: one core left to the writer');
      await pipeline.ingest.idle();
      assert.ok(index.stats().messages > 0);
    } finally {
      await pipeline.close();
    }
  } finally {
    os.availableParallelism = cores;
    index.close();
    cleanup();
  }
});

Pool('before a first index the listing and a started worker are ready, and the pipeline reads through them', async () => {
  const { dir, cleanup } = tempDir('cost-first-scan-');
  const file = path.join(dir, 'index.db');
  const projects = path.join(dir, 'projects', '-p');
  fs.mkdirSync(projects, { recursive: true });
  fs.copyFileSync(FILE, path.join(projects, path.basename(FILE)));
  const before = threadsNow();
  const prepared = await prepareFirstScan(file, [path.dirname(projects)], () => undefined);
  let index: ReturnType<typeof openIndex> | undefined;
  try {
    assert.ok(prepared, 'no index file: a first index');
    assert.equal(prepared.listed.map((f) => path.basename(f.path)), [path.basename(FILE)]);
    await waitFor(() => threadsNow() > before, 'the first worker starting before any task', 10_000);
    let parsed = 0;
    const pool = prepared.pool;
    index = openIndex(file, { log: () => undefined });
    index.setPrices(PriceTable.builtin());
    const pipeline = await startPipeline({
      projectsDirs: [path.dirname(projects)],
      index,
      log: () => undefined,
      recheckMs: 600_000,
      prepared: Promise.resolve({ ...prepared, pool: { ...pool, parse: (t: ParseTask) => (parsed++, pool.parse(t)) } }),
    });
    try {
      await pipeline.ingest.idle();
      assert.is(parsed, 1, 'the transcript went through the prepared pool');
      assert.ok(index.stats().messages > 0);
    } finally {
      await pipeline.close();
    }
    assert.is(await prepareFirstScan(file, [path.dirname(projects)], () => undefined), null, 'an index file with content: a restart');
  } finally {
    index?.close();
    cleanup();
  }
});

Pool.run();
