// KeyIndex (the writer's hkey -> message id table) against a Map: random sets, overwrites and deletes,
// growth, clusters of adjacent hkeys (the writer probes the next hkey on a hash collision) and wrap-around runs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { KeyIndex } from '../../src/index-db/key-index.ts';
import { hashKey, HKEY_MAX, nextHkey } from '../../src/workers/protocol.ts';

/** Deterministic PRNG (mulberry32), so a failure replays. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Sets a key's id at its hash, or the next free hkey when another key holds that hash (as the writer places keys). */
function place(index: KeyIndex, key: string, id: number): number {
  let h = hashKey(key);
  while (index.get(h) !== undefined) h = nextHkey(h);
  index.set(h, id);
  return h;
}

function assertSame(index: KeyIndex, model: Map<number, number>, probes: number[]): void {
  assert.is(index.size, model.size);
  for (const [k, v] of model) assert.is(index.get(k), v, `hkey ${k}`);
  for (const k of probes) if (!model.has(k)) assert.is(index.get(k), undefined, `absent hkey ${k}`);
}

test('agrees with a Map under random sets, overwrites and deletes (with growth)', () => {
  const next = rng(7);
  const index = new KeyIndex(4);
  const model = new Map<number, number>();
  // Keys of one home slot (the slot scales the hkey to the size: small ones share slot 0, the largest the last slot),
  // so runs are long and wrap around the table; many adjacent keys, some wrapping past HKEY_MAX.
  const pool: number[] = [];
  for (let i = 0; i < 400; i++) {
    const base = hashKey(`r msg_${i % 97} req_${i}`);
    pool.push(base, nextHkey(base), nextHkey(nextHkey(base)), (i % 7) + 5, HKEY_MAX - i);
  }
  let id = 1;
  for (let step = 0; step < 20_000; step++) {
    const k = pool[Math.floor(next() * pool.length)]!;
    if (next() < 0.35) {
      index.delete(k);
      model.delete(k);
    } else {
      index.set(k, id);
      model.set(k, id++);
    }
    if (step % 997 === 0) assertSame(index, model, pool);
  }
  assertSame(index, model, pool);
  for (const k of [...model.keys()]) {
    index.delete(k);
    model.delete(k);
  }
  assertSame(index, model, pool);
});

test('hkeys 0 and 2^31 - 1 are ordinary keys, others are refused, not cut; ids are rowids of 32 bits (1 to 2^32 - 1)', () => {
  const index = new KeyIndex();
  index.set(0, 1);
  index.set(HKEY_MAX, 2 ** 32 - 1);
  assert.is(HKEY_MAX, 2 ** 31 - 1);
  assert.is(index.get(0), 1);
  assert.is(index.get(HKEY_MAX), 2 ** 32 - 1);
  assert.is(nextHkey(HKEY_MAX), 0, 'the next hkey wraps');
  for (const bad of [2 ** 31, 2 ** 32, 2 ** 53 - 1, -1, 1.5, Number.NaN]) {
    assert.throws(() => index.set(bad, 7), /hkey must be a whole number from 0 to 2147483647/, `hkey ${bad}`);
    assert.is(index.get(bad), undefined, `hkey ${bad}`);
    index.delete(bad);
  }
  assert.is(index.size, 2);
  for (const bad of [0, -1, 2 ** 32, 1.5, Number.NaN]) assert.throws(() => index.set(5, bad), /id must be a whole number from 1 to 4294967295/, `id ${bad}`);
  assert.is(index.get(5), undefined);
});

test('hashKey gives 31-bit hkeys spread over the whole range: keys fall evenly into 64 home slots', () => {
  const counts = new Array<number>(64).fill(0);
  const n = 64_000;
  for (let i = 0; i < n; i++) {
    const h = hashKey(`rmsg_01${i.toString(36).padStart(22, '0')} req_011C${(i * 7919).toString(36).padStart(20, '0')}`);
    assert.ok(h >= 0 && h <= HKEY_MAX && Number.isInteger(h), `hkey ${h}`);
    counts[Math.floor((h * 64) / 2 ** 31)]!++;
  }
  // Each slot expects 1,000 (sd ~31): a hash whose high bits vary little would leave some nearly empty.
  assert.ok(Math.min(...counts) > 850 && Math.max(...counts) < 1150, `${Math.min(...counts)}-${Math.max(...counts)} a slot`);
});

test('made for n keys, it holds n and a sixth more without growing (the writer sizes it for every stored winner before reading them)', () => {
  const n = 300_000;
  const index = new KeyIndex(n);
  const slots = index.slots;
  assert.ok(slots >= n / 0.6 && slots < n / 0.6 + 1, `${slots} slots for ${n} keys`);
  const room = Math.floor(slots * 0.7);
  let k12345 = 0;
  for (let i = 1; i <= room; i++) {
    const h = place(index, `k${i}`, i);
    if (i === 12345) k12345 = h;
  }
  assert.is(index.slots, slots);
  assert.is(index.size, room);
  const last = place(index, 'one more than it has room for', room + 1);
  assert.is(index.slots, Math.ceil(slots * 1.5), 'and grows by half past it');
  assert.is(index.get(k12345), 12345);
  assert.is(index.get(last), room + 1);
});

test('grown key by key, it is 47-70% full at any count: 8 bytes a slot are the server\'s memory', () => {
  // 1.1M keys: a table doubled at half full had 4.2M slots for them (26% full); grown by half, 2.1M (53%).
  const index = new KeyIndex(0);
  let lowest = 1;
  let highest = 0;
  let first = 0;
  let latest = 0;
  for (let i = 1; i <= 1_100_000; i++) {
    latest = place(index, `k${i}`, i);
    if (i === 1) first = latest;
    const load = i / index.slots;
    if (i >= 1000) lowest = Math.min(lowest, load);
    highest = Math.max(highest, load);
  }
  assert.ok(lowest >= 0.46, `at worst ${lowest.toFixed(3)} full`);
  assert.ok(highest <= 0.7, `at most ${highest.toFixed(3)} full`);
  assert.is(index.size, 1_100_000);
  assert.is(index.get(first), 1);
  assert.is(index.get(latest), 1_100_000);
});

test.run();
