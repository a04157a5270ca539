// The compaction after a writer more than doubles the index (write/compact.ts): a first index written newest first,
// as the start-up scan and a command's catch-up read transcripts, is written again whole, smaller, with every row of
// every table as it was, message ids (and so the key dump) included; it is not done for a writer that added less than
// the index held, nor below the minimum, nor twice for the same growth, nor in memory. A command's catch-up compacts on
// its own connection; the server's start-up scan on a worker thread, its writes held meanwhile (refused, never waited
// on) and going on after: both checked at the end, on real transcripts; a failure on the worker leaves the file as it
// was. test/main/compact-server.test.ts checks the server's, as a process, answering requests while it runs.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Database from 'better-sqlite3';
import { catchUp } from '../../src/cli/catch-up.ts';
import { startPipeline } from '../../src/ingest/pipeline.ts';
import { openIndex } from '../../src/index-db/index.ts';
import { keyDumpFile, readKeyDump } from '../../src/index-db/key-dump.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { sqlValue } from '../helpers/sqlite.ts';

const prices = PriceTable.builtin();
const HOUR = 3_600_000;
const T_END = Date.UTC(2026, 10, 20);
const MIN = 2000;
const { dir } = tempDir('compact-');
const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-4-5-20251101', 'claude-haiku-4-5-20251001'];

type Index = ReturnType<typeof openIndex>;

function open(file: string, opts: { log?: (msg: string) => void; compactTestGate?: string } = {}): Index {
  const idx = openIndex(file, { log: () => {}, ...opts, compactMinMessages: MIN });
  idx.setPrices(prices);
  return idx;
}

/**
 * Writes `count` messages in transcripts of 50, the newest transcript first (the scan's order), each message an hour
 * of its own, over three models, tools and projects: rollup keys arrive in decreasing time, as in a first index.
 */
function writeNewestFirst(idx: Index, prefix: string, count: number, endTs = T_END): void {
  const files = count / 50;
  for (let f = 0; f < files; f++) {
    const start = endTs - (f + 1) * 50 * HOUR;
    const rows = Array.from({ length: 50 }, (_, i) => ({
      ts: start + i * HOUR, messageId: `${prefix}${f}-${i}`, requestId: `${prefix}${f}-${i}`, output: 100 + i, input: 10 + f,
      cacheRead: 1000 * i, model: MODELS[(f + i) % 3]!, tools: i % 4 === 0 ? ['Bash', 'Read'] : [],
    }));
    const project = `p${f % 7}`;
    const transcript = path.join(dir, 'cfg', 'projects', project, `${prefix}${f}.jsonl`);
    idx.applyBatch(batchOf(transcript, rows), { project, session: `${prefix}${f}`, agentId: null, agentType: null, agentDescription: null }, 50 * 100, f + 1);
  }
}

/** Every row of every table: what the compaction must leave as it was. */
function contents(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
    // Sorted as text: a table scan's order may follow the pages the compaction rewrote.
    return Object.fromEntries(tables.map((t) => [t, (db.prepare(`SELECT * FROM "${t}"`).raw().all() as unknown[]).map((r) => JSON.stringify(r)).sort()]));
  } finally {
    db.close();
  }
}

const pages = (file: string): number => sqlValue(file, 'PRAGMA page_count') as number;

const Compact = suite('compaction');

Compact('a first index newest first is written again smaller, every row as it was; the key dump is still taken', () => {
  const file = path.join(dir, 'first.db');
  const idx = open(file);
  writeNewestFirst(idx, 'a', 3 * MIN);
  idx.commit();
  const before = contents(file);
  const size = pages(file);
  assert.ok(idx.compactIfDue(), 'due: a first index of more than the minimum');
  const after = pages(file);
  assert.ok(after < size * 0.9, `a tenth smaller at least: ${size} -> ${after} pages`);
  assert.equal(contents(file), before, 'every row of every table, message ids included');
  assert.is(fs.statSync(`${file}-wal`).size, 0, 'the WAL emptied');
  assert.not.ok(idx.compactIfDue(), 'not twice for the same growth');
  writeNewestFirst(idx, 'late', 100, T_END + 200 * HOUR);
  idx.close();
  const dump = readKeyDump(keyDumpFile(file))!;
  assert.is(dump.keys.size, 3 * MIN + 100);
  assert.is(dump.stamp.token, sqlValue(file, "SELECT value FROM meta WHERE key = 'key_dump'"));

  // The next writer takes the dump: copies of messages stored before the compaction are found, not stored again.
  const next = open(file);
  writeNewestFirst(next, 'a', 100);
  assert.is(next.stats().messages, 3 * MIN + 100);
  assert.not.ok(next.compactIfDue(), 'a writer that added nothing new');
  next.close();
});

