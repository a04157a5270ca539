// The key index saved beside an index file (`<index>.keys`) on real files: a writer's close saves it; the next writer
// takes it and reads only the messages stored since (copies of messages on either side of the dump are still found);
// a removed key clears the dump's token in its own transaction; a dump whose token, schema, bytes or count do not
// match the index is not taken, and the keys are read from the messages as without a dump.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Database from 'better-sqlite3';
import { openIndex } from '../../src/index-db/index.ts';
import { keyDumpFile, readKeyDump, writeKeyDump } from '../../src/index-db/key-dump.ts';
import { KeyIndex } from '../../src/index-db/key-index.ts';
import { StoredKeys } from '../../src/index-db/stored-keys.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';

const prices = PriceTable.builtin();
const T0 = Date.UTC(2026, 10, 20, 10, 15);
const { dir } = tempDir('key-dump-');
const role = { project: 'p1', session: 's1', agentId: null, agentType: null, agentDescription: null };
let n = 0;

/** Opens the index file as the server and the command line do. */
function open(file: string, logs: string[] = []): ReturnType<typeof openIndex> {
  const idx = openIndex(file, { log: (m) => logs.push(m) });
  idx.setPrices(prices);
  return idx;
}

/** Writes a transcript's batch of `ids` (message and request id alike; output tokens make copies lose or win). */
function write(idx: ReturnType<typeof openIndex>, transcript: string, ids: string[], output = 10): void {
  const rows = ids.map((id, i) => ({ ts: T0 + i * 1000, messageId: id, requestId: id, output }));
  idx.applyBatch(batchOf(path.join(dir, 'cfg', 'projects', 'p1', transcript), rows), role, rows.length * 100, ++n);
}

const stored = (file: string): Map<number, number> => {
  const db = new Database(file, { readonly: true });
  try {
    return new Map(db.prepare('SELECT hkey, id FROM messages').raw().all() as [number, number][]);
  } finally {
    db.close();
  }
};

const metaToken = (file: string): string => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT value FROM meta WHERE key = 'key_dump'").pluck().get() as string;
  } finally {
    db.close();
  }
};

/**
 * Whether a fresh StoredKeys takes the dump: with it, one slice of `since` + 1 rows completes the keys (the messages
 * stored after the dump); without it, the slice reads the first of all the messages. Not closed: a close may save a dump.
 */
function takesDump(file: string, logs: string[] = [], since = 0): boolean {
  const db = new Database(file);
  try {
    const keys = new StoredKeys(db, (m) => logs.push(m));
    const done = keys.readAhead(since + 1);
    const all = keys.all();
    const want = stored(file);
    assert.is(all.size, want.size, 'every stored key, dump or not');
    for (const [hkey, id] of want) assert.is(all.get(hkey), id);
    return done;
  } finally {
    db.close();
  }
}

const ids = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

const Dump = suite('key dump');

Dump('a close saves the keys; the next writers take them, find copies on both sides of the dump, and save again only when it is far behind', () => {
  const file = path.join(dir, 'a.db');
  const a = open(file);
  write(a, 'a.jsonl', ids('a', 50));
  a.close();
  const first = readKeyDump(keyDumpFile(file));
  assert.ok(first, 'saved at close');
  assert.is(first!.keys.size, 50);
  assert.is(first!.stamp.token, metaToken(file), 'the index holds its token');
  assert.ok(takesDump(file), 'taken whole');

  const b = open(file);
  write(b, 'b.jsonl', [...ids('b', 5), 'a7']); // a7 is a copy of a message in the dump
  assert.is(b.stats().messages, 55, 'the copy of a dumped message is found');
  b.close();
  assert.is(readKeyDump(keyDumpFile(file))!.stamp.token, first!.stamp.token, 'five keys behind: the same dump');
  assert.ok(takesDump(file, [], 5), 'the dump plus the five messages stored since');

  const c = open(file);
  write(c, 'c.jsonl', ['b3', 'a9', 'c0'], 5); // copies of a message stored after the dump, and of one in it
  assert.is(c.stats().messages, 56);
  c.close();
  const want = stored(file);
  assert.is(want.size, 56);
  assert.ok(takesDump(file, [], 6));
});

