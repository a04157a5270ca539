// The built server over an index it must not lose: two servers on one file (one writes, the other
// reads and takes over), a file damaged after a clean shutdown, a read-only file, a full disk.
// Real server processes, real SQLite files, real transcripts appended while they run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { FIXTURE_CONFIG_DIR } from '../helpers/paths.ts';
import { skipTest } from '../helpers/skip.ts';
import { tempDir, writeJsonl } from '../helpers/jsonl.ts';
import { waitFor } from '../helpers/wait.ts';
import { damageRollupPages, sqlValue } from '../helpers/sqlite.ts';

const { dir } = tempDir('index-trust-main-');
let n = 0;
interface Overview { totals: { cost: number; messages: number } }
const totals = async (s: AppServer) => {
  await fetch(`${s.url}/api/refresh`, { method: 'POST' });
  return (await getJson<Overview>(s, '/api/overview?range=3650')).totals;
};
const line = (id: string, ts: string, output: number) => ({
  type: 'assistant', timestamp: ts, sessionId: 's1', requestId: `req-${id}`, cwd: '/home/u/proj',
  message: { id: `msg-${id}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 1000, output_tokens: output } },
});
/** A config dir with one session of `count` responses. */
function corpus(count: number): { dir: string; transcript: string } {
  const root = path.join(dir, `cfg${++n}`);
  const transcript = path.join(root, 'projects', '-home-u-proj', 's1.jsonl');
  writeJsonl(transcript, Array.from({ length: count }, (_, i) => line(`${n}-${i}`, new Date(Date.now() - 3_600_000 + i * 1000).toISOString(), 100 + i)));
  return { dir: root, transcript };
}
/** Equal totals; the cost to 1e-9 (a rebuilt index may sum the same costs in another order). */
const same = (a: Overview['totals'], b: Overview['totals']): boolean =>
  Math.abs(a.cost - b.cost) < 1e-9 && JSON.stringify({ ...a, cost: 0 }) === JSON.stringify({ ...b, cost: 0 });

const Two = suite('two servers on one index');

Two('the second reads without writing, sees the first one\'s writes, and takes over when it stops', async () => {
  const c = corpus(8);
  const index = path.join(dir, `two${n}.db`);
  const first = await startAppServer({ dir: c.dir, args: ['--index', index] });
  let second: AppServer | null = null;
  try {
    await untilIndexed(first, 20_000);
    second = await startAppServer({ dir: c.dir, args: ['--index', index] });
    await waitFor(() => /being written by another process \(pid \d+/.test(second!.output()), 'the reader line', 10_000);
    const want = await totals(first);
    assert.is(want.messages, 8);
    // The writer commits within a second; the reader sees each commit.
    await waitFor(async () => same(await totals(second!), want), 'the reader to see the commit', 10_000);
    // Both run while the transcript grows: one writer, so nothing is counted twice.
    fs.appendFileSync(c.transcript, `${JSON.stringify(line('late-1', new Date().toISOString(), 7))}\n`);
    await waitFor(async () => (await totals(second!)).messages === 9, 'the append, through the writer', 10_000);
    await first.close();
    await waitFor(() => /writing it from now on/.test(second!.output()), 'the take-over', 15_000);
    fs.appendFileSync(c.transcript, `${JSON.stringify(line('late-2', new Date().toISOString(), 7))}\n`);
    await waitFor(async () => (await totals(second!)).messages === 10, 'the append after the take-over', 15_000);
    await second.close();
    assert.is(sqlValue(index, 'SELECT count(*) FROM messages'), 10, 'each message once in the file');
    assert.is(sqlValue(index, 'SELECT sum(messages) FROM usage_hourly'), 10);
  } finally {
    await first.close();
    await second?.close();
  }
});

Two.run();

const Damaged = suite('an index damaged after a clean shutdown');

Damaged('is found by the first query, set aside, and rebuilt from the transcripts', async () => {
  const index = path.join(dir, `damaged${++n}.db`);
  const first = await startAppServer({ args: ['--index', index] });
  let want: Overview['totals'];
  try {
    await untilIndexed(first, 30_000);
    want = await totals(first);
  } finally {
    await first.close();
  }
  assert.is(sqlValue(index, "SELECT value FROM meta WHERE key = 'open'"), '0', 'closed cleanly');
  damageRollupPages(index);
  const again = await startAppServer({ args: ['--index', index] });
  try {
    await fetch(`${again.url}/api/overview?range=3650`); // meets the damage
    await waitFor(() => /kept the damaged index as/.test(again.output()), 'the damaged file set aside', 15_000);
    await waitFor(async () => {
      const res = await fetch(`${again.url}/api/overview?range=3650`);
      return res.ok && ((await res.json()) as { indexing: { done: boolean } }).indexing.done;
    }, 'the rebuilt index', 30_000);
    const got = await totals(again);
    assert.ok(same(got, want!), `${JSON.stringify(got)} vs ${JSON.stringify(want!)}`);
    assert.is(fs.readdirSync(dir).filter((f) => f.startsWith(`damaged${n}.db.damaged-`) && f.endsWith('.db'.slice(3))).length >= 1, true);
  } finally {
    await again.close();
  }
});

Damaged.run();

const Refused = suite('an index that cannot be written');

Refused('read-only: one clear line, exit code 1, and the file left as it is', () => {
  const at = fs.mkdtempSync(path.join(dir, 'ro-'));
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', at]).status !== 0) {
    skipTest('cannot mount a tmpfs here (needs root): read-only index');
    return;
  }
  process.prependOnceListener('exit', () => void spawnSync('umount', ['-l', at]));
  const index = path.join(at, 'i.db');
  const db = new Database(index);
  db.exec('CREATE TABLE t (x)');
  db.close();
  const before = fs.readFileSync(index);
  assert.is(spawnSync('mount', ['-o', 'remount,ro', at]).status, 0);
  const r = spawnSync(process.execPath, [path.resolve('dist/main.js'), '--dir', FIXTURE_CONFIG_DIR, '--port', '0', '--offline', '--index', index],
    { encoding: 'utf8', timeout: 20_000 });
  assert.is(r.status, 1, r.stderr);
  assert.match(r.stderr, /^cost-dashboard: .*index .*(cannot be written|read-only)/, r.stderr);
  assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.ok(fs.readFileSync(index).equals(before));
  spawnSync('umount', ['-l', at]);
});

Refused('a full disk: the server keeps serving what is committed, and the history is whole once space returns, with no restart', async () => {
  const at = fs.mkdtempSync(path.join(dir, 'full-'));
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', at]).status !== 0) {
    skipTest('cannot mount a tmpfs here (needs root): full disk');
    return;
  }
  process.prependOnceListener('exit', () => void spawnSync('umount', ['-l', at]));
  const index = path.join(at, 'i.db');
  const c = corpus(3000);
  const filler = path.join(at, 'filler');
  const free = fs.statfsSync(at);
  fs.writeFileSync(filler, Buffer.alloc(free.bavail * free.bsize - 400 * 1024)); // room to create the file, not for 3000 messages
  const server = await startAppServer({ dir: c.dir, args: ['--index', index] });
  try {
    await waitFor(() => /index write failed/.test(server.output()), 'the failed write', 20_000);
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${server.url}/api/overview?range=3650`);
      assert.is(res.status, 200, 'still serving');
      await new Promise((r) => setTimeout(r, 300));
    }
    assert.is(server.child.exitCode, null, 'still running');
    assert.is(server.output().match(/index write failed/g)!.length, 1, `logged once:\n${server.output()}`);
    // Space returns: the periodic cursor check (every 30 s) reads again what the failed commit dropped.
    fs.rmSync(filler);
    await waitFor(async () => (await totals(server)).messages === 3000, 'the whole history', 45_000);
    await waitFor(() => /index writes work again/.test(server.output()), 'the next commit', 5000);
  } finally {
    await server.close();
  }
  assert.is(sqlValue(index, 'SELECT count(*) FROM messages'), 3000);
  assert.is(sqlValue(index, 'SELECT sum(messages) FROM usage_hourly'), 3000);
  spawnSync('umount', ['-l', at]);
});

Refused.run();
