// KeyIndex (the writer's hkey -> message id table) against a Map: random sets, overwrites and deletes,
// growth, clusters of adjacent hkeys (the writer probes hkey + 1 on a hash collision) and wrap-around runs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { KeyIndex } from '../../src/index-db/key-index.ts';
import { hashKey } from '../../src/workers/protocol.ts';

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

function assertSame(index: KeyIndex, model: Map<number, number>, probes: number[]): void {
  assert.is(index.size, model.size);
  for (const [k, v] of model) assert.is(index.get(k), v, `hkey ${k}`);
  for (const k of probes) if (!model.has(k)) assert.is(index.get(k), undefined, `absent hkey ${k}`);
}

test('agrees with a Map under random sets, overwrites and deletes (with growth)', () => {
  const next = rng(7);
  const index = new KeyIndex(4);
  const model = new Map<number, number>();
  // Few distinct low bits, so runs are long and wrap around the table; many adjacent keys.
  const pool: number[] = [];
  for (let i = 0; i < 400; i++) {
    const base = hashKey(`r msg_${i % 97} req_${i}`);
    pool.push(base, base + 1, base + 2, (i % 7) * 2 ** 32 + 5, 2 ** 53 - 1 - i);
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

test('keys 0 and 2^53 - 1 are ordinary keys; ids are rowids of 32 bits (1 to 2^32 - 1), others are refused, not cut', () => {
  const index = new KeyIndex();
  index.set(0, 1);
  index.set(2 ** 53 - 1, 2 ** 32 - 1);
  assert.is(index.get(0), 1);
  assert.is(index.get(2 ** 53 - 1), 2 ** 32 - 1);
  assert.is(index.get(2 ** 32), undefined, 'same slot as 0, another key');
  for (const bad of [0, -1, 2 ** 32, 1.5, Number.NaN]) assert.throws(() => index.set(5, bad), /id must be a whole number from 1 to 4294967295/, `id ${bad}`);
  assert.is(index.get(5), undefined);
});

test('made for n keys, it holds n and a sixth more without growing (the writer sizes it for every stored winner before reading them)', () => {
  const n = 300_000;
  const index = new KeyIndex(n);
  const slots = index.slots;
  assert.ok(slots >= n / 0.6 && slots < n / 0.6 + 1, `${slots} slots for ${n} keys`);
  const room = Math.floor(slots * 0.7);
  for (let i = 1; i <= room; i++) index.set(hashKey(`k${i}`), i);
  assert.is(index.slots, slots);
  assert.is(index.size, room);
  index.set(hashKey('one more than it has room for'), room + 1);
  assert.is(index.slots, Math.ceil(slots * 1.5), 'and grows by half past it');
  assert.is(index.get(hashKey('k12345')), 12345);
  assert.is(index.get(hashKey('one more than it has room for')), room + 1);
});

test('grown key by key, it is 47-70% full at any count: 12 bytes a slot are the server\'s memory', () => {
  // 1.1M keys: a table doubled at half full had 4.2M slots for them (26% full, 50 MB); grown by half, 2.1M (53%, 25 MB).
  const index = new KeyIndex(0);
  let lowest = 1;
  let highest = 0;
  for (let i = 1; i <= 1_100_000; i++) {
    index.set(hashKey(`k${i}`), i);
    const load = i / index.slots;
    if (i >= 1000) lowest = Math.min(lowest, load);
    highest = Math.max(highest, load);
  }
  assert.ok(lowest >= 0.46, `at worst ${lowest.toFixed(3)} full`);
  assert.ok(highest <= 0.7, `at most ${highest.toFixed(3)} full`);
  assert.is(index.get(hashKey('k1')), 1);
  assert.is(index.get(hashKey('k1100000')), 1_100_000);
});

test.run();
