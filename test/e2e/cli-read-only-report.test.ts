// A report with no server, over an index that already holds every transcript as it is on disk, only reads: the
// index file is left byte for byte as it was (a writer would record itself and mark the file open, then clean). One
// appended line makes the next report the writer again, and it shows the line. A new transcript in a folder the
// listings beside the index hold (listed more than 3 s after its last change) is found too. Such a report opens only
// the reports' reads (index-db/report-reader.ts), not the dashboard's queries, whose preparing cost it more than its
// own reads (issue 35): over a copy of the index without a table that only the dashboard reads, it still answers.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Database from 'better-sqlite3';
import { openIndexReader } from '../../src/index-db/index.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { cli } from '../helpers/cli.ts';
import { tempDir, writeJsonl } from '../helpers/jsonl.ts';
import { sleep } from '../helpers/wait.ts';

const { dir } = tempDir('cli-read-only-');
const root = path.join(dir, 'cfg');
const index = path.join(dir, 'index.db');
const transcript = path.join(root, 'projects', '-home-u-proj', 's1.jsonl');
const line = (id: string, output: number) => ({
  type: 'assistant', timestamp: '2026-11-10T10:00:00.000Z', sessionId: 's1', requestId: `req-${id}`, cwd: '/home/u/proj',
  message: { id: `msg-${id}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 1000, output_tokens: output } },
});
writeJsonl(transcript, [line('a', 500), line('b', 700)]);
const flags = ['--dir', root, '--index', index, '--offline', '--prices', PRICES_FILE];
const fingerprint = () => ({ mtimeMs: fs.statSync(index).mtimeMs, sha: crypto.createHash('sha256').update(fs.readFileSync(index)).digest('hex') });
const outputTokens = async (): Promise<number> => {
  const r = await cli(['daily', '--json', ...flags], { env: { TZ: 'UTC' } });
  assert.is(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { totals: { outputTokens: number } }).totals.outputTokens;
};

const t = suite('a report over an unchanged history only reads');

t('nothing changed: the index file is untouched; one more line: the report reads it', async () => {
  const update = await cli(['update', ...flags], { env: { TZ: 'UTC' } });
  assert.is(update.code, 0, update.stderr);
  const before = fingerprint();
  assert.is(await outputTokens(), 1200);
  assert.is(await outputTokens(), 1200);
  assert.equal(fingerprint(), before, 'no write to the index');
  fs.appendFileSync(transcript, `${JSON.stringify(line('c', 300))}\n`);
  assert.is(await outputTokens(), 1500);
  assert.not.equal(fingerprint().sha, before.sha, 'the new line was written');
});

t('a new transcript in a folder the listings hold: the report lists that folder again and shows it', async () => {
  // Older than the listings' 3 s margin, so the next walk keeps this folder's listing.
  await sleep(3_200);
  assert.is(await outputTokens(), 1500);
  const listings = JSON.parse(fs.readFileSync(`${index}.listing.json`, 'utf8')) as { folders: [string, ...unknown[]][] };
  assert.ok(listings.folders.some((f) => f[0] === path.dirname(transcript)), 'the project folder is kept');
  writeJsonl(path.join(path.dirname(transcript), 's2.jsonl'), [{ ...line('d', 1000), sessionId: 's2' }]);
  assert.is(await outputTokens(), 2500);
});

t('a report prepares only its own reads, none of the dashboard\'s', async () => {
  const copy = path.join(dir, 'copy.db');
  fs.copyFileSync(index, copy);
  // limit_readings: read by the dashboard's limits queries (prepared by the full reader), never by a report.
  const db = new Database(copy);
  db.exec('DROP TABLE limit_readings');
  db.close();
  assert.throws(() => openIndexReader(copy), /no such table: limit_readings/, 'the full reader prepares the dashboard\'s queries');
  const copyFlags = ['--dir', root, '--index', copy, '--offline', '--prices', PRICES_FILE];
  for (const report of ['daily', 'session']) {
    const r = await cli([report, '--json', ...copyFlags], { env: { TZ: 'UTC' } });
    assert.is(r.code, 0, `${report}: ${r.stderr}`);
    assert.is((JSON.parse(r.stdout) as { totals: { outputTokens: number } }).totals.outputTokens, 2500, report);
  }
});

t.run();
