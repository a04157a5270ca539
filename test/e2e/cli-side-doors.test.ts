// The index's side doors seen from the command line: what is beside the index (its lock) or in it (a newer schema)
// must neither block a start with a message that blames the index nor cost history. Real built CLI, real files.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SCHEMA_VERSION } from '../../src/index-db/migrate.ts';
import { DIST_MAIN, PRICES_FILE, ROOT } from '../helpers/paths.ts';
import { cli } from '../helpers/cli.ts';
import { tempDir, writeJsonl } from '../helpers/jsonl.ts';
import { skipTest } from '../helpers/skip.ts';
import { sqlValue } from '../helpers/sqlite.ts';

const { dir } = tempDir('cli-side-doors-');
const root = path.join(dir, 'cfg');
const transcript = path.join(root, 'projects', '-home-u-proj', 's1.jsonl');
const line = (id: string, output: number) => ({
  type: 'assistant', timestamp: '2026-11-10T10:00:00.000Z', sessionId: 's1', requestId: `req-${id}`, cwd: '/home/u/proj',
  message: { id: `msg-${id}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 1000, output_tokens: output } },
});
writeJsonl(transcript, [line('a', 500), line('b', 700)]);
const flags = (index: string) => ['--dir', root, '--index', index, '--offline', '--prices', PRICES_FILE];
const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const outputTokens = async (index: string): Promise<number> => {
  const r = await cli(['daily', '--json', ...flags(index)], { env: { TZ: 'UTC' } });
  assert.is(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { totals: { outputTokens: number } }).totals.outputTokens;
};

const t = suite('side doors of the index, from the command line');

t('an index of a newer schema is not damage: exit 1 naming the newer version, the file left byte for byte', async () => {
  const index = path.join(dir, 'newer.db');
  assert.is(await outputTokens(index), 1200);
  // A newer install's migration: the schema version moves on, the rows stay.
  const db = new Database(index);
  db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  db.close();
  const before = sha(index);
  for (const command of [['daily', '--json'], ['update']]) {
    const r = await cli([...command, ...flags(index)], { env: { TZ: 'UTC' } });
    assert.is(r.code, 1, `${command[0]}: ${r.stderr}`);
    assert.match(r.stderr, /written by a newer version of cost-dashboard \(schema \d+, this one knows \d+\)/);
    assert.not.match(r.stderr, /damaged/);
  }
  assert.is(sha(index), before, 'untouched');
  assert.equal(fs.readdirSync(dir).filter((f) => f.includes('.damaged-')), [], 'nothing set aside');
});

t('a lock file with garbage in it is emptied in place and the command runs (it holds no data)', async () => {
  const index = path.join(dir, 'lock.db');
  assert.is(await outputTokens(index), 1200);
  const lock = `${index}.lock`;
  const inode = fs.statSync(lock).ino;
  fs.writeFileSync(lock, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)));
  assert.is(await outputTokens(index), 1200);
  assert.is(fs.statSync(lock).ino, inode, 'the same lock file: a second process locks the same inode');
  assert.equal(fs.readdirSync(dir).filter((f) => f.includes('.damaged-')), [], 'the index was not blamed');
});

t('update on a full disk fails (exit 1) instead of saying the index is up to date; with space back it catches up', async () => {
  const at = fs.mkdtempSync(path.join(dir, 'full-'));
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', at]).status !== 0) {
    skipTest('cannot mount a tmpfs here (needs root): full disk');
    return;
  }
  process.prependOnceListener('exit', () => void spawnSync('umount', ['-l', at]));
  const index = path.join(at, 'i.db');
  const first = await cli(['update', ...flags(index)], { env: { TZ: 'UTC' } });
  assert.is(first.code, 0, first.stderr);
  const more = path.join(root, 'projects', '-home-u-proj', 's2.jsonl');
  writeJsonl(more, Array.from({ length: 3000 }, (_, i) => ({ ...line(`full${i}`, 10 + i), sessionId: 's2' })));
  // The disk fills up while the update runs: one file takes every free block but what opening the index needs.
  const filler = path.join(at, 'filler');
  const fd = fs.openSync(filler, 'w');
  try {
    for (;;) fs.writeSync(fd, Buffer.alloc(4096));
  } catch (err) {
    assert.is((err as NodeJS.ErrnoException).code, 'ENOSPC');
  } finally {
    fs.closeSync(fd);
  }
  fs.truncateSync(filler, fs.statSync(filler).size - 160 * 1024);
  const full = await cli(['update', ...flags(index)], { env: { TZ: 'UTC' } });
  assert.is(full.code, 1, full.stderr);
  assert.match(full.stderr, /the index was not brought up to date: it cannot be written now/, full.stderr);
  assert.not.match(full.stderr, /index up to date/);
  assert.is(sqlValue(index, 'SELECT count(*) FROM messages'), 2, 'what was committed is kept');
  fs.rmSync(filler);
  const again = await cli(['update', ...flags(index)], { env: { TZ: 'UTC' } });
  assert.is(again.code, 0, again.stderr);
  assert.match(again.stderr, /index up to date/);
  assert.is(sqlValue(index, 'SELECT count(*) FROM messages'), 3002);
  fs.rmSync(more);
  spawnSync('umount', ['-l', at]);
});

t('a start on a read-only index leaves no read-only -shm behind: once the index is writable again, the writer opens it', () => {
  // As root every file is writable: the read-only index needs an ordinary user (nobody), where setpriv can switch to it.
  const as = (args: string[]) => spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, DIST_MAIN, ...args],
    { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, HOME: dir, TZ: 'UTC', CLAUDE_CONFIG_DIR: '', COST_INDEX: '' } });
  if (process.getuid?.() !== 0 || as(['--version']).status !== 0) {
    skipTest('needs root and setpriv to run the command as another user: read-only index');
    return;
  }
  fs.chmodSync(dir, 0o755); // nobody passes through the test's folder
  const folder = fs.mkdtempSync(path.join(dir, 'ro-'));
  const cfg = path.join(folder, 'cfg');
  const own = path.join(cfg, 'projects', '-home-u-proj', 's1.jsonl');
  writeJsonl(own, [line('a', 500)]);
  for (const p of [folder, cfg, path.dirname(path.dirname(own)), path.dirname(own), own]) fs.chownSync(p, 65534, 65534);
  const index = path.join(folder, 'i.db');
  const args = ['--dir', cfg, '--index', index, '--offline', '--prices', PRICES_FILE];
  const created = as(['update', ...args]);
  assert.is(created.status, 0, created.stderr);
  fs.chmodSync(index, 0o444);
  fs.appendFileSync(own, `${JSON.stringify(line('b', 700))}\n`);
  const refused = as(['update', ...args]);
  assert.is(refused.status, 1, refused.stderr);
  assert.match(refused.stderr, /cannot be written/);
  const report = as(['daily', '--json', ...args]); // the read-only path: it may read the index as it is
  assert.ok(report.status === 0 || report.status === 1, report.stderr);
  for (const side of ['-wal', '-shm']) {
    const p = index + side;
    assert.ok(!fs.existsSync(p) || (fs.statSync(p).mode & 0o200) !== 0, `${side} left read-only`);
  }
  fs.chmodSync(index, 0o644); // the user fixes the index
  const fixed = as(['update', ...args]);
  assert.is(fixed.status, 0, fixed.stderr);
  assert.is(sqlValue(index, 'SELECT count(*) FROM messages'), 2);
  // A read-only -shm left by an older version (before this fix): the refusal names it.
  fs.writeFileSync(`${index}-shm`, Buffer.alloc(32768));
  fs.chownSync(`${index}-shm`, 65534, 65534);
  fs.chmodSync(`${index}-shm`, 0o444);
  fs.appendFileSync(own, `${JSON.stringify(line('c', 900))}\n`);
  const named = as(['update', ...args]);
  assert.is(named.status, 1, named.stderr);
  assert.match(named.stderr, /i\.db-shm beside it is read-only: remove it once the index is writable/);
});

t.run();
