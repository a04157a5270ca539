// The real built server as a process: it answers while it indexes, stops cleanly on SIGINT/SIGTERM
// (exit 0, index committed), and a restart on the same index answers from it at once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { FIXTURE_CONFIG_DIR, PRICES_FILE } from '../helpers/paths.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { spawnServer, standaloneEnv, type ServerProcess } from '../helpers/server-process.ts';
import { waitFor } from '../helpers/wait.ts';

const start = (indexFile: string): Promise<ServerProcess> =>
  spawnServer({ args: ['--dir', FIXTURE_CONFIG_DIR, '--port', '0', '--index', indexFile, '--offline', '--prices', PRICES_FILE] });

async function session(port: number, id: string): Promise<{ messageCount: number } | null> {
  const res = await fetch(`http://127.0.0.1:${port}/api/sessions/${id}`);
  return res.ok ? ((await res.json()) as { messageCount: number }) : null;
}

const Lifecycle = suite('server lifecycle');

Lifecycle('SIGTERM and SIGINT stop the server with exit code 0; a restart answers from the index at once', async () => {
  const { dir, cleanup } = tempDir('cost-life-');
  const indexFile = path.join(dir, 'index.db');
  try {
    const first = await start(indexFile);
    await waitFor(async () => (await session(first.port, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b'))?.messageCount === 170, 'the fixture session');
    await waitFor(() => first.stderr().includes('indexed 9 files'), 'the start-up scan');
    assert.is(await first.stop('SIGTERM'), 0, 'SIGTERM exits 0');

    const second = await start(indexFile);
    // Answers from the index file at once, before or without reading a transcript.
    assert.is((await session(second.port, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b'))?.messageCount, 170);
    await waitFor(() => second.stderr().includes('indexed 9 files'), 'the warm scan');
    const stats = (await (await fetch(`http://127.0.0.1:${second.port}/api/overview?range=3650`)).json()) as { totals: { messages: number } };
    assert.is(stats.totals.messages, 311, 'same totals after the restart');
    assert.not.match(second.stderr(), /re-reading|rebuild/, 'nothing re-read, nothing rebuilt');
    assert.is(await second.stop('SIGINT'), 0, 'SIGINT exits 0');
  } finally {
    cleanup();
  }
});

// Issue 37: the default index is data (the user data dir), no longer in the cache dir that cleaners wipe.
Lifecycle('a fresh machine: the default index goes into a data dir that does not exist yet', async () => {
  const { dir: home, cleanup } = tempDir('cost-home-');
  try {
    const server = await spawnServer({
      args: ['--dir', FIXTURE_CONFIG_DIR, '--port', '0', '--offline'],
      env: standaloneEnv({ HOME: home, XDG_CACHE_HOME: '', XDG_DATA_HOME: '', COST_INDEX: '' }),
    });
    try {
      const dbs = fs.readdirSync(path.join(home, '.local', 'share', 'cost-dashboard'));
      assert.ok(dbs.some((f) => f.endsWith('.db')), `index created in ~/.local/share/cost-dashboard: ${dbs.join(', ')}`);
      assert.not.ok(fs.existsSync(path.join(home, '.cache', 'cost-dashboard')), 'nothing in the cache dir');
    } finally {
      assert.is(await server.stop('SIGTERM'), 0);
    }
  } finally {
    cleanup();
  }
});

Lifecycle.run();