Dump('a removed key clears the token in its transaction; the close saves a new dump', () => {
  const file = path.join(dir, 'b.db');
  const a = open(file);
  write(a, 'a.jsonl', ids('a', 20));
  write(a, 'b.jsonl', ids('b', 20));
  a.close();
  const before = metaToken(file);
  assert.ok(before);

  const b = open(file);
  b.resetFile(path.join(dir, 'cfg', 'projects', 'p1', 'b.jsonl')); // rewritten: its messages go
  b.commit();
  assert.is(metaToken(file), '', 'cleared with the removal');
  assert.not.ok(takesDump(file), 'not taken meanwhile');
  write(b, 'b.jsonl', ids('b', 3));
  b.close();
  const after = metaToken(file);
  assert.ok(after && after !== before, 'a new dump at close');
  const again = readKeyDump(keyDumpFile(file))!;
  assert.is(again.stamp.token, after);
  // 4 bytes an id up to the largest (header 64, checksum 32): the new rows took the removed ones' ids again.
  assert.is(again.stamp.maxId, 23);
  assert.is(fs.statSync(keyDumpFile(file)).size, 64 + 23 * 4 + 32);
  assert.is(again.keys.size, 23);
  assert.ok(takesDump(file));
  const c = open(file);
  write(c, 'c.jsonl', ['b2', 'b10']); // b2 is stored again, b10 went with the reset
  assert.is(c.stats().messages, 24);
  c.close();
});

Dump('a dump that does not match the index is not taken: token, schema, bytes, a sampled key, the count', () => {
  const file = path.join(dir, 'c.db');
  const a = open(file);
  write(a, 'a.jsonl', ids('a', 100));
  a.close();
  const dump = keyDumpFile(file);
  const good = fs.readFileSync(dump);
  const restore = (): void => fs.writeFileSync(dump, good);

  const raw = (sql: string): void => {
    const db = new Database(file);
    db.exec(sql);
    db.close();
  };
  const token = metaToken(file);
  raw("UPDATE meta SET value = 'another' WHERE key = 'key_dump'");
  assert.not.ok(takesDump(file), 'another token');
  raw(`UPDATE meta SET value = '${token}' WHERE key = 'key_dump'`);
  assert.ok(takesDump(file), 'its token again');

  const logs: string[] = [];
  const other = Buffer.from(good);
  other.write('CDKEYS02', 0, 'latin1'); // the format before, which saved the table's slots
  fs.writeFileSync(dump, other);
  assert.not.ok(takesDump(file, logs), 'the format before');
  assert.equal(logs, [], 'not taken for damage: the close writes this version');
  fs.writeFileSync(dump, crypto.randomBytes(good.length));
  assert.not.ok(takesDump(file, logs), 'a foreign file');
  fs.writeFileSync(dump, good.subarray(0, 40));
  assert.not.ok(takesDump(file, logs), 'a file shorter than a header');
  assert.is(logs.filter((m) => m.includes('damaged (another format)')).length, 2);
  restore();
  assert.ok(takesDump(file), 'whole again');

  const schema = Buffer.from(good);
  schema.writeUInt32LE(9, 8);
  fs.writeFileSync(dump, schema);
  assert.not.ok(takesDump(file), 'another schema version');
  fs.writeFileSync(dump, good.subarray(0, good.length - 4));
  assert.not.ok(takesDump(file), 'a short file');
  const scrambled = Buffer.from(good);
  for (let i = 64; i < 64 + (good.length - 64) * (2 / 3); i += 4) scrambled.writeInt32LE(i, i); // every slot's hkey
  fs.writeFileSync(dump, scrambled);
  logs.length = 0;
  assert.not.ok(takesDump(file, logs), 'keys that are not the messages\'');
  assert.match(logs.join('\n'), 'do not match');
  restore();

  // A message gone behind the writers' back (another program), of a slot the sample passes over: the count tells,
  // and the keys are read from the messages.
  const { ids: slotIds } = readKeyDump(dump)!.keys.slotArrays();
  const step = Math.max(1, Math.floor(slotIds.length / 64));
  const unsampled = slotIds.findIndex((id, i) => id !== 0 && i % step !== 0);
  assert.ok(step > 1 && unsampled > 0);
  raw(`DELETE FROM messages WHERE id = ${slotIds[unsampled]}`);
  const counted: string[] = [];
  takesDump(file, counted);
  assert.match(counted.join('\n'), 'hold 100 keys for 99 messages');
});

