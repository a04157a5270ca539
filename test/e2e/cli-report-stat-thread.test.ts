// A report over a history big enough for the stat thread (src/cli/stat-thread.ts: the transcripts stat'ed on a
// worker thread while the main thread reads the cursors and the report) keeps the freshness rule exactly: with
// nothing changed it answers from the index without writing it, as the report without the thread does, and an
// append, a new transcript and a rewritten one each show in the very next report, a deleted one's usage stays. A --require'd probe
// records each thread the process starts, so every case is known to have taken that path.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STAT_THREAD_MIN_FILES } from '../../src/cli/run-report.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { cli } from '../helpers/cli.ts';
import { tempDir, writeJsonl } from '../helpers/jsonl.ts';
import { sleep } from '../helpers/wait.ts';

const { dir } = tempDir('cli-stat-thread-');
const root = path.join(dir, 'cfg');
const index = path.join(dir, 'index.db');
// Over the threshold by more than the folders each case changes hold (a folder changed under 3 s ago is not kept).
const FILES = STAT_THREAD_MIN_FILES + 1_000;
const line = (id: string, output: number, session: string, timestamp = '2026-11-10T10:00:00.000Z') => ({
  type: 'assistant', timestamp, sessionId: session, requestId: `req-${id}`, cwd: '/home/u/proj',
  message: { id: `msg-${id}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 100, output_tokens: output } },
});
const transcript = (i: number): string => path.join(root, 'projects', `-home-u-p${i % 25}`, `s${i}.jsonl`);
for (let i = 0; i < FILES; i++) writeJsonl(transcript(i), [line(`m${i}`, 10, `s${i}`)]);

const probe = path.join(dir, 'probe.cjs');
const started = path.join(dir, 'threads.txt');
fs.writeFileSync(probe, `const wt = require('node:worker_threads');
if (wt.isMainThread) {
  const Base = wt.Worker;
  wt.Worker = class extends Base {
    constructor(file, opts) { super(file, opts); require('node:fs').appendFileSync(${JSON.stringify(started)}, String(file) + '\\n'); }
  };
}
`);
const flags = ['--dir', root, '--index', index, '--offline', '--prices', PRICES_FILE];
const env = { TZ: 'UTC', NODE_OPTIONS: `--require ${probe}` };
const sha = (): string => crypto.createHash('sha256').update(fs.readFileSync(index)).digest('hex');

/** One `daily --json`: its output tokens, its JSON, and whether it started the stat thread. */
async function report(): Promise<{ output: number; json: string; threaded: boolean }> {
  fs.rmSync(started, { force: true });
  const r = await cli(['daily', '--json', ...flags], { env });
  assert.is(r.code, 0, r.stderr);
  const threads = fs.existsSync(started) ? fs.readFileSync(started, 'utf8') : '';
  return { output: (JSON.parse(r.stdout) as { totals: { outputTokens: number } }).totals.outputTokens, json: r.stdout, threaded: /stat-worker\.cjs\n/.test(threads) };
}

const t = suite('a report with the stat thread');

t.before(async () => {
  // Folders older than the listings' 3 s margin, so the update keeps their listings and later checks know every file.
  await sleep(3_200);
  const update = await cli(['update', ...flags], { env: { TZ: 'UTC' } });
  assert.is(update.code, 0, update.stderr);
});

t('nothing changed: the answer of the report without the thread, and the index file untouched', async () => {
  const before = sha();
  const threaded = await report();
  assert.ok(threaded.threaded, 'the stat thread ran');
  assert.is(threaded.output, FILES * 10);
  assert.is(sha(), before, 'no write to the index');
  // Without the listings the check knows no file beforehand and stats on its own thread.
  fs.renameSync(`${index}.listing.json`, `${index}.listing.json.kept`);
  const own = await report();
  fs.renameSync(`${index}.listing.json.kept`, `${index}.listing.json`);
  assert.not.ok(own.threaded);
  assert.is(own.json, threaded.json);
});

t('an appended line shows in the next report', async () => {
  fs.appendFileSync(transcript(7), `${JSON.stringify(line('appended', 300, 's7'))}\n`);
  const r = await report();
  assert.ok(r.threaded);
  assert.is(r.output, FILES * 10 + 300);
});

t('a new transcript in a folder the listings hold shows in the next report', async () => {
  writeJsonl(path.join(path.dirname(transcript(3)), 'new.jsonl'), [line('new', 1000, 'new')]);
  const r = await report();
  assert.ok(r.threaded);
  assert.is(r.output, FILES * 10 + 1300);
});

t('a deleted transcript: the next report still counts its usage (the index keeps history) and reads nothing', async () => {
  const before = sha();
  fs.rmSync(transcript(11));
  const r = await report();
  assert.ok(r.threaded);
  assert.is(r.output, FILES * 10 + 1300);
  assert.is(sha(), before);
});

t('a rewritten transcript is read again from scratch by the next report', async () => {
  // Other first bytes than the file it replaces (its head is how a rewrite is told from an append).
  writeJsonl(transcript(20), [line('rewritten', 77, 's20', '2026-11-10T11:00:00.000Z')]);
  const r = await report();
  assert.ok(r.threaded);
  assert.is(r.output, FILES * 10 + 1300 - 10 + 77);
  // And then nothing is left to read: the thread's check finds the index up to date.
  const before = sha();
  assert.is((await report()).output, FILES * 10 + 1300 - 10 + 77);
  assert.is(sha(), before);
});

t.run();
