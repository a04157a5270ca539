// Issue 37, low item: a disk that fills up during the first index must not leave a clean `health` beside figures that
// miss most of the history. While writes fail the overview's health says so; once they work again the note goes.
// A real server on a real, small tmpfs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { getJson, startAppServer } from '../helpers/app-server.ts';
import { skipTest } from '../helpers/skip.ts';
import { tempDir, writeJsonl } from '../helpers/jsonl.ts';
import { waitFor } from '../helpers/wait.ts';

const { dir } = tempDir('write-failure-');
interface Overview { totals: { messages: number }; health: { index?: string[] } }
const line = (i: number) => ({
  type: 'assistant', timestamp: new Date(Date.now() - 3_600_000 + i * 1000).toISOString(), sessionId: 's1', requestId: `req-${i}`,
  cwd: '/home/u/proj', message: { id: `msg-${i}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 1000, output_tokens: 100 + i } },
});

const Full = suite('a disk that fills up during the first index');

Full('the health says writes are failing while they do, and not after', async () => {
  const at = fs.mkdtempSync(path.join(dir, 'full-'));
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', at]).status !== 0) {
    skipTest('cannot mount a tmpfs here (needs root): full disk');
    return;
  }
  process.prependOnceListener('exit', () => void spawnSync('umount', ['-l', at]));
  const root = path.join(dir, 'cfg');
  writeJsonl(path.join(root, 'projects', '-home-u-proj', 's1.jsonl'), Array.from({ length: 3000 }, (_, i) => line(i)));
  const index = path.join(at, 'i.db');
  const filler = path.join(at, 'filler');
  const free = fs.statfsSync(at);
  fs.writeFileSync(filler, Buffer.alloc(free.bavail * free.bsize - 400 * 1024)); // room to create the file, not for 3000 messages
  const server = await startAppServer({ dir: root, indexFile: index });
  const health = async () => (await getJson<Overview>(server, '/api/overview?range=3650')).health.index ?? [];
  try {
    await waitFor(() => /index write failed/.test(server.output()), 'the failed write', 20_000);
    const notes = await health();
    assert.ok(notes.some((n) => /^Index writes are failing \(the disk is full\): the figures show what was committed/.test(n)), JSON.stringify(notes));
    fs.rmSync(filler);
    await waitFor(async () => (await getJson<Overview>(server, '/api/overview?range=3650')).totals.messages === 3000, 'the whole history', 45_000);
    await waitFor(() => /index writes work again/.test(server.output()), 'the next commit', 5000);
    await fetch(`${server.url}/api/refresh`, { method: 'POST' });
    assert.equal(await health(), [], 'no note once writes work');
  } finally {
    await server.close();
  }
  spawnSync('umount', ['-l', at]);
});

Full.run();
