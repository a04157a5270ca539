// Issue 37, finding 4, on the real server: an index file deleted while the server writes it (a cleaner wiping the
// cache folder) is noticed on the server's periodic check and written back from the live connection; the lines
// appended after that land in the file on disk, and the page says what happened.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { getJson, startAppServer, untilIndexed } from '../helpers/app-server.ts';
import { tempDir, writeJsonl } from '../helpers/jsonl.ts';
import { waitFor } from '../helpers/wait.ts';
import { sqlValue } from '../helpers/sqlite.ts';

const { dir } = tempDir('index-deleted-');
interface Overview { totals: { messages: number }; health: { index?: string[] } }
const line = (id: string, i: number) => ({
  type: 'assistant', timestamp: new Date(Date.now() - 3_600_000 + i * 1000).toISOString(), sessionId: 's1', requestId: `req-${id}`,
  cwd: '/home/u/proj', message: { id: `msg-${id}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 1000, output_tokens: 100 + i } },
});
const root = path.join(dir, 'cfg');
const transcript = path.join(root, 'projects', '-home-u-proj', 's1.jsonl');
writeJsonl(transcript, Array.from({ length: 25 }, (_, i) => line(`a${i}`, i)));

const Deleted = suite('an index deleted while the server runs');

Deleted('is written back from the open connection, and what comes after lands in it', async () => {
  const folder = path.join(dir, 'cache');
  const index = path.join(folder, 'index.db');
  const server = await startAppServer({ dir: root, indexFile: index });
  try {
    await untilIndexed(server, 30_000);
    assert.is((await getJson<Overview>(server, '/api/overview?range=3650')).totals.messages, 25);
    fs.rmSync(folder, { recursive: true }); // the file, its -wal and -shm, its lock and key dump: the whole folder
    await waitFor(() => /was deleted while this server wrote it; wrote it back from the open index/.test(server.output()), 'the write-back', 20_000);
    assert.ok(fs.existsSync(index));
    fs.appendFileSync(transcript, `${JSON.stringify(line('b', 30))}\n`);
    await waitFor(async () => {
      await fetch(`${server.url}/api/refresh`, { method: 'POST' });
      return (await getJson<Overview>(server, '/api/overview?range=3650')).totals.messages === 26;
    }, 'the appended line', 20_000);
    const o = await getJson<Overview>(server, '/api/overview?range=3650');
    assert.match(o.health.index?.join('\n') ?? '', /^Index .* was deleted while this server wrote it; wrote it back from the open index/);
  } finally {
    await server.close();
  }
  assert.is(sqlValue(index, 'SELECT count(*) FROM messages'), 26, 'the file on disk holds the history and the line after');
  assert.is(sqlValue(index, 'SELECT sum(messages) FROM usage_total'), 26);
  assert.is(sqlValue(index, "SELECT value FROM meta WHERE key = 'open'"), '0', 'closed cleanly: the file the server wrote last');
});

Deleted.run();
