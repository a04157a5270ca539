// Issue 37 finding 5 through the built server and command line: an index an older version left in the user cache dir
// (holding the history of a transcript deleted since) is moved to the user data dir by the first writer that starts,
// with a log line, and its history is served from there; backup reads it where it is and restore moves it first.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Overview } from '../../src/shared/api-types.ts';
import { cli } from '../helpers/cli.ts';
import { usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { spawnServer, standaloneEnv } from '../helpers/server-process.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'index-move-'));
const home = path.join(tmp, 'home');
const dir = path.join(tmp, 'claude');
const env = { HOME: home, XDG_CACHE_HOME: '', XDG_DATA_HOME: '' };
const dataDir = path.join(home, '.local', 'share', 'cost-dashboard');
const cacheDir = path.join(home, '.cache', 'cost-dashboard');

interface Daily { totals: { totalCost: number; totalTokens: number } }

/** Moves every file of the data dir to the cache dir: the place a version before issue 37 kept them. */
function backToCacheDir(): string[] {
  fs.mkdirSync(cacheDir, { recursive: true });
  const names = fs.readdirSync(dataDir).filter((n) => !n.endsWith('.lock'));
  for (const n of names) fs.renameSync(path.join(dataDir, n), path.join(cacheDir, n));
  return names;
}

const get = (port: number, route: string): Promise<string> =>
  new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: route }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => resolve(body));
    }).on('error', reject);
  });

const Move = suite('the default index moves out of the cache dir');
let before: Daily;
Move.before(async () => {
  const file = writeJsonl(path.join(dir, 'projects', '-home-me-app', 'sess-1.jsonl'), [
    usageLine({ sessionId: 'sess-1', messageId: 'm1', requestId: 'r1', timestamp: '2026-01-05T10:00:00.000Z', output: 1000 }),
    usageLine({ sessionId: 'sess-1', messageId: 'm2', requestId: 'r2', timestamp: '2026-01-06T10:00:00.000Z', output: 2000 }),
  ]);
  const built = await cli(['daily', '--json', '--dir', dir, '--offline'], { env });
  assert.is(built.code, 0, built.stderr);
  before = JSON.parse(built.stdout) as Daily;
  assert.ok(before.totals.totalCost > 0);
  // The transcript is gone (Claude Code deletes sessions after 30 days): the index is its only copy.
  fs.rmSync(file);
});
Move.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

Move('a command moves it, with its side files, says so once, and reports the same history', async () => {
  const names = backToCacheDir();
  assert.ok(names.some((n) => n.endsWith('.db')) && names.some((n) => n.endsWith('.keys')), names.join(' '));
  const r = await cli(['daily', '--json', '--dir', dir, '--offline'], { env });
  assert.is(r.code, 0, r.stderr);
  assert.equal((JSON.parse(r.stdout) as Daily).totals, before.totals);
  assert.match(r.stderr, `index moved from ${cacheDir}`);
  for (const n of names) {
    assert.ok(fs.existsSync(path.join(dataDir, n)), `${n} moved`);
    assert.not.ok(fs.existsSync(path.join(cacheDir, n)), `${n} left`);
  }
  const again = await cli(['daily', '--json', '--dir', dir, '--offline'], { env });
  assert.not.match(again.stderr, 'index moved');
});

Move('the server moves it too, logs it, and serves the deleted transcript\'s cost', async () => {
  backToCacheDir();
  const server = await spawnServer({ args: ['--port', '0', '--dir', dir, '--offline'], env: standaloneEnv(env) });
  try {
    assert.match(server.output(), `index moved from ${cacheDir}`);
    const o = JSON.parse(await get(server.port, '/api/overview?range=all')) as Overview;
    assert.is(o.totals.totalTokens, before.totals.totalTokens);
    assert.ok(Math.abs(o.totals.cost - before.totals.totalCost) < 1e-9);
    assert.ok(fs.readdirSync(dataDir).some((n) => n.endsWith('.db')));
    assert.not.ok(fs.readdirSync(cacheDir).some((n) => n.endsWith('.db')));
  } finally {
    await server.stop();
  }
});

Move('backup reads it in the cache dir, where it still is; restore moves it first, then replaces it', async () => {
  backToCacheDir();
  const target = path.join(tmp, 'backup.db');
  const b = await cli(['backup', target, '--dir', dir, '--offline'], { env });
  assert.is(b.code, 0, b.stderr);
  assert.match(b.stderr, `backed up ${cacheDir}`);
  assert.ok(fs.readdirSync(cacheDir).some((n) => n.endsWith('.db')), 'a backup moves nothing');
  const r = await cli(['restore', target, '--force', '--dir', dir, '--offline'], { env });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stderr, `index moved from ${cacheDir}`);
  assert.match(r.stderr, `restored ${dataDir}`);
  assert.not.ok(fs.readdirSync(cacheDir).some((n) => n.endsWith('.db')));
  const after = await cli(['daily', '--json', '--dir', dir, '--offline'], { env });
  assert.equal((JSON.parse(after.stdout) as Daily).totals, before.totals);
});

Move.run();
