// The real worker through a real Piscina pool: results arrive as typed arrays (the transfer path), errors as errors.
import fs from 'node:fs';
import path from 'node:path';
import { Piscina, transferableSymbol, valueSymbol } from 'piscina';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import parseTranscript, { readTranscript } from '../../src/workers/parse-transcript.ts';
import { NUM_COLS, STR_COLS, rowsOf } from '../../src/workers/protocol.ts';
import type { ParseTask, UsageBatch } from '../../src/workers/protocol.ts';

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

Pool.run();
