// Issue 37: a project folder the server cannot read is logged once and counted in the overview's health
// (`skipped.unreadableFolders`), while the other folders are read. The built server runs as a user the
// folder shuts out (root reads any folder whatever its mode), so the test needs root and setpriv.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Overview } from '../../src/shared/api-types.ts';
import { usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { DIST_MAIN } from '../helpers/paths.ts';
import { READY_LINE, standaloneEnv } from '../helpers/server-process.ts';
import { skipTest } from '../helpers/skip.ts';
import { waitFor } from '../helpers/wait.ts';

const get = (port: number, route: string): Promise<string> =>
  new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: route }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => resolve(body));
    }).on('error', reject);
  });

const t = suite('an unreadable folder');

t('is logged once (the re-check after the watcher\'s walk lists it again) and counted in health.skipped.unreadableFolders', async () => {
  if (process.getuid?.() !== 0) return skipTest('needs root, to run the server as a user the folder shuts out');
  let setpriv: string;
  try {
    setpriv = execFileSync('sh', ['-c', 'command -v setpriv'], { encoding: 'utf8' }).trim();
  } catch {
    return skipTest('setpriv is not installed');
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'unreadable-folder-'));
  fs.chmodSync(root, 0o777);
  const projects = path.join(root, 'claude', 'projects');
  const open = path.join(projects, '-home-me-open');
  const locked = path.join(projects, '-home-me-locked');
  const line = (id: string) => usageLine({ sessionId: id, messageId: id, requestId: `r-${id}`, timestamp: '2026-01-05T10:00:00.000Z', output: 100 });
  writeJsonl(path.join(open, 'a.jsonl'), [line('a')]);
  writeJsonl(path.join(locked, 'b.jsonl'), [line('b')]);
  for (const d of [path.join(root, 'claude'), projects, open]) fs.chmodSync(d, 0o755);
  fs.chmodSync(locked, 0o000);
  const child = spawn(setpriv, ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, DIST_MAIN,
    '--port', '0', '--dir', path.join(root, 'claude'), '--index', path.join(root, 'index.db'), '--offline'], {
    env: standaloneEnv({ HOME: root }), stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
  try {
    await waitFor(() => READY_LINE.test(out), 'the ready line', 20_000);
    const port = Number(READY_LINE.exec(out)![1]);
    const overview = async () => JSON.parse(await get(port, '/api/overview?range=all')) as Overview;
    await waitFor(async () => (await overview()).indexing.done, 'indexed', 20_000);
    const o = await overview();
    assert.is(o.totals.messages, 1, 'the open folder is read');
    assert.is(o.health.skipped.unreadableFolders, 1);
    // The watcher's walk, then a re-check that lists every folder again: still one line.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.is(out.split(`folder ${locked} cannot be read (EACCES)`).length - 1, 1, out);
  } finally {
    child.kill('SIGKILL');
    fs.chmodSync(locked, 0o755);
    fs.rmSync(root, { recursive: true, force: true });
  }
});

t.run();
