// The result cache on its own: expiry with an injected clock, shared concurrent misses, clear(),
// errors not cached, and the size bounds.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ResultCache } from '../../src/http/cache.ts';

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
