// Issue 37, finding 1: a damaged `<index>.keys` must not be trusted. One 512-byte sector written over the slots, between
// the slots a sample would check, is caught by the dump's checksum; a key whose slot leads to no message (a dump that
// passed every check) makes the writer read every key again. Either way a copy of a stored message (a sync-conflict
// copy of a transcript) is found, not stored a second time. Real index files, real damage written into the dump.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { keyDumpFile, readKeyDump, writeKeyDump } from '../../src/index-db/key-dump.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { sqlValue } from '../helpers/sqlite.ts';

const prices = PriceTable.builtin();
const T0 = Date.UTC(2026, 10, 20, 10, 15);
const { dir } = tempDir('key-dump-damage-');
const role = { project: 'p1', session: 's1', agentId: null, agentType: null, agentDescription: null };
let n = 0;

function open(file: string, logs: string[] = []): ReturnType<typeof openIndex> {
  const idx = openIndex(file, { log: (m) => logs.push(m) });
  idx.setPrices(prices);
  return idx;
}

/** A transcript's batch of messages `ids` (message and request id alike). */
function write(idx: ReturnType<typeof openIndex>, transcript: string, ids: string[]): void {
  const rows = ids.map((id, i) => ({ ts: T0 + i * 1000, messageId: id, requestId: id, output: 10 }));
  idx.applyBatch(batchOf(path.join(dir, 'cfg', 'projects', 'p1', transcript), rows), role, rows.length * 100, ++n);
}

const ids = (count: number): string[] => Array.from({ length: count }, (_, i) => `m${i}`);
const COUNT = 3000;

/** An index of COUNT messages closed with its key dump, and the cost it holds. */
function indexWithDump(name: string): { file: string; cost: number } {
  const file = path.join(dir, name);
  const idx = open(file);
  write(idx, 'a.jsonl', ids(COUNT));
  idx.close();
  assert.ok(readKeyDump(keyDumpFile(file)), 'a dump was saved');
  return { file, cost: sqlValue(file, 'SELECT sum(cost) FROM messages') as number };
}

const Damage = suite('a damaged key dump');

Damage('a garbled sector among the hkeys: the dump is refused, and a conflict copy adds nothing', () => {
  const { file, cost } = indexWithDump('sector.db');
  const dump = keyDumpFile(file);
  // The hkeys follow the 64-byte header, 8 bytes an id in id order: a sector in the middle of them, which a sample of
  // 64 keys checked against their messages would most likely pass over.
  const at = 64 + Math.floor(COUNT / 3) * 8;
  assert.ok(at + 512 < fs.statSync(dump).size - 32, 'the sector lies among the hkeys');
  const fd = fs.openSync(dump, 'r+');
  fs.writeSync(fd, Buffer.alloc(512, 0xa7), 0, 512, at);
  fs.closeSync(fd);
  const logs: string[] = [];
  const idx = open(file, logs);
  write(idx, 'a (conflict copy).jsonl', ids(COUNT)); // every message again, from another file
  idx.close();
  assert.is(sqlValue(file, 'SELECT count(*) FROM messages'), COUNT, 'no message stored twice');
  assert.is(sqlValue(file, 'SELECT sum(messages) FROM usage_total'), COUNT);
  assert.is(sqlValue(file, 'SELECT sum(cost) FROM messages'), cost);
  assert.is(sqlValue(file, 'SELECT count(*) FROM alternates'), COUNT, 'each copy kept as an alternate');
  assert.match(logs.join('\n'), /dedup keys saved beside the index are damaged \(its bytes do not match their checksum\)/);
});

Damage('a key whose slot leads to no message (a dump its checks pass): the writer reads every key again', () => {
  const { file } = indexWithDump('slot.db');
  const dump = keyDumpFile(file);
  const taken = readKeyDump(dump)!;
  const { hkeys, ids: slotIds } = taken.keys.slotArrays();
  // A slot the writer's sample of 64 slots passes over.
  const step = Math.floor(slotIds.length / 64);
  const at = slotIds.findIndex((id, i) => id !== 0 && i % step !== 0);
  const victim = slotIds[at]!;
  const victimKey = sqlValue(file, `SELECT unpack_key(stored_key) FROM messages WHERE id = ${victim}`) as string;
  // The key's id now names no message (an id past the last one, which the dump says it covers), and the dump is written
  // whole again: checksum, token and count all hold.
  taken.keys.set(hkeys[at]!, COUNT + 100);
  writeKeyDump(dump, taken.keys, { ...taken.stamp, maxId: COUNT + 100 });
  const logs: string[] = [];
  const idx = open(file, logs);
  const copy = victimKey.replace(/^.* /, '');
  write(idx, 'b (conflict copy).jsonl', [copy, 'new1']);
  idx.close();
  assert.is(sqlValue(file, 'SELECT count(*) FROM messages'), COUNT + 1, 'the copy is found; only the new message is added');
  assert.is(sqlValue(file, `SELECT count(*) FROM messages WHERE unpack_key(stored_key) = '${victimKey.replace(/'/g, "''")}'`), 1);
  assert.is(sqlValue(file, 'SELECT sum(messages) FROM usage_total'), COUNT + 1);
  assert.match(logs.join('\n'), /a dedup key of the index led to no stored message: reading every key from the index again/);
  // The close saved a dump that is the messages' again.
  const again = readKeyDump(dump)!;
  assert.is(again.keys.size, COUNT + 1);
  assert.is(again.keys.get(hkeys[at]!), victim);
});

Damage.run();
