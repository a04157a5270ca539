// The freshness rule of a report without a server, through the built command line: an index that matches the disk
// is answered from as it is (the folder listings beside it spare the walk every unchanged folder's read), and each
// kind of change on disk shows in the very next report: an appended line, a new transcript in a folder the listings
// hold, a new folder, a deleted transcript (its rows stay), and a rewritten one (its rows replaced).
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PRICES_FILE } from '../helpers/paths.ts';
import { cli } from '../helpers/cli.ts';
import { tempDir, writeJsonl } from '../helpers/jsonl.ts';
import { sleep } from '../helpers/wait.ts';

const FOLDERS = 40;
const { dir } = tempDir('cli-freshness-');
const projects = path.join(dir, 'cfg', 'projects');
const index = path.join(dir, 'index.db');
const flags = ['--dir', path.dirname(projects), '--index', index, '--offline', '--prices', PRICES_FILE];
const transcript = (folder: string, session: string): string => path.join(projects, folder, `${session}.jsonl`);
const line = (session: string, id: string, output: number) => ({
  type: 'assistant', timestamp: '2026-11-10T10:00:00.000Z', sessionId: session, requestId: `req-${id}`, cwd: '/home/u/proj',
  message: { id: `msg-${id}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 10, output_tokens: output } },
});
for (let i = 0; i < FOLDERS; i++) writeJsonl(transcript(`-p${i}`, `s${i}`), [line(`s${i}`, `${i}`, 1)]);

const outputTokens = async (): Promise<number> => {
  const r = await cli(['daily', '--json', ...flags], { env: { TZ: 'UTC' } });
  assert.is(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { totals: { outputTokens: number } }).totals.outputTokens;
};

const t = suite('a report sees every change on disk');

t('append, new transcript, new folder, deletion, rewrite: each in the next report', async () => {
  const update = await cli(['update', ...flags], { env: { TZ: 'UTC' }, timeoutMs: 120_000 });
  assert.is(update.code, 0, update.stderr);
  // Past the listings' 3 s margin, so this report's walk keeps every folder and the next ones take them from there.
  await sleep(3_200);
  assert.is(await outputTokens(), FOLDERS);
  const listings = JSON.parse(fs.readFileSync(`${index}.listing.json`, 'utf8')) as { folders: unknown[] };
  assert.is(listings.folders.length, FOLDERS + 1, 'every folder is kept: the projects dir and each project');
  assert.is(await outputTokens(), FOLDERS, 'unchanged');

  fs.appendFileSync(transcript('-p0', 's0'), `${JSON.stringify(line('s0', 'appended', 100))}\n`);
  assert.is(await outputTokens(), FOLDERS + 100, 'an appended line');
  writeJsonl(transcript('-p1', 'added'), [line('added', 'added', 1_000)]);
  assert.is(await outputTokens(), FOLDERS + 1_100, 'a new transcript in a listed folder');
  writeJsonl(transcript('-new', 'fresh'), [line('fresh', 'fresh', 10_000)]);
  assert.is(await outputTokens(), FOLDERS + 11_100, 'a new folder');
  fs.rmSync(transcript('-p2', 's2'));
  assert.is(await outputTokens(), FOLDERS + 11_100, 'a deleted transcript keeps its rows');
  // Rewritten: other first bytes (the same fields in another order), so its rows are dropped and it is read again.
  const { requestId, ...rest } = line('s3', 'rewritten', 100_000);
  writeJsonl(transcript('-p3', 's3'), [{ requestId, ...rest }]);
  assert.is(await outputTokens(), FOLDERS - 1 + 111_100, 'a rewritten transcript');
  assert.is(await outputTokens(), FOLDERS - 1 + 111_100, 'unchanged again');
});

t.run();
