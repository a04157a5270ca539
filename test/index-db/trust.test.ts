// The index as the only copy of deleted history: a failed write leaves memory and file in step, a bad
// row is skipped and counted (never its file), one writer per file, and nothing ever deletes the file
// (damaged files are set aside; busy, read-only and full disks are errors that keep it as it is).
// Real SQLite files; a real tmpfs for the full and read-only disks (skipped, saying so, where it cannot be mounted).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { IndexLockedError, IndexWriteError, openIndex, openIndexReader } from '../../src/index-db/index.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import type { FileRole, QueryScope } from '../../src/index-db/types.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { skipTest } from '../helpers/skip.ts';
import { damageRollupPages, sqlValue } from '../helpers/sqlite.ts';

const catalogue = JSON.parse(fs.readFileSync(new URL('../../../shared/fixtures/prices/catalogue.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const prices = PriceTable.fromCatalogue(catalogue, 'fixture');
const T0 = Date.UTC(2026, 10, 20, 10, 15);
const { dir } = tempDir('index-trust-');
let n = 0;
const role = (project: string, session: string): FileRole => ({ project, session, agentId: null, agentType: null, agentDescription: null });
const allTime: QueryScope = {
  range: { from: '2026-01-01', to: '2027-01-01', fromMs: Date.UTC(2026, 0, 1), toMs: Date.UTC(2027, 0, 1), bucket: 'day', kind: 'all', days: null },
  project: null,
  now: Date.UTC(2026, 10, 21),
};

/** Mounts a tmpfs of `size` (e.g. '1m') at a new folder; null where this machine does not allow it. */
function tmpfs(size: string): { dir: string; remount(opts: string): void; unmount(): void } | null {
  const at = fs.mkdtempSync(path.join(dir, 'fs-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', at], { encoding: 'utf8' });
  if (r.status !== 0) return null;
  const unmount = () => void spawnSync('umount', ['-l', at]);
  process.prependOnceListener('exit', unmount); // before tempDir's removal of the folder
  return {
    dir: at,
    remount: (opts) => {
      const m = spawnSync('mount', ['-o', `remount,${opts}`, at], { encoding: 'utf8' });
      if (m.status !== 0) throw new Error(m.stderr);
    },
    unmount,
  };
}

const Rows = suite('rows the index cannot store');

Rows('a row with an out-of-range timestamp or count is skipped and counted; the good rows of its file stay', () => {
  const file = path.join(dir, `i${++n}.db`);
  const logs: string[] = [];
  const idx = openIndex(file, { log: (m) => logs.push(m) });
  idx.setPrices(prices);
  idx.applyBatch(batchOf('/c/p1/s.jsonl', [
    { ts: T0, messageId: 'a', requestId: 'r', output: 10 },
    { ts: 1e20, messageId: 'b', requestId: 'r', output: 10, offset: 100 },
    { ts: T0, messageId: 'c', requestId: 'r', input: 2 ** 60, offset: 200 },
    { ts: T0 + 1000, messageId: 'd', requestId: 'r', output: 20, offset: 300 },
  ]), role('p1', 's'), 400, 1);
  const stats = idx.stats();
  assert.is(stats.messages, 2);
  assert.is(stats.outOfRange, 2, 'the two bad rows are counted');
  assert.is(idx.cursorOf('/c/p1/s.jsonl')!.offset, 400, 'the file is read on past them');
  assert.match(logs.join('\n'), /skipped 2 usage lines of \/c\/p1\/s.jsonl/);
  assert.is(idx.queries.projects(allTime).length, 1);
  idx.close();
});

Rows('a row that fails a statement is skipped alone; memory forgets the names and keys that the failed row added', () => {
  const file = path.join(dir, `i${++n}.db`);
  const idx = openIndex(file, { log: () => {} });
  idx.setPrices(prices);
  idx.applyBatch(batchOf('/c/p1/s.jsonl', [{ ts: T0, messageId: 'a', requestId: 'r', output: 10 }]), role('p1', 's'), 100, 1);
  idx.commit();
  // A fault planted in the real file: any message with 777 input tokens fails its INSERT.
  const db = new Database(file);
  db.exec("CREATE TRIGGER planted BEFORE INSERT ON messages WHEN NEW.input = 777 BEGIN SELECT RAISE(ABORT, 'planted fault'); END");
  db.close();
  // The failing row is the first of a new project, session and model: all three must go with it.
  idx.applyBatch(batchOf('/c/p2/t.jsonl', [
    { ts: T0, messageId: 'bad', requestId: 'r', input: 777, output: 1, model: 'claude-opus-4-1-20250805' },
  ]), role('p2', 't'), 100, 1);
  idx.applyBatch(batchOf('/c/p1/s.jsonl', [
    { ts: T0 + 1, messageId: 'good', requestId: 'r', input: 5, output: 5, offset: 100 },
    { ts: T0 + 2, messageId: 'bad2', requestId: 'r', input: 777, output: 1, offset: 150 },
  ]), role('p1', 's'), 200, 2);
  assert.is(idx.stats().messages, 2, 'a and good');
  assert.is(idx.stats().malformed, 2);
  // The failed write's ids are free again in SQLite; memory must not hand them to other rows.
  idx.applyBatch(batchOf('/c/p3/u.jsonl', [{ ts: T0, messageId: 'new', requestId: 'r', output: 3 }]), role('p3', 'u'), 100, 1);
  const projects = idx.queries.projects(allTime).map((p) => p.id).sort();
  assert.equal(projects, ['p1', 'p3'], 'p2 has no usage; p3 got an id of its own');
  const overview = idx.queries.overview(allTime);
  assert.is(overview.totals.messages, 3);
  idx.close();
  assert.is(sqlValue(file, 'SELECT count(*) FROM messages'), 3);
  assert.is(sqlValue(file, "SELECT count(*) FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM projects p WHERE p.id = s.project_id)"), 0);
  assert.is(sqlValue(file, "SELECT count(*) FROM messages m JOIN models o ON o.id = m.model_id WHERE o.name = 'claude-opus-4-1-20250805'"), 0);
  assert.is(sqlValue(file, 'SELECT count(*) FROM projects'), 3, 'p1, p2 (its file was read) and p3, each once');
});

Rows.run();

const Full = suite('a full disk');

Full('a commit that fails on a full disk drops the pending writes from file and memory alike; after space returns, the same reads write exactly', () => {
  const disk = tmpfs('1m');
  if (!disk) {
    skipTest('cannot mount a tmpfs here (needs root): full-disk commit');
    return;
  }
  const file = path.join(disk.dir, 'i.db');
  const logs: string[] = [];
  const idx = openIndex(file, { log: (m) => logs.push(m) });
  idx.setPrices(prices);
  idx.applyBatch(batchOf('/c/p1/first.jsonl', [{ ts: T0, messageId: 'first', requestId: 'r', output: 1 }]), role('p1', 'first'), 10, 1);
  assert.ok(idx.commit());
  const filler = path.join(disk.dir, 'filler');
  // Fill the disk: the next commit of a few hundred KB cannot fit.
  const free = fs.statfsSync(disk.dir);
  fs.writeFileSync(filler, Buffer.alloc(free.bavail * free.bsize - 48 * 1024));
  const batches = Array.from({ length: 40 }, (_, b) =>
    batchOf(`/c/p${b % 4}/s${b}.jsonl`, Array.from({ length: 100 }, (_, i) => ({
      ts: T0 + i * 1000, messageId: `m${b}-${i}`, requestId: 'r', output: i + 1, offset: i * 100, model: `model-${b % 3}`,
    }))),
  );
  const feed = (): void => {
    batches.forEach((batch, b) => {
      try {
        idx.applyBatch(batch, role(`p${b % 4}`, `s${b}`), 10_000, 1);
      } catch (err) {
        assert.instance(err, IndexWriteError);
        assert.is((err as IndexWriteError).kind, 'full');
      }
    });
  };
  feed();
  assert.not.ok(idx.commit(), 'the commit fails');
  assert.is(logs.filter((l) => /index write failed/.test(l)).length, 1, `logged once: ${logs.join(' | ')}`);
  assert.is(idx.stats().messages, 1, 'what is committed is served');
  assert.is(idx.cursorOf('/c/p1/s1.jsonl'), undefined, 'the lost files will be read again');
  fs.rmSync(filler);
  feed();
  assert.ok(idx.commit());
  assert.match(logs.join('\n'), /index writes work again/);
  const stats = idx.stats();
  assert.is(stats.messages, 1 + 40 * 100);
  idx.close();
  assert.is(sqlValue(file, 'SELECT count(*) FROM projects'), 4, 'no project row twice');
  assert.is(sqlValue(file, 'SELECT count(*) FROM models'), 4, 'no model row twice');
  assert.is(sqlValue(file, 'SELECT sum(messages) FROM usage_hourly'), 1 + 40 * 100, 'rollups exact');
  assert.is(sqlValue(file, 'SELECT count(DISTINCT hkey) FROM messages'), 1 + 40 * 100);
  disk.unmount();
});

Full.run();

const Open = suite('opening never deletes the file');

Open('a damaged file is set aside, byte for byte, and a new one is built', () => {
  const file = path.join(dir, `i${++n}.db`);
  const garbage = Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7919) % 256));
  fs.writeFileSync(file, garbage);
  const logs: string[] = [];
  const idx = openIndex(file, { log: (m) => logs.push(m) });
  const aside = fs.readdirSync(dir).filter((f) => f.startsWith(`i${n}.db.damaged-`) && !/-(wal|shm)$/.test(f));
  assert.is(aside.length, 1);
  assert.ok(fs.readFileSync(path.join(dir, aside[0]!)).equals(garbage));
  assert.match(logs.join('\n'), /kept it as/);
  assert.is(idx.stats().messages, 0);
  idx.close();
});