Compact('not due: less than the index held, fewer than the minimum, an index in memory', () => {
  const file = path.join(dir, 'grown.db');
  const first = open(file);
  writeNewestFirst(first, 'a', 2 * MIN);
  first.close();
  const size = pages(file);
  const second = open(file);
  writeNewestFirst(second, 'b', 2 * MIN - 50, T_END - 5000 * HOUR);
  assert.not.ok(second.compactIfDue(), 'added less than the index held');
  second.close();
  assert.ok(pages(file) > size, 'the file as its writes left it');
  const third = open(file);
  writeNewestFirst(third, 'c', 4 * MIN, T_END - 9000 * HOUR);
  assert.ok(third.compactIfDue(), 'added as many as it held: due');
  third.close();

  const small = open(path.join(dir, 'small.db'));
  writeNewestFirst(small, 'a', MIN - 50);
  assert.not.ok(small.compactIfDue(), 'fewer than the minimum');
  small.close();
  const memory = open(':memory:');
  writeNewestFirst(memory, 'a', 2 * MIN);
  assert.not.ok(memory.compactIfDue(), 'in memory');
  memory.close();
});

/** A transcript of `count` assistant lines in project p1 of `cfg`, a minute apart, `from` minutes before T_END. */
function transcript(cfg: string, name: string, from: number, count: number): void {
  const line = (id: string, ts: number): string => JSON.stringify({
    type: 'assistant', timestamp: new Date(ts).toISOString(), sessionId: 's1', requestId: `req_${id}`,
    message: { id: `msg_${id}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 5, output_tokens: 7 } },
  });
  fs.mkdirSync(path.join(cfg, 'p1'), { recursive: true });
  const lines = Array.from({ length: count }, (_, i) => line(`${name}${i}`, T_END - (from + i) * 60_000));
  fs.writeFileSync(path.join(cfg, 'p1', `${name}.jsonl`), `${lines.reverse().join('\n')}\n`);
}

/** The index opened for a run whose compactIfDue calls are recorded (true: it compacted). */
function watched(file: string): { idx: Index; calls: boolean[] } {
  const idx = open(file);
  const calls: boolean[] = [];
  const compactIfDue = idx.compactIfDue;
  idx.compactIfDue = () => {
    calls.push(compactIfDue());
    return calls.at(-1)!;
  };
  return { idx, calls };
}

Compact('a command\'s catch-up compacts a first index at its end, and not one that catches up a little', async () => {
  const cfg = path.join(dir, 'cli-cfg', 'projects');
  for (let f = 0; f < 5; f++) transcript(cfg, `t${f}`, f * 1000, MIN / 2);
  const file = path.join(dir, 'cli.db');
  const compacted = async (): Promise<boolean[]> => {
    const { idx, calls } = watched(file);
    await catchUp({ index: idx, indexFile: file, projectsDirs: [cfg], prices: async () => prices, log: () => {} });
    idx.close();
    return calls;
  };
  assert.equal(await compacted(), [true], 'a first index');
  assert.is(sqlValue(file, 'SELECT count(*) FROM messages'), 5 * (MIN / 2));
  transcript(cfg, 't5', 9000, 100);
  assert.equal(await compacted(), [false], 'a little more');
  assert.is(sqlValue(file, 'SELECT count(*) FROM messages'), 5 * (MIN / 2) + 100);
});

Compact('a compaction that fails on its worker is logged, leaves the file as it was, and writes go on', async () => {
  const file = path.join(dir, 'failing.db');
  const logs: string[] = [];
  const idx = open(file, { log: (m) => logs.push(m) });
  writeNewestFirst(idx, 'a', 3 * MIN);
  idx.commit();
  const before = contents(file);
  const size = pages(file);
  // Another program holds the write lock past the worker's busy timeout: its VACUUM fails (as a full disk would).
  const other = new Database(file);
  other.exec('BEGIN IMMEDIATE');
  try {
    assert.is(await idx.compactInBackground(), false);
  } finally {
    other.exec('ROLLBACK');
    other.close();
  }
  assert.ok(logs.some((m) => /the index was not compacted \(database is locked\); it is whole as it was/.test(m)), logs.join(' / '));
  assert.is(idx.writesHeld(), null, 'writes go on');
  assert.is(pages(file), size, 'the file as it was');
  assert.equal(contents(file), before);
  writeNewestFirst(idx, 'late', 100, T_END + 200 * HOUR);
  assert.ok(idx.commit(), 'a write after it commits');
  assert.is(idx.writeFailure(), null);
  assert.is(await idx.compactInBackground(), false, 'not tried again at every re-check');
  writeNewestFirst(idx, 'more', MIN, T_END + 400 * HOUR);
  assert.ok(await idx.compactInBackground(), 'tried again once the minimum more was written');
  idx.close();
});

Compact('the server\'s start-up scan compacts on a worker thread; its writes wait meanwhile and go on after', async () => {
  const cfg = path.join(dir, 'server-cfg', 'projects');
  for (let f = 0; f < 3; f++) transcript(cfg, `t${f}`, f * 1000, MIN);
  const file = path.join(dir, 'server.db');
  // The worker holds the write lock, as its VACUUM does, until this file exists: the compaction lasts for the checks.
  const gate = path.join(dir, 'server.gate');
  const logs: string[] = [];
  const idx = open(file, { log: (m) => logs.push(m), compactTestGate: gate });
  const runs: Promise<boolean>[] = [];
  const compactInBackground = idx.compactInBackground;
  idx.compactInBackground = () => {
    const run = compactInBackground();
    runs.push(run);
    return run;
  };
  const pipeline = await startPipeline({ projectsDirs: [cfg], index: idx, log: (m) => logs.push(m), threads: 1 });
  try {
    await pipeline.watching;
    assert.ok(runs.length >= 1, 'asked for after the scan');
    const size = pages(file);
    const held = idx.writesHeld();
    assert.ok(held, 'the writes are held while the worker compacts');
    idx.setFinalSince(null);
    assert.ok(logs.some((m) => /refused/.test(m)), 'a write that did not wait is refused, not waited on');
    assert.is(idx.writeFailure(), null, 'and is no failure of the file');
    assert.is(idx.stats().messages, 3 * MIN, 'the queries answer meanwhile');
    // A transcript written meanwhile waits with its batch, and lands after the compaction.
    transcript(cfg, 't3', 9000, 100);
    pipeline.ingest.check(path.join(cfg, 'p1', 't3.jsonl'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.is(idx.stats().messages, 3 * MIN, 'not written while the compaction holds the lock');
    fs.writeFileSync(gate, '');
    assert.is(await runs[0], true, `compacted: ${logs.join(' / ')}`);
    assert.is(idx.writesHeld(), null, 'writes go on');
    // Three transcripts of one session fill their pages well already: smaller, not by much (a tenth in the first test).
    assert.ok(pages(file) < size, `smaller: ${size} -> ${pages(file)} pages`);
    assert.is(sqlValue(file, 'PRAGMA freelist_count'), 0, 'written again whole');
    assert.is(fs.statSync(`${file}-wal`).size, 0, 'the WAL emptied');
    await pipeline.ingest.idle();
    idx.commit();
    assert.is(sqlValue(file, 'SELECT count(*) FROM messages'), 3 * MIN + 100, 'the first index and what came after it');
    assert.is(await idx.compactInBackground(), false, 'not twice for the same growth');
  } finally {
    await pipeline.close();
    idx.close();
  }
});

Compact.run();
