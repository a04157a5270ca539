// The overview's `health` over a real server and index: skipped lines by reason, the newest entry, and the
// clock-behind-the-data flag (a server clock behind its data otherwise shows $0 for today with no hint).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import type { Overview } from '../../src/shared/api-types.ts';
import { ingestFile, sessionRole, startServer } from '../helpers/server.ts';
import { usageLine } from '../helpers/jsonl.ts';

const Health = suite('overview health');

async function withData(now: number, lines: string[]) {
  const t = await startServer({ now: () => now });
  const file = path.join(t.dir, 'config', 'projects', '-home-dev-a', 's1.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  ingestFile(t.index, file, sessionRole('-home-dev-a', 's1'));
  return t;
}

const at = (iso: string, id: string) => JSON.stringify(usageLine({ timestamp: iso, messageId: id, requestId: id }));

Health('data newer than the server clock is flagged, with the newest entry', async () => {
  const now = Date.UTC(2026, 10, 20, 12);
  const t = await withData(now, [at('2026-11-20T11:00:00.000Z', 'a'), at('2026-11-20T15:30:00.250Z', 'b')]);
  try {
    const o = (await t.request('/api/overview?range=today')).json<Overview>();
    assert.is(o.health.newestEntry, '2026-11-20T15:30:00.250Z');
    assert.is(o.health.dataInFuture, true);
  } finally {
    await t.close();
  }
});

Health('data in the past, or under a minute ahead (clock drift), is not flagged; an empty index has no newest entry', async () => {
  const now = Date.UTC(2026, 10, 20, 12);
  const t = await withData(now, [at('2026-11-20T11:00:00.000Z', 'a'), at('2026-11-20T12:00:30.000Z', 'b')]);
  try {
    const o = (await t.request('/api/overview')).json<Overview>();
    assert.is(o.health.newestEntry, '2026-11-20T12:00:30.000Z');
    assert.is(o.health.dataInFuture, false);
  } finally {
    await t.close();
  }
  const empty = await startServer();
  try {
    const o = (await empty.request('/api/overview')).json<Overview>();
    assert.equal(o.health, { skipped: { malformed: 0, outOfRange: 0, oversized: 0, unreadableFiles: 0, unreadableFolders: 0 }, newestEntry: null, dataInFuture: false });
  } finally {
    await empty.close();
  }
});

Health('skipped lines by reason, whole index', async () => {
  const now = Date.UTC(2026, 10, 20, 12);
  const t = await withData(now, [
    at('2026-11-20T11:00:00.000Z', 'a'),
    '{"message":{"usage":{"input_tokens":1}}}', // no timestamp: malformed
    'not json "usage"',
    JSON.stringify(usageLine({ input: 5e18, messageId: 'x', requestId: 'x' })),
  ]);
  try {
    t.index.markUnreadable(path.join(t.dir, 'locked.jsonl'), 'EACCES');
    const o = (await t.request('/api/overview?range=today')).json<Overview>();
    assert.equal(o.health.skipped, { malformed: 2, outOfRange: 1, oversized: 0, unreadableFiles: 1, unreadableFolders: 0 });
  } finally {
    await t.close();
  }
});

Health.run();