Open('a file another program holds the write lock of is a clear error and stays as it is', async () => {
  const file = path.join(dir, `i${++n}.db`);
  const idx = openIndex(file, { log: () => {} });
  idx.setPrices(prices);
  idx.applyBatch(batchOf('/c/p1/s.jsonl', [{ ts: T0, messageId: 'a', requestId: 'r', output: 10 }]), role('p1', 's'), 100, 1);
  idx.close();
  const before = fs.readFileSync(file);
  // Another program (not this app: no writer lock) holds SQLite's write lock on the file itself.
  const holder = spawn(process.execPath, ['-e', `
    const db = new (require('better-sqlite3'))(${JSON.stringify(file)});
    db.exec('BEGIN IMMEDIATE'); db.exec("INSERT INTO meta (key, value) VALUES ('x', 'y') ON CONFLICT DO NOTHING");
    console.log('holding'); setTimeout(() => db.close(), 9000);`], { cwd: new URL('../..', import.meta.url).pathname });
  await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
  try {
    openIndex(file, { log: () => {} });
    assert.unreachable('opened a locked file');
  } catch (err) {
    assert.instance(err, IndexWriteError);
    assert.is((err as IndexWriteError).kind, 'busy');
    assert.match((err as Error).message, /locked by another program.*left as it is/);
  } finally {
    holder.kill();
  }
  assert.ok(fs.readFileSync(file).equals(before), 'untouched');
  assert.is(fs.readdirSync(dir).filter((f) => f.startsWith(`i${n}.db.damaged`)).length, 0);
});

