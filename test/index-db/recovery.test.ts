// Issue 37, finding 2: a damaged index is set aside (never deleted) and the new one holds every history row the damaged
// one still gives. A damaged page of the messages themselves (found by the integrity check after an unclean shutdown)
// costs only that page's rows: the transcripts still on disk are read again and bring theirs back; those of deleted
// transcripts on other pages stay. Real index files, real damage written over one page.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { damagePage, middleLeafOf, rootPage, sqlValue } from '../helpers/sqlite.ts';

const prices = PriceTable.builtin();
const T0 = Date.UTC(2026, 10, 20, 10, 15);
const { dir } = tempDir('index-recovery-');
const role = (session: string) => ({ project: 'p1', session, agentId: null, agentType: null, agentDescription: null });
const transcript = (name: string) => path.join(dir, 'cfg', 'projects', 'p1', name);
const PER_FILE = 400;

/** The batch of a transcript: PER_FILE messages (message and request id alike), one every second. */
const batch = (name: string) => batchOf(transcript(name), Array.from({ length: PER_FILE }, (_, i) => ({
  ts: T0 + i * 1000, messageId: `${name}-${i}`, requestId: `${name}-${i}`, output: 10 + i, input: 5,
})), { meta: { sessionId: name } });

const raw = (file: string, sql: string): void => {
  const db = new Database(file);
  db.exec(sql);
  db.close();
};
const aside = (name: string): string[] => fs.readdirSync(dir).filter((f) => f.startsWith(`${name}.damaged-`) && !/-(wal|shm)$/.test(f));

const Recovery = suite('recovery of a damaged index');

Recovery('a damaged page of messages: the readable rows are carried, the transcripts on disk read again, the damaged file kept', () => {
  const file = path.join(dir, 'messages.db');
  const a = openIndex(file, { log: () => {} });
  a.setPrices(prices);
  for (const name of ['gone.jsonl', 'here.jsonl']) a.applyBatch(batch(name), role(name), PER_FILE * 100, 1);
  a.close();
  const total = sqlValue(file, 'SELECT count(*) FROM messages') as number;
  assert.is(total, 2 * PER_FILE);
  raw(file, "INSERT INTO settings (key, value) VALUES ('budget:daily:*', '5')");
  const leaf = middleLeafOf(file, 'messages');
  const original = fs.readFileSync(file);
  // Killed while writing (the next open checks the file), and a page of messages went bad.
  raw(file, "UPDATE meta SET value = '1' WHERE key = 'open'");
  damagePage(file, leaf);
  const damaged = fs.readFileSync(file);
  assert.not.ok(damaged.equals(original));

  // One transcript is still on disk, the other was deleted: its history is only in the index.
  fs.mkdirSync(path.dirname(transcript('here.jsonl')), { recursive: true });
  fs.writeFileSync(transcript('here.jsonl'), 'x'.repeat(PER_FILE * 100));
  const logs: string[] = [];
  const b = openIndex(file, { log: (m) => logs.push(m) });
  b.setPrices(prices);
  const kept = aside('messages.db');
  assert.is(kept.length, 1, 'the damaged file is kept aside');
  assert.ok(fs.readFileSync(path.join(dir, kept[0]!)).equals(damaged), 'byte for byte');
  const carried = b.stats().messages;
  assert.ok(carried > PER_FILE && carried < total, `most rows carried: ${carried} of ${total}`);
  const recovery = b.recovered();
  assert.ok(recovery);
  assert.match(recovery!.summary, new RegExp(`^${carried} messages, .* carried over; rows that could not be read: \\d+ of messages; the transcripts on disk are read again`));
  assert.match(logs.join('\n'), /is damaged \(integrity check: [\s\S]*\); kept it as \S*damaged-\S* and rebuilding it from what it still holds: /);
  assert.is(sqlValue(file, "SELECT value FROM settings WHERE key = 'budget:daily:*'"), '5', 'the budget is carried');
  // Every transcript is read again from its start; the one still on disk brings its lost rows back.
  assert.is(b.cursorOf(transcript('here.jsonl'))!.offset, 0);
  assert.is(b.cursorOf(transcript('gone.jsonl'))!.offset, PER_FILE * 100, 'a deleted transcript keeps its cursor and counts');
  b.markGone(transcript('gone.jsonl'));
  b.applyBatch(batch('here.jsonl'), role('here.jsonl'), PER_FILE * 100, 2);
  b.close();
  const here = sqlValue(file, "SELECT count(*) FROM messages m JOIN files f ON f.id = m.file_id WHERE f.path LIKE '%here.jsonl'");
  assert.is(here, PER_FILE, 'the transcript on disk is whole again, each message once');
  assert.is(sqlValue(file, 'SELECT sum(messages) FROM usage_total'), sqlValue(file, 'SELECT count(*) FROM messages'), 'the rollups are the messages\'');
  assert.is(sqlValue(file, 'SELECT sum(lines) FROM files'), PER_FILE * 2, 'the re-read file is counted once');
  assert.is(sqlValue(file, 'PRAGMA integrity_check'), 'ok');
});

Recovery('damage to derived data only (a rollup, an index b-tree): every row carried, nothing read again', () => {
  const file = path.join(dir, 'derived.db');
  const a = openIndex(file, { log: () => {} });
  a.setPrices(prices);
  a.applyBatch(batch('one.jsonl'), role('one.jsonl'), PER_FILE * 100, 1);
  a.close();
  const cost = sqlValue(file, 'SELECT sum(cost) FROM messages') as number;
  // Plan limit readings and hits hang on no transcript: only the index holds them.
  raw(file, `INSERT INTO limit_readings (window, observed_at, source, machine, used_percent, resets_at) VALUES ('five_hour', ${T0}, 'statusline', 'box', 42.5, ${T0 + 3_600_000});
    INSERT INTO limit_hits (key, at, window, resets_at, text) VALUES ('msg_hit', ${T0}, 'five_hour', NULL, 'You''ve hit your session limit');`);
  raw(file, "UPDATE meta SET value = '1' WHERE key = 'open'");
  for (const name of ['usage_total', 'projects_key', 'messages_file_ts']) damagePage(file, rootPage(file, name));
  const logs: string[] = [];
  const b = openIndex(file, { log: (m) => logs.push(m) });
  b.setPrices(prices);
  assert.is(aside('derived.db').length, 1);
  assert.is(b.stats().messages, PER_FILE);
  assert.match(b.recovered()!.summary, /^400 messages, 0 copies, 1 files and 0 settings carried over, nothing lost/);
  assert.is(b.cursorOf(transcript('one.jsonl'))!.offset, PER_FILE * 100, 'the cursor is kept: nothing to read again');
  b.close();
  assert.is(sqlValue(file, 'SELECT sum(cost) FROM usage_total'), cost);
  assert.is(sqlValue(file, 'SELECT sum(messages) FROM usage_daily'), PER_FILE);
  assert.is(sqlValue(file, "SELECT used_percent FROM limit_readings WHERE window = 'five_hour'"), 42.5, 'the plan limit readings are carried');
  assert.is(sqlValue(file, "SELECT window FROM limit_hits WHERE key = 'msg_hit'"), 'five_hour', 'the limit hits are carried');
  assert.is(sqlValue(file, 'PRAGMA integrity_check'), 'ok');
});

Recovery.run();
