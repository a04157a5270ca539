// The statusline's background update (src/cli/background-update.ts): at most one at a time (none while a writer holds
// the index, none while the one started last is still starting or running, a new one once it has ended), started
// as `update --background`, which runs every thread of it at the lowest CPU priority. The updates are the real built
// command line (dist/main.js, `npm run build` first) over the real fixture transcripts.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCliArgs } from '../../src/cli/args.ts';
import { startBackgroundUpdate } from '../../src/cli/background-update.ts';
import { ConfigError } from '../../src/config/config.ts';
import { acquireWriterLock } from '../../src/index-db/writer-lock.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { DIST_MAIN, FIXTURE_CONFIG_DIR, PRICES_FILE, ROOT } from '../helpers/paths.ts';
import { skipTest } from '../helpers/skip.ts';
import { waitFor } from '../helpers/wait.ts';

const { dir } = tempDir('background-update-');
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/** The nice value of each thread of a process (Linux: /proc/<pid>/task/<tid>/stat, field 19). */
const niceOfThreads = (pid: number | 'self'): number[] =>
  fs.readdirSync(`/proc/${pid}/task`).map((tid) => Number(fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]));

const t = suite('background update');

t('--background is an option of update only', () => {
  assert.is(parseCliArgs(['update', '--background'], { HOME: dir }).background, true);
  assert.is(parseCliArgs(['update'], { HOME: dir }).background, false);
  assert.throws(() => parseCliArgs(['daily', '--background'], { HOME: dir }), (e: unknown) => e instanceof ConfigError);
});

t('lowestPriority: every thread of the process, those V8 started before it and a worker started after it', () => {
  if (process.platform !== 'linux') return skipTest('per-thread nice values are read from Linux /proc');
  const script = `
    import { Worker } from 'node:worker_threads';
    import { lowestPriority } from './src/cli/background-update.ts';
    lowestPriority();
    const worker = new Worker('setTimeout(() => {}, 1000)', { eval: true });
    worker.on('online', async () => {
      const fs = await import('node:fs');
      const nice = fs.readdirSync('/proc/self/task').map((t) => Number(fs.readFileSync('/proc/self/task/' + t + '/stat', 'utf8').split(') ')[1].split(' ')[16]));
      console.log(JSON.stringify(nice));
      process.exit(0);
    });`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  const nice = JSON.parse(r.stdout) as number[];
  assert.ok(nice.length >= 6, `threads: ${nice.length}`); // main, V8's helpers, the worker
  assert.equal([...new Set(nice)], [19]);
});

t('one at a time: none while a writer holds the index or the last one lives, then a new one; it runs at the lowest priority', async () => {
  const index = path.join(dir, 'index.db');
  const args = parseCliArgs(['statusline', '--dir', FIXTURE_CONFIG_DIR, '--index', index, '--offline', '--prices', PRICES_FILE], { HOME: dir });
  const lock = acquireWriterLock(index)!;
  assert.is(startBackgroundUpdate(args, DIST_MAIN), null, 'a writer (a server) keeps the index fresh');
  lock.release();

  const pid = startBackgroundUpdate(args, DIST_MAIN);
  assert.ok(pid !== null);
  const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  assert.equal(cmdline.slice(1, 4), [DIST_MAIN, 'update', '--background']);
  assert.is(startBackgroundUpdate(args, DIST_MAIN), null, 'the first one is starting');
  // Sampled while it runs (it reads the fixtures into a new index): each of its threads at nice 19.
  let lowered = false;
  while (alive(pid)) {
    try {
      const nice = niceOfThreads(pid);
      lowered ||= nice.length > 1 && nice.every((n) => n === 19);
    } catch {
      // it ended between the two reads
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  assert.ok(lowered, 'the update lowered every thread to nice 19');
  await waitFor(() => fs.existsSync(index), 'the index the update built', 5000);

  const next = startBackgroundUpdate(args, DIST_MAIN);
  assert.ok(next !== null && next !== pid, 'the last one ended: a new one starts');
  await waitFor(() => !alive(next), 'the second update to end', 30_000);
});

t.run();