Open('a read-only file system is a clear error and the file stays as it is', () => {
  const disk = tmpfs('4m');
  if (!disk) {
    skipTest('cannot mount a tmpfs here (needs root): read-only index');
    return;
  }
  const file = path.join(disk.dir, 'i.db');
  const idx = openIndex(file, { log: () => {} });
  idx.setPrices(prices);
  idx.applyBatch(batchOf('/c/p1/s.jsonl', [{ ts: T0, messageId: 'a', requestId: 'r', output: 10 }]), role('p1', 's'), 100, 1);
  idx.close();
  const before = fs.readFileSync(file);
  disk.remount('ro');
  try {
    openIndex(file, { log: () => {} });
    assert.unreachable('opened a read-only file for writing');
  } catch (err) {
    assert.instance(err, IndexWriteError);
    assert.is((err as IndexWriteError).kind, 'readonly', (err as Error).message);
  }
  assert.ok(fs.readFileSync(file).equals(before));
  assert.equal(fs.readdirSync(disk.dir).sort(), ['i.db', 'i.db.keys', 'i.db.lock'], 'what the close left: the file, its saved keys, its lock');
  disk.unmount();
});

Open.run();

const Writers = suite('one writer per file');

Writers('a second writer is refused with who writes; a reader sees the writer\'s commits; the lock frees on close', () => {
  const file = path.join(dir, `i${++n}.db`);
  const first = openIndex(file, { log: () => {} });
  first.setPrices(prices);
  try {
    openIndex(file, { log: () => {} });
    assert.unreachable('two writers');
  } catch (err) {
    assert.instance(err, IndexLockedError);
    assert.match((err as Error).message, new RegExp(`pid ${process.pid}`));
  }
  const reader = openIndexReader(file);
  assert.is(reader.stats().messages, 0);
  first.applyBatch(batchOf('/c/p1/s.jsonl', [{ ts: T0, messageId: 'a', requestId: 'r', output: 10 }]), role('p1', 's'), 100, 1);
  first.commit();
  assert.is(reader.stats().messages, 1, 'the reader sees the commit');
  first.close();
  const second = openIndex(file, { log: () => {} });
  assert.is(second.stats().messages, 1);
  second.close();
  reader.close();
});

Writers('a writer killed with SIGKILL frees the lock', () => {
  const file = path.join(dir, `i${++n}.db`);
  const src = JSON.stringify(new URL('../../src/index-db/index.ts', import.meta.url).pathname);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', `
    import(${src}).then(({ openIndex }) => { openIndex(${JSON.stringify(file)}, { log: () => {} }); process.kill(process.pid, 'SIGKILL'); });`],
  { cwd: new URL('../..', import.meta.url).pathname, encoding: 'utf8', timeout: 30_000 });
  assert.is(r.signal, 'SIGKILL', r.stderr);
  const again = openIndex(file, { log: () => {} });
  again.close();
});

Writers.run();

const Damage = suite('damage found while running');

Damage('a query that meets a damaged page reports it (and a clean close did not hide it)', () => {
  const file = path.join(dir, `i${++n}.db`);
  const idx = openIndex(file, { log: () => {} });
  idx.setPrices(prices);
  for (let i = 0; i < 200; i++) {
    idx.applyBatch(batchOf(`/c/p1/s${i}.jsonl`, [{ ts: T0 + i * 3_600_000, messageId: `m${i}`, requestId: 'r', output: i + 1 }]), role('p1', `s${i}`), 100, 1);
  }
  idx.close();
  damageRollupPages(file);
  const reports: IndexWriteError[] = [];
  const again = openIndex(file, { log: () => {}, onCorrupt: (e) => reports.push(e) });
  assert.throws(() => again.queries.projects(allTime));
  assert.is(reports.length, 1);
  assert.is(reports[0]!.kind, 'corrupt');
  assert.is.not(again.quickCheck(), 'ok');
  again.close();
});

Damage.run();