/** A dump's file with its checksum made again over `body` (header and hkeys): a file its checksum passes. */
function resealed(body: Buffer): Buffer {
  return Buffer.concat([body, crypto.createHash('sha256').update(body).digest()]);
}

Dump('a dump holds each id\'s hkey, ids without a key among them, and is refused when its hkeys cannot be a key index', () => {
  const file = path.join(dir, 'unit.keys');
  const keys = new KeyIndex();
  const pairs: [number, number][] = [[2 ** 31 - 1, 1], [0, 2], [1_234_567_890, 5], [7, 9]];
  for (const [hkey, id] of pairs) keys.set(hkey, id);
  const stamp = { schema: 17, maxId: 10, token: 't'.repeat(32) };
  writeKeyDump(file, keys, stamp);
  assert.is(fs.statSync(file).size, 64 + 10 * 4 + 32);
  const back = readKeyDump(file)!;
  assert.equal(back.stamp, stamp);
  assert.is(back.keys.size, pairs.length);
  for (const [hkey, id] of pairs) assert.is(back.keys.get(hkey), id);
  assert.is(back.keys.get(1), undefined);
  assert.throws(() => writeKeyDump(file, keys, { ...stamp, maxId: 8 }), /above the dump's largest id/);
  assert.ok(readKeyDump(file), 'a failed write leaves the dump there');

  const body = fs.readFileSync(file).subarray(0, 64 + 10 * 4);
  const refused = (bytes: Buffer): string[] => {
    fs.writeFileSync(file, bytes);
    const why: string[] = [];
    assert.is(readKeyDump(file, (w) => why.push(w)), null);
    return why;
  };
  const twice = Buffer.from(body);
  twice.writeInt32LE(7, 64 + 4 * 4); // id 5 takes the hkey of id 9
  assert.equal(refused(resealed(twice)), ['hkeys that cannot be a key index']);
  const counted = Buffer.from(body);
  counted.writeDoubleLE(5, 16);
  assert.equal(refused(resealed(counted)), ['hkeys that cannot be a key index']);
  const negative = Buffer.from(body);
  negative.writeInt32LE(-2, 64 + 4); // -1 marks an id without a key; no hkey is below 0
  assert.equal(refused(resealed(negative)), ['hkeys that cannot be a key index']);
  const longer = Buffer.from(body);
  longer.writeDoubleLE(11, 24);
  assert.equal(refused(resealed(longer)), ['not the size its header says']);
  assert.equal(refused(resealed(body).subarray(0, 64 + 10 * 4 + 31)), ['not the size its header says']);
  const flipped = resealed(body);
  flipped[64 + 3 * 4 + 2]! ^= 1;
  assert.equal(refused(flipped), ['its bytes do not match their checksum']);
  fs.writeFileSync(file, resealed(body));
  assert.ok(readKeyDump(file), 'the untouched bytes, resealed, are taken');
});

Dump('an index in memory saves nothing', () => {
  const idx = open(':memory:');
  write(idx, 'a.jsonl', ids('a', 5));
  idx.close();
  assert.not.ok(fs.existsSync(keyDumpFile(':memory:')));
});

Dump.run();
