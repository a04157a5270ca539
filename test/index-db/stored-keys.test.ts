// StoredKeys on a real index file: the read-ahead reads every stored key through a connection of its own (the
// writer's page cache stays out of it), sized once; a write that comes first completes it through that connection
// too, the writer's pending writes of other tables and all. (Whether that connection is closed cannot be seen from its file
// descriptors: SQLite keeps a closed connection's descriptor while another connection of the process locks the file.)
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Database from 'better-sqlite3';
import { openIndex } from '../../src/index-db/index.ts';
import { StoredKeys } from '../../src/index-db/stored-keys.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { PRICES_FILE } from '../helpers/paths.ts';

const prices = PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Record<string, unknown>, 'fixture');
const T0 = Date.UTC(2026, 10, 20, 10, 15);
const { dir } = tempDir('stored-keys-');

/** An index file holding `n` stored responses; their hkey -> id as stored. */
function indexWith(n: number): { file: string; stored: Map<number, number> } {
  const file = path.join(dir, `i${n}.db`);
  const idx = openIndex(file, { log: () => {} });
  idx.setPrices(prices);
  const rows = Array.from({ length: n }, (_, i) => ({ ts: T0 + i * 1000, messageId: `m${i}`, requestId: `r${i}`, output: 10 }));
  idx.applyBatch(batchOf(path.join(dir, 'cfg', 'projects', 'p1', 'a.jsonl'), rows), { project: 'p1', session: 's1', agentId: null, agentType: null, agentDescription: null }, 1, 1);
  idx.close();
  // These tests read the keys from the messages: no dump of them (key-dump.test.ts has those).
  fs.rmSync(`${file}.keys`);
  const db = new Database(file, { readonly: true });
  const stored = new Map((db.prepare('SELECT hkey, id FROM messages').raw().all() as [number, number][]));
  db.close();
  return { file, stored };
}

/** Open descriptors of this process on `file`. */
const openOn = (file: string): number =>
  fs.readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;

test('read ahead in slices through a connection of its own', () => {
  const { file, stored } = indexWith(25);
  const db = new Database(file);
  const keys = new StoredKeys(db, () => {});
  const alone = openOn(file);
  assert.equal([keys.readAhead(10), keys.readAhead(10)], [false, false]);
  assert.is(openOn(file), alone + 1, 'the read-ahead holds a second connection');
  assert.is(keys.readAhead(10), true);
  const all = keys.all();
  assert.is(all.size, stored.size);
  for (const [hkey, id] of stored) assert.is(all.get(hkey), id);
  assert.ok(all.slots >= stored.size / 0.6 && all.slots < stored.size / 0.6 + 1, 'sized for the stored winners');
  db.close();
});

test('a write before the read-ahead is done reads the rest through the read-ahead\'s connection, not the writer\'s', () => {
  for (const readAheadFirst of [true, false]) {
    const { file, stored } = indexWith(readAheadFirst ? 30 : 31);
    const db = new Database(file);
    const keys = new StoredKeys(db, () => {});
    if (readAheadFirst) assert.is(keys.readAhead(10), false);
    // Through the writer's connection `messages` would now be this empty table (it shadows the file's); its page
    // cache is what the read must stay out of.
    db.exec('CREATE TEMP TABLE messages (id INTEGER PRIMARY KEY, hkey REAL)');
    db.exec('BEGIN');
    db.exec("INSERT INTO meta (key, value) VALUES ('pending', 'x')");
    const all = keys.all();
    assert.is(all.size, stored.size, readAheadFirst ? 'after a slice' : 'with no slice read');
    for (const [hkey, id] of stored) assert.is(all.get(hkey), id);
    db.exec('COMMIT');
    keys.close();
    db.close();
  }
});

test('a database in memory reads through its own connection', () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE messages (id INTEGER PRIMARY KEY, hkey REAL); CREATE TABLE usage_total (messages INTEGER)');
  db.exec('INSERT INTO messages (hkey) VALUES (11), (22), (33); INSERT INTO usage_total VALUES (3)');
  const keys = new StoredKeys(db, () => {});
  assert.is(keys.readAhead(2), false);
  assert.is(keys.readAhead(2), true);
  assert.equal([keys.all().get(11), keys.all().get(22), keys.all().get(33)], [1, 2, 3]);
  db.close();
});

test.run();
