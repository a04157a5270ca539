// The result cache: expiry with an injected clock and on the monotonic default (a wall-clock step back, alone and
// in a real server), shared concurrent misses, clear(), errors not cached, and the size bounds.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import { ResultCache } from '../../src/http/cache.ts';
import { ingestFile, sessionRole, startServer } from '../helpers/server.ts';
import { usageLine, writeJsonl } from '../helpers/jsonl.ts';

const c = suite('ResultCache');

c('keeps a result for the TTL, then recomputes', async () => {
  let now = 1000;
  let calls = 0;
  const cache = new ResultCache({ ttlMs: 30_000, now: () => now });
  const compute = () => ({ n: ++calls });
  const a = await cache.get('k', compute);
  assert.is(a.body.toString(), '{"n":1}');
  assert.match(a.etag, /^W\/"[\w-]+"$/);
  now += 29_999;
  assert.is((await cache.get('k', compute)).body.toString(), '{"n":1}');
  now += 1;
  const b = await cache.get('k', compute);
  assert.is(b.body.toString(), '{"n":2}');
  assert.is.not(b.etag, a.etag);
  assert.is((await cache.get('other', compute)).body.toString(), '{"n":3}', 'keys are separate');
});

c('a per-call TTL', async () => {
  let now = 0;
  let calls = 0;
  const cache = new ResultCache({ now: () => now });
  await cache.get('k', () => ++calls, 2000);
  now = 2000;
  await cache.get('k', () => ++calls, 2000);
  assert.is(calls, 2);
});

c('expiry follows a monotonic clock: stepping the wall clock back 3 h does not keep a result', async () => {
  const realNow = Date.now;
  let step = 0;
  Date.now = () => realNow() + step; // the system clock, as the cache sees it
  let calls = 0;
  try {
    const cache = new ResultCache({ ttlMs: 40 });
    await cache.get('k', () => ++calls);
    step = -3 * 3_600_000;
    await new Promise((r) => setTimeout(r, 60));
    await cache.get('k', () => ++calls);
    assert.is(calls, 2, 'recomputed after the TTL although the wall clock went back');
  } finally {
    Date.now = realNow;
  }
});

c('the server does not expire its results on its wall clock', async () => {
  // the INDEXING TTL (2 s) applies while the first index runs; the server's wall clock steps back 3 h meanwhile
  let offset = 0;
  const t = await startServer({ now: () => Date.now() - offset, indexing: () => ({ done: false, filesTotal: 1, filesDone: 0, bytesTotal: 1, bytesDone: 0, finalSince: null }) });
  try {
    // a custom range of past days: its cache key does not change with the clock
    const route = '/api/projects?from=2026-01-01&to=2026-01-03';
    const before = (await t.request(route)).json<unknown[]>();
    assert.is(before.length, 0);
    const file = path.join(t.dir, 'config', 'projects', '-home-dev-a', 's1.jsonl');
    writeJsonl(file, [usageLine({ timestamp: '2026-01-02T12:00:00.000Z' })]);
    ingestFile(t.index, file, sessionRole('-home-dev-a', 's1'));
    offset = 3 * 3_600_000;
    await new Promise((r) => setTimeout(r, 2100));
    const after = (await t.request(route)).json<unknown[]>();
    assert.is(after.length, 1, 'the result expired after its 2 s');
  } finally {
    await t.close();
  }
});

c('concurrent identical misses share one computation', async () => {
  let calls = 0;
  const cache = new ResultCache();
  const slow = async () => {
    calls++;
    await new Promise((r) => setTimeout(r, 30));
    return { v: 1 };
  };
  const all = await Promise.all([cache.get('k', slow), cache.get('k', slow), cache.get('k', slow)]);
  assert.is(calls, 1);
  assert.ok(all.every((e) => e === all[0]));
});

c('clear() drops results, and a computation running across a clear is not stored', async () => {
  let calls = 0;
  const cache = new ResultCache();
  await cache.get('k', () => ++calls);
  cache.clear();
  await cache.get('k', () => ++calls);
  assert.is(calls, 2);
  let release!: () => void;
  const running = cache.get('slow', () => new Promise((r) => (release = () => r(++calls))));
  await Promise.resolve();
  cache.clear();
  release();
  await running;
  await cache.get('slow', () => ++calls);
  assert.is(calls, 4);
});

c('errors are passed on and not cached', async () => {
  const cache = new ResultCache();
  let threw = false;
  try {
    await cache.get('k', () => {
      throw new Error('boom');
    });
  } catch (err) {
    threw = (err as Error).message === 'boom';
  }
  assert.ok(threw);
  assert.is((await cache.get('k', () => 7)).body.toString(), '7');
});

c('bounded by entries and bytes, oldest out', async () => {
  const byCount = new ResultCache({ maxEntries: 3 });
  for (let i = 0; i < 10; i++) await byCount.get(`k${i}`, () => i);
  assert.is(byCount.size, 3);
  let recomputed = false;
  await byCount.get('k0', () => (recomputed = true));
  assert.ok(recomputed, 'the oldest was evicted');

  const byBytes = new ResultCache({ maxBytes: 100 });
  for (let i = 0; i < 10; i++) await byBytes.get(`k${i}`, () => 'x'.repeat(40));
  assert.is(byBytes.size, 2);
  await byBytes.get('huge', () => 'y'.repeat(500));
  assert.is(byBytes.size, 2, 'a body larger than the bound is served but not kept');
});

c.run();
