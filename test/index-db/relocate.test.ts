// Issue 37 finding 5: an index an older version left in the user cache dir moves once to the user data dir, with the
// files that belong to it, and never while another process (an older server, a reader) has it open. Real SQLite files,
// real child processes holding them, a real kill -9 leaving committed rows in the WAL.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Database from 'better-sqlite3';
import { settleIndexFile } from '../../src/index-db/relocate.ts';
import { ROOT } from '../helpers/paths.ts';
import { skipTest } from '../helpers/skip.ts';

/** better-sqlite3 for the child scripts, which live outside the repository. */
const SQLITE = JSON.stringify(path.join(ROOT, 'node_modules/better-sqlite3/lib/index.js'));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'relocate-'));
let n = 0;
function places(): { former: string; index: string } {
  n++;
  return { former: path.join(tmp, `cache${n}`, 'cost-dashboard', 'abc.db'), index: path.join(tmp, `data${n}`, 'cost-dashboard', 'abc.db') };
}

const count = (file: string): number => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

/** A child process that runs `script` (TypeScript, from the repo root) and says `ready` on stdout. */
async function holder(script: string): Promise<ChildProcess> {
  const file = path.join(tmp, `holder-${n}-${Math.random().toString(36).slice(2)}.mts`);
  fs.writeFileSync(file, script);
  const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`holder exited ${code}`)));
  });
  return child;
}
const ended = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

/** An index with `rows` messages whose last commits are only in the WAL: the writer is killed with SIGKILL. */
async function killedWriter(file: string, rows: number): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const child = await holder(`
    import Database from ${SQLITE};
    const db = new Database(${JSON.stringify(file)});
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE messages (id INTEGER PRIMARY KEY, cost REAL)');
    const add = db.prepare('INSERT INTO messages (cost) VALUES (?)');
    for (let i = 0; i < ${rows}; i++) add.run(i / 100);
    console.log('ready');
    setInterval(() => {}, 1000);
  `);
  child.kill('SIGKILL');
  await ended(child);
  assert.ok(fs.statSync(`${file}-wal`).size > 0, 'the rows are in the WAL only');
}

const Move = suite('moving the default index out of the cache dir');
Move.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

Move('an index killed mid-run moves whole, with its side files; the lock stays; one log line', async () => {
  const { former, index } = places();
  await killedWriter(former, 500);
  for (const side of ['.keys', '.listing.json', '.prices.json', '.damaged-2026-01-01T00-00-00']) fs.writeFileSync(former + side, `content of ${side}`);
  fs.writeFileSync(`${former}.lock`, '');
  const logs: string[] = [];
  const used = settleIndexFile(index, former, { move: true, log: (m) => logs.push(m) });
  assert.is(used, index);
  assert.is(count(index), 500, 'every committed row, the WAL\'s included');
  assert.not.ok(fs.existsSync(former));
  assert.not.ok(fs.existsSync(`${former}-wal`), 'the WAL was folded into the file and removed');
  for (const side of ['.keys', '.listing.json', '.prices.json', '.damaged-2026-01-01T00-00-00']) {
    assert.is(fs.readFileSync(index + side, 'utf8'), `content of ${side}`, side);
    assert.not.ok(fs.existsSync(former + side), side);
  }
  assert.ok(fs.existsSync(`${former}.lock`), 'a lock file is never deleted');
  assert.equal(logs, [`index moved from ${former} to ${index} (the user data dir: cleaners wipe the cache dir)`]);
  // Once moved, nothing more happens.
  assert.is(settleIndexFile(index, former, { move: true, log: (m) => logs.push(m) }), index);
  assert.is(logs.length, 1);
});

Move('an index another process has open (an older server reading it) stays, and moves once it is closed', async () => {
  const { former, index } = places();
  await killedWriter(former, 20);
  const reader = await holder(`
    import Database from ${SQLITE};
    const db = new Database(${JSON.stringify(former)}, { readonly: true });
    db.prepare('SELECT count(*) FROM messages').get();
    console.log('ready');
    setInterval(() => {}, 1000);
  `);
  const logs: string[] = [];
  try {
    assert.is(settleIndexFile(index, former, { move: true, log: (m) => logs.push(m) }), former, 'read where it is for this run');
    assert.not.ok(fs.existsSync(index));
    assert.is(count(former), 20);
    assert.match(logs.join('\n'), 'stays in the cache dir for now (another process has it open)');
  } finally {
    reader.kill('SIGKILL');
    await ended(reader);
  }
  assert.is(settleIndexFile(index, former, { move: true, log: (m) => logs.push(m) }), index);
  assert.is(count(index), 20);
});

Move('an index whose writer lock is live (an older server writing it) stays', async () => {
  const { former, index } = places();
  await killedWriter(former, 5);
  const writer = await holder(`
    import { acquireWriterLock } from ${JSON.stringify(path.join(ROOT, 'src/index-db/writer-lock.ts'))};
    // Kept referenced: a lock left to the garbage collector is closed with its connection, and the test saw no writer.
    const lock = acquireWriterLock(${JSON.stringify(former)});
    if (!lock) throw new Error('no lock');
    console.log('ready');
    setInterval(() => void lock, 1000);
  `);
  const logs: string[] = [];
  try {
    assert.is(settleIndexFile(index, former, { move: true, log: (m) => logs.push(m) }), former);
    assert.match(logs.join('\n'), 'stays in the cache dir for now (another process writes it)');
    assert.not.ok(fs.existsSync(index));
    assert.is(count(former), 5);
  } finally {
    writer.kill('SIGKILL');
    await ended(writer);
  }
});

Move('an index in the new place wins: the former one is left untouched; a reader never moves anything', async () => {
  const both = places();
  await killedWriter(both.former, 3);
  await killedWriter(both.index, 4);
  assert.is(settleIndexFile(both.index, both.former, { move: true, log: () => {} }), both.index);
  assert.is(count(both.former), 3);
  const readOnly = places();
  await killedWriter(readOnly.former, 6);
  assert.is(settleIndexFile(readOnly.index, readOnly.former, { move: false, log: () => {} }), readOnly.former);
  assert.ok(fs.existsSync(readOnly.former));
  assert.not.ok(fs.existsSync(readOnly.index));
  const fresh = places();
  assert.is(settleIndexFile(fresh.index, fresh.former, { move: true, log: () => {} }), fresh.index, 'no index anywhere: the new place');
  assert.is(settleIndexFile(fresh.index, null, { move: true, log: () => {} }), fresh.index, 'an --index file has no former place');
});

Move('across file systems the index is copied, flushed, renamed into place, then removed', async () => {
  const shm = '/dev/shm';
  if (!fs.existsSync(shm) || fs.statSync(shm).dev === fs.statSync(tmp).dev) return skipTest('no second file system (/dev/shm) beside the temp dir');
  const former = path.join(fs.mkdtempSync(path.join(shm, 'relocate-')), 'abc.db');
  const { index } = places();
  try {
    await killedWriter(former, 50);
    fs.writeFileSync(`${former}.keys`, 'keys');
    assert.is(settleIndexFile(index, former, { move: true, log: () => {} }), index);
    assert.is(count(index), 50);
    assert.is(fs.readFileSync(`${index}.keys`, 'utf8'), 'keys');
    assert.not.ok(fs.existsSync(former));
    assert.equal(fs.readdirSync(path.dirname(index)).filter((f) => f.includes('.moving-')), [], 'no temporary copy left');
  } finally {
    fs.rmSync(path.dirname(former), { recursive: true, force: true });
  }
});

Move.run();
