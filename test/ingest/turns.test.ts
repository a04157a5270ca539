// The background work's turns (src/ingest/turns.ts): at once when no request comes, after the requests pause while
// they come, and never longer than the bound that leaves the background its share. Real timers, with margins wide
// enough for a loaded machine: each assertion is about which event comes first, not about a duration's size.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createGivingWay, nextTurn } from '../../src/ingest/turns.ts';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `seen` every 2 ms (a stream of requests) until stopped. */
function requests(seen: () => void): { stop(): number } {
  seen();
  const timer = setInterval(seen, 2);
  return {
    stop() {
      clearInterval(timer);
      seen();
      return performance.now();
    },
  };
}

const T = suite('turns: giving way to requests');

T('with no request, a turn is the next turn of the event loop', async () => {
  const way = createGivingWay();
  let timerFired = false;
  const timer = setTimeout(() => (timerFired = true), 5);
  await way.turn();
  assert.not.ok(timerFired, 'resolved before a 5 ms timer');
  clearTimeout(timer);
  let immediate = false;
  setImmediate(() => (immediate = true));
  await nextTurn();
  assert.ok(immediate, 'nextTurn lets an earlier setImmediate run first');
});

T('while requests come, a turn waits until they pause for quietMs', async () => {
  const way = createGivingWay({ quietMs: 30, maxWaitMs: 5_000 });
  await sleep(100); // the background ran 100 ms since its last turn: the bound (19 x 100 ms, at most 5 s) is far
  const stream = requests(way.seen);
  const stoppedAt = deferred<number>();
  setTimeout(() => stoppedAt.resolve(stream.stop()), 150);
  await way.turn();
  const resolved = performance.now();
  const stopped = await stoppedAt.promise;
  assert.ok(resolved >= stopped + 25, `resolved ${(resolved - stopped).toFixed(1)} ms after the last request (quiet: 30)`);
});

T('under a stream that never pauses, a turn waits at most factor x the time the background ran', async () => {
  const way = createGivingWay({ quietMs: 30, factor: 4, maxWaitMs: 60_000 });
  const stream = requests(way.seen);
  try {
    await within(3_000, way.turn()); // the background had not run since it was made: no wait
    const ran = performance.now();
    await sleep(20); // a 20 ms slice of background work
    const called = performance.now();
    await within(3_000, way.turn());
    const waited = performance.now() - called;
    assert.ok(waited >= 4 * (called - ran) - 5, `waited ${waited.toFixed(1)} ms for a ${(called - ran).toFixed(1)} ms slice (factor 4)`);
    assert.ok(waited < 1_000, `waited ${waited.toFixed(1)} ms: the bound is factor x the slice, not the stream's end`);
  } finally {
    stream.stop();
  }
});

T('a turn waits at most maxWaitMs', async () => {
  const way = createGivingWay({ quietMs: 30, factor: 1_000, maxWaitMs: 50 });
  await sleep(50);
  const stream = requests(way.seen);
  try {
    const called = performance.now();
    await within(3_000, way.turn());
    const waited = performance.now() - called;
    assert.ok(waited >= 45 && waited < 1_000, `waited ${waited.toFixed(1)} ms (at most 50 ms by the option)`);
  } finally {
    stream.stop();
  }
});

/** `p`, or a failure after `ms` (a turn that waits for a stream's end would otherwise hang the test). */
function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not resolved within ${ms} ms`)), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

function deferred<T>(): { promise: Promise<T>; resolve(v: T): void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

T.run();
