// A service's write waits, without blocking, while a compaction holds the index's writes (src/main/free-writer.ts): it
// runs only once no hold is left (a second hold begun meanwhile is waited for too), with the writer as it is then.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { withFreeWriter } from '../../src/main/free-writer.ts';

const Free = suite('withFreeWriter');

const hold = (): { held: Promise<void>; release: () => void } => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { held, release };
};

Free('runs at once when nothing holds the writes; after every hold otherwise, with the writer of that moment', async () => {
  const events: string[] = [];
  let held: Promise<void> | null = null;
  const writer = { name: 'first', writesHeld: () => held };
  let current: typeof writer | null = writer;

  assert.is(await withFreeWriter(() => current, (w) => w?.name), 'first');

  const one = hold();
  held = one.held;
  const done = withFreeWriter(() => current, (w) => {
    events.push(`wrote with ${w?.name ?? 'no writer'}`);
    return w;
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(events, [], 'waits while held');
  // The first hold ends and a second begins before the write's turn: the write waits for that one too.
  const two = hold();
  one.release();
  held = two.held;
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(events, [], 'waits for the second hold');
  // Meanwhile this process stopped being the writer: the write gets the writer as it is now.
  current = null;
  held = null;
  two.release();
  assert.is(await done, null);
  assert.equal(events, ['wrote with no writer']);
});

Free.run();
