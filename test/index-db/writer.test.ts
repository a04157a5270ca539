// The writer: dedup rules with exact figures, rollups kept equal to the messages, resets, gone
// files, restarts, titles and prompts, stats. Real SQLite files in a temp dir.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { NewerSchemaError } from '../../src/index-db/errors.ts';
import { NUM, NUM_COLS, hashKey } from '../../src/workers/protocol.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import type { FileRole, IndexDb } from '../../src/index-db/types.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { openKeyed, sqlValue } from '../helpers/sqlite.ts';

const catalogue = JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Record<string, unknown>;
const prices = PriceTable.fromCatalogue(catalogue, 'fixture');
const HAIKU = 'claude-haiku-4-5-20251001'; // $1/M in, $5/M out
const T0 = Date.UTC(2026, 10, 20, 10, 15);
const MIN = 60_000;

const { dir } = tempDir('index-writer-');
let n = 0;
/** Open indexes; their pending writes are committed before a second connection looks. */
const live = new Set<ReturnType<typeof openIndex>>();
function track(idx: ReturnType<typeof openIndex>): IndexDb {
  live.add(idx);
  const close = idx.close;
  idx.close = () => {
    live.delete(idx);
    close();
  };
  return idx;
}
function fresh(): { idx: IndexDb; file: string; root: string } {
  const file = path.join(dir, `i${++n}.db`);
  const idx = track(openIndex(file, { log: () => {} }));
  idx.setPrices(prices);
  return { idx, file, root: path.join(dir, `cfg${n}`, 'projects', 'p1') };
}
const role = (session: string | null, agentId: string | null = null, agentType: string | null = null): FileRole => ({
  project: 'p1', session, agentId, agentType, agentDescription: agentType ? `${agentType} task` : null,
});
/** Read-only look at the file with a second connection. */
function peek<T>(file: string, sql: string, ...args: unknown[]): T[] {
  for (const idx of live) idx.commit();
  const db = openKeyed(file, { readonly: true });
  try {
    return db.prepare(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}
const messages = (file: string) =>
  peek<{ key: string; output: number; cost: number; sid: string; path: string }>(
    file,
    'SELECT unpack_key(m.stored_key) AS key, m.output, m.cost, s.sid, f.path FROM messages m JOIN sessions s ON s.id = m.session_id JOIN files f ON f.id = m.file_id ORDER BY key',
  );
/** Every rollup cell equals the SUM over messages of that cell. */
function assertRollupsExact(file: string): void {
  const cols = 'count(*) AS n, sum(input) AS i, sum(output) AS o, sum(cache_create) AS cc, sum(cache_read) AS cr, sum(cache_1h) AS c1, sum(web_search) AS ws, sum(cost) AS c';
  const fromMessages = peek<Record<string, number>>(file, `SELECT ts / 3600000 AS hour, project_id AS p, session_id AS s, model_id AS m, agent_id IS NOT NULL AS sub, ${cols}
    FROM messages GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`);
  const fromRollup = peek<Record<string, number>>(file, `SELECT hour, project_id AS p, session_id AS s, model_id AS m, sub, messages AS n, input AS i, output AS o,
    cache_create AS cc, cache_read AS cr, cache_1h AS c1, web_search AS ws, cost AS c FROM usage_hourly ORDER BY 1, 2, 3, 4, 5`);
  assert.is(fromRollup.length, fromMessages.length, 'rollup cells');
  fromMessages.forEach((want, i) => {
    const got = fromRollup[i]!;
    for (const k of Object.keys(want)) {
      if (k === 'c') assert.ok(Math.abs(got[k]! - want[k]!) < 1e-9, `cost of cell ${i}: ${got[k]} vs ${want[k]}`);
      else assert.is(got[k], want[k], `${k} of cell ${i}`);
    }
  });
  const [all] = peek<{ n: number; o: number; c: number }>(file, 'SELECT count(*) AS n, sum(output) AS o, round(sum(cost), 9) AS c FROM messages');
  for (const table of ['usage_hourly_model', 'usage_daily']) {
    const [sums] = peek<{ n: number; o: number }>(file, `SELECT sum(messages) AS n, sum(output) AS o, round(sum(cost), 9) AS c FROM ${table}`);
    assert.equal(sums, all, `${table} totals`);
  }
  const [local] = peek<{ n: number; c: number }>(file, 'SELECT sum(messages) AS n, round(sum(cost), 9) AS c FROM cost_local_hourly');
  assert.equal(local, { n: all!.n, c: all!.c }, 'cost_local_hourly totals');
}

const Dedup = suite('dedup');

Dedup('the copy with the most output tokens wins, in either order, with exact cost', () => {
  for (const order of [0, 1]) {
    const { idx, file, root } = fresh();
    const a = batchOf(path.join(root, 'sa.jsonl'), [{ ts: T0, messageId: 'm1', requestId: 'r1', model: HAIKU, input: 1000, output: 100 }]);
    const b = batchOf(path.join(root, 'sb.jsonl'), [{ ts: T0 + MIN, messageId: 'm1', requestId: 'r1', model: HAIKU, input: 1000, output: 300 }]);
    for (const [batch, sid] of order ? [[b, 'sb'], [a, 'sa']] as const : [[a, 'sa'], [b, 'sb']] as const) idx.applyBatch(batch, role(sid), 500, 1);
    const rows = messages(file);
    assert.is(rows.length, 1);
    assert.is(rows[0]!.output, 300);
    assert.is(rows[0]!.sid, 'sb');
    assert.ok(Math.abs(rows[0]!.cost - (1000 * 1e-6 + 300 * 5e-6)) < 1e-12);
    assert.is(peek(file, 'SELECT * FROM alternates').length, 1);
    assertRollupsExact(file);
    idx.close();
  }
});

Dedup('on a tie the earliest file (first timestamp) wins, then the path', () => {
  const { idx, file, root } = fresh();
  // 'late' is applied first but starts later than 'early'.
  idx.applyBatch(batchOf(path.join(root, 'late.jsonl'), [{ ts: T0, messageId: 'm1', requestId: 'r1', output: 50 }], { meta: { firstTs: T0 - 10 * MIN } }), role('late'), 100, 1);
  idx.applyBatch(batchOf(path.join(root, 'early.jsonl'), [{ ts: T0, messageId: 'm1', requestId: 'r1', output: 50 }], { meta: { firstTs: T0 - 60 * MIN } }), role('early'), 100, 1);
  assert.is(messages(file)[0]!.sid, 'early');
  // Same first timestamp: the smaller path wins, whichever came first.
  idx.applyBatch(batchOf(path.join(root, 'zz.jsonl'), [{ ts: T0, messageId: 'm2', requestId: 'r2', output: 70 }]), role('zz'), 100, 1);
  idx.applyBatch(batchOf(path.join(root, 'aa.jsonl'), [{ ts: T0, messageId: 'm2', requestId: 'r2', output: 70 }]), role('aa'), 100, 1);
  assert.is(messages(file).find((m) => m.key === 'rm2 r2')!.sid, 'aa');
  assertRollupsExact(file);
  idx.close();
});

Dedup('cross-file replays (resumed session, subagent copies) count once', () => {
  const { idx, file, root } = fresh();
  const lines = [1, 2, 3].map((i) => ({ ts: T0 + i * MIN, messageId: `m${i}`, requestId: `r${i}`, model: HAIKU, output: 1000, input: 10 }));
  // Each response written as two lines in the original.
  idx.applyBatch(batchOf(path.join(root, 'orig.jsonl'), [...lines, ...lines]), role('orig'), 900, 1);
  // A resumed session replays the first two, then adds one of its own.
  idx.applyBatch(batchOf(path.join(root, 'resumed.jsonl'), [...lines.slice(0, 2), { ts: T0 + 9 * MIN, messageId: 'm9', requestId: 'r9', model: HAIKU, output: 1000 }]), role('resumed'), 300, 1);
  // A subagent transcript of the original replays m3.
  idx.applyBatch(batchOf(path.join(root, 'orig/subagents/agent-x.jsonl'), [lines[2]!], { meta: { firstTs: T0 + 30 * MIN } }), role('orig', 'x', 'Explore'), 100, 1);
  const rows = messages(file);
  assert.equal(rows.map((r) => `${r.key}:${r.sid}`), ['rm1 r1:orig', 'rm2 r2:orig', 'rm3 r3:orig', 'rm9 r9:resumed']);
  const [t] = peek<{ c: number; o: number }>(file, 'SELECT sum(cost) AS c, sum(output) AS o FROM usage_hourly');
  assert.is(t!.o, 4000);
  assert.ok(Math.abs(t!.c - (4 * 1000 * 5e-6 + 3 * 10 * 1e-6)) < 1e-12);
  const stats = idx.stats();
  assert.is(stats.messages, 4);
  assert.is(stats.usageLines, 10);
  assert.is(stats.duplicates, 6);
  assertRollupsExact(file);
  idx.close();
});

Dedup('message.id without requestId dedups within the session only; no ids: every line counts', () => {
  const { idx, file, root } = fresh();
  idx.applyBatch(batchOf(path.join(root, 's1.jsonl'), [
    { ts: T0, messageId: 'mx', output: 10 },
    { ts: T0 + 1, messageId: 'mx', output: 20 },
    { ts: T0 + 2, output: 5 },
    { ts: T0 + 2, output: 5 },
  ]), role('s1'), 400, 1);
  idx.applyBatch(batchOf(path.join(root, 's2.jsonl'), [{ ts: T0, messageId: 'mx', output: 10 }]), role('s2'), 100, 1);
  const rows = messages(file);
  assert.equal(rows.map((r) => [r.key.slice(0, 1), r.sid, r.output]), [['f', 's1', 5], ['f', 's1', 5], ['m', 's1', 20], ['m', 's2', 10]]);
  assertRollupsExact(file);
  idx.close();
});

Dedup('a later batch of the same file with a better copy replaces it in place, rollups exact', () => {
  const { idx, file, root } = fresh();
  const f = path.join(root, 's1.jsonl');
  idx.applyBatch(batchOf(f, [{ ts: T0, messageId: 'm1', requestId: 'r1', output: 10, model: HAIKU, tools: ['Bash'] }]), role('s1'), 100, 1);
  idx.applyBatch(batchOf(f, [{ ts: T0 + 2 * 3_600_000, messageId: 'm1', requestId: 'r1', output: 40, model: HAIKU, tools: ['Read'] }], { from: 100 }), role('s1'), 200, 2);
  const rows = messages(file);
  assert.is(rows.length, 1);
  assert.is(rows[0]!.output, 40);
  assert.is(peek(file, 'SELECT * FROM alternates').length, 0, 'a copy in the winner file is not kept');
  assert.equal(peek(file, 'SELECT tool, count FROM tools_hourly'), [{ tool: 'Read', count: 1 }]);
  assert.equal(peek(file, 'SELECT tool, count FROM tools_daily'), [{ tool: 'Read', count: 1 }]);
  assertRollupsExact(file);
  idx.close();
});

Dedup('a key whose hash is taken by another key probes the next slot', () => {
  const { idx, file, root } = fresh();
  idx.applyBatch(batchOf(path.join(root, 'seed.jsonl'), [{ ts: T0, messageId: 'seed', requestId: 'r', output: 1 }]), role('seed'), 100, 1);
  idx.close();
  // Plant a different key on the hash of 'rm1 r1' (a collision no real pair of ids is known to produce).
  const db = new Database(file);
  db.prepare(`INSERT INTO messages (hkey, stored_key, file_id, off, ts, project_id, session_id, model_id, agent_id, input, output,
    cache_create, cache_read, cache_1h, web_search, fast, cost_usd, cost, tools)
    SELECT ?, 'rplanted x', file_id, 999, ts, project_id, session_id, model_id, agent_id, input, output,
    cache_create, cache_read, cache_1h, web_search, fast, cost_usd, cost, tools FROM messages`).run(hashKey('rm1 r1'));
  db.close();
  const again = track(openIndex(file, { log: () => {} }));
  again.applyBatch(batchOf(path.join(root, 'a.jsonl'), [{ ts: T0, messageId: 'm1', requestId: 'r1', output: 10 }]), role('a'), 100, 1);
  again.applyBatch(batchOf(path.join(root, 'b.jsonl'), [{ ts: T0, messageId: 'm1', requestId: 'r1', output: 20 }]), role('b'), 100, 1);
  const rows = peek<{ hkey: number; key: string; output: number }>(file, 'SELECT hkey, unpack_key(stored_key) AS key, output FROM messages ORDER BY hkey');
  const h = hashKey('rm1 r1');
  assert.equal(rows.filter((r) => r.hkey === h || r.hkey === h + 1), [
    { hkey: h, key: 'rplanted x', output: 1 },
    { hkey: h + 1, key: 'rm1 r1', output: 20 },
  ]);
  again.close();
});

Dedup('two keys of one hash in one batch: both are stored, the second in the next slot, under the ids of their order', () => {
  const { idx, file, root } = fresh();
  const batch = batchOf(path.join(root, 'a.jsonl'), [
    { ts: T0, messageId: 'm1', requestId: 'r1', output: 10 },
    { ts: T0 + MIN, messageId: 'm2', requestId: 'r2', output: 20 },
    { ts: T0 + 2 * MIN, messageId: 'm3', requestId: 'r3', output: 30 },
  ]);
  // The second response's key on the first one's hash (a collision no real pair of ids is known to produce): it meets
  // the first while that row still waits for the batch's end to be written (message-inserts.ts).
  const h = hashKey('rm1 r1');
  batch.nums[1 * NUM_COLS + NUM.hkey] = h;
  idx.applyBatch(batch, role('a'), 300, 1);
  const rows = peek<{ id: number; hkey: number; key: string; output: number }>(file, 'SELECT id, hkey, unpack_key(stored_key) AS key, output FROM messages ORDER BY id');
  assert.equal(rows.map((r) => [r.id, r.key, r.output]), [[1, 'rm1 r1', 10], [2, 'rm2 r2', 20], [3, 'rm3 r3', 30]]);
  assert.equal(rows.slice(0, 2).map((r) => r.hkey), [h, h + 1]);
  assertRollupsExact(file);
  idx.close();
});

Dedup('stored keys read ahead in slices, or a write before they are all read, dedup a restarted index the same', () => {
  const { idx, file, root } = fresh();
  const first = Array.from({ length: 25 }, (_, i) => ({ ts: T0 + i * MIN, messageId: `m${i}`, requestId: `r${i}`, output: 10 }));
  idx.applyBatch(batchOf(path.join(root, 'a.jsonl'), first), role('a'), 10_000, 1);
  idx.close();
  // The keys read from the messages, as with no dump of them beside the file (key-dump.test.ts has those).
  fs.rmSync(`${file}.keys`);
  const want = messages(file);
  // The same 25 responses again from another file, with more output: each replaces its stored winner, none is added.
  const again = first.map((r) => ({ ...r, output: 20 }));

  // Read ahead 10 keys a slice: not done after one or two slices, done after the third reads the last 5.
  const slices = track(openIndex(file, { log: () => {} }));
  slices.setPrices(prices);
  assert.equal([slices.preloadKeys(10), slices.preloadKeys(10), slices.preloadKeys(10), slices.preloadKeys(10)], [false, false, true, true]);
  slices.applyBatch(batchOf(path.join(root, 'b.jsonl'), again), role('b'), 10_000, 1);
  const afterSlices = messages(file);
  slices.close();
  assert.is(afterSlices.length, want.length, 'no response counted twice');
  assert.ok(afterSlices.every((m) => m.output === 20 && m.path.endsWith('b.jsonl')));

  // One slice read, then a write: it reads the rest before it dedups.
  const { idx: other, file: file2, root: root2 } = fresh();
  other.applyBatch(batchOf(path.join(root2, 'a.jsonl'), first), role('a'), 10_000, 1);
  other.close();
  fs.rmSync(`${file2}.keys`);
  const partly = track(openIndex(file2, { log: () => {} }));
  partly.setPrices(prices);
  assert.is(partly.preloadKeys(10), false);
  partly.applyBatch(batchOf(path.join(root2, 'b.jsonl'), again), role('b'), 10_000, 1);
  const afterPartly = messages(file2);
  partly.close();
  assert.is(afterPartly.length, want.length, 'no response counted twice');
  assert.ok(afterPartly.every((m) => m.output === 20));
  assertRollupsExact(file2);
});

Dedup.run();

const Files = suite('files');

Files('resetFile drops the file, promotes the best other copy, and resets the cursor', () => {
  const { idx, file, root } = fresh();
  const a = path.join(root, 'a.jsonl');
  idx.applyBatch(batchOf(path.join(root, 'b.jsonl'), [{ ts: T0, messageId: 'm1', requestId: 'r1', output: 20 }]), role('b'), 100, 1);
  idx.applyBatch(batchOf(path.join(root, 'c.jsonl'), [{ ts: T0, messageId: 'm1', requestId: 'r1', output: 30 }]), role('c'), 100, 1);
  idx.applyBatch(batchOf(a, [{ ts: T0, messageId: 'm1', requestId: 'r1', output: 90 }, { ts: T0, output: 7 }]), role('a'), 200, 1);
  assert.equal(messages(file).map((m) => m.sid), ['a', 'a']);
  const before = idx.dataVersion();
  idx.resetFile(a);
  assert.ok(idx.dataVersion() > before);
  const rows = messages(file);
  assert.equal(rows.map((m) => [m.sid, m.output]), [['c', 30]]);
  assert.equal(peek(file, 'SELECT output FROM alternates'), [{ output: 20 }]);
  const cur = idx.cursorOf(a)!;
  assert.is(cur.offset, 0);
  assert.is(cur.head, '');
  assertRollupsExact(file);
  // Reading it again restores the winner.
  idx.applyBatch(batchOf(a, [{ ts: T0, messageId: 'm1', requestId: 'r1', output: 90 }]), role('a'), 100, 1);
  assert.equal(messages(file).map((m) => [m.sid, m.output]), [['a', 90]]);
  assertRollupsExact(file);
  idx.close();
});

Files('markGone keeps the history; restart with the same file keeps everything', () => {
  const { idx, file, root } = fresh();
  const f = path.join(root, 's1.jsonl');
  idx.applyBatch(batchOf(f, [{ ts: T0, messageId: 'm1', requestId: 'r1', output: 10, model: HAIKU }], { consumedTo: 120, head: 'abcd', meta: { cwd: '/home/me/proj-one', firstPrompt: 'hello', title: 'T', titleKind: 'ai' } }), role('s1'), 130, 1234.5);
  idx.markGone(f);
  assert.is(idx.cursorOf(f)!.gone, true);
  assert.is(messages(file).length, 1);
  idx.close();
  const again = track(openIndex(file, { log: () => {} }));
  again.setPrices(prices);
  assert.equal(again.cursorOf(f), { size: 130, mtimeMs: 1234.5, offset: 120, head: 'abcd', gone: true, hasPrompt: true });
  assert.is(again.cursorOf(path.join(root, 'other.jsonl')), undefined);
  assert.is(again.stats().messages, 1);
  assert.is(again.stats().filesGone, 1);
  // New lines after restart continue the same file without duplicating.
  again.applyBatch(batchOf(f, [{ ts: T0 + MIN, messageId: 'm2', requestId: 'r2', output: 5, model: HAIKU }], { from: 120 }), role('s1'), 300, 2);
  assert.is(again.stats().messages, 2);
  assert.is(again.cursorOf(f)!.gone, false);
  assertRollupsExact(file);
  again.close();
});

Files('titles: custom beats ai, the latest of a kind wins; the first prompt is kept once; project name from cwd', () => {
  const { idx, file, root } = fresh();
  const f = path.join(root, 's1.jsonl');
  const apply = (meta: object, from: number) => idx.applyBatch(batchOf(f, [], { from, consumedTo: from + 10, meta }), role('s1'), from + 10, 1);
  assert.is(idx.cursorOf(f), undefined);
  apply({ title: 'ai one', titleKind: 'ai', firstPrompt: 'first', cwd: '/w/alpha' }, 0);
  assert.is(idx.cursorOf(f)!.hasPrompt, true);
  apply({ title: 'mine', titleKind: 'custom', firstPrompt: 'second' }, 10);
  apply({ title: 'ai two', titleKind: 'ai', cwd: '/w/beta/' }, 20);
  const [s] = peek<{ title: string; title_kind: string; first_prompt: string; cwd: string }>(file, 'SELECT title, title_kind, first_prompt, cwd FROM sessions');
  assert.equal(s, { title: 'mine', title_kind: 'custom', first_prompt: 'first', cwd: '/w/beta/' });
  apply({ title: 'mine 2', titleKind: 'custom' }, 30);
  assert.is(peek<{ title: string }>(file, 'SELECT title FROM sessions')[0]!.title, 'mine 2');
  // A subagent file never supplies the session's prompt, and never asks for one.
  const sub = path.join(root, 's1/subagents/agent-q.jsonl');
  idx.applyBatch(batchOf(sub, [], { consumedTo: 5, meta: { firstPrompt: 'task prompt' } }), role('s1', 'q'), 5, 1);
  assert.is(idx.cursorOf(sub)!.hasPrompt, true);
  assert.is(peek<{ first_prompt: string }>(file, 'SELECT first_prompt FROM sessions')[0]!.first_prompt, 'first');
  idx.close();
});

Files('a project-root agent-<id>.jsonl (2.0.x) gives the session its lines name a subagent prompt, and asks only while it has none', () => {
  const { idx, file, root } = fresh();
  idx.applyBatch(batchOf(path.join(root, 's1.jsonl'), [], { consumedTo: 5, meta: { firstPrompt: 'own prompt' } }), role('s1'), 5, 1);
  const old = path.join(root, 'agent-r1.jsonl');
  idx.applyBatch(batchOf(old, [], { consumedTo: 5, meta: { sessionId: 's2' } }), role(null, 'r1'), 5, 1);
  assert.is(idx.cursorOf(old)!.hasPrompt, false, 'no prompt yet: the next read looks for one');
  idx.applyBatch(batchOf(old, [], { from: 5, consumedTo: 9, meta: { sessionId: 's2', firstPrompt: 'review it' } }), role(null, 'r1'), 9, 2);
  assert.is(idx.cursorOf(old)!.hasPrompt, true);
  const beside = path.join(root, 'agent-r2.jsonl');
  idx.applyBatch(batchOf(beside, [], { consumedTo: 5, meta: { sessionId: 's1' } }), role(null, 'r2'), 5, 1);
  assert.is(idx.cursorOf(beside)!.hasPrompt, true, 'its session has a prompt of its own: nothing to look for');
  assert.equal(peek<{ sid: string; first_prompt: string | null; agent_prompt: string | null }>(file, 'SELECT sid, first_prompt, agent_prompt FROM sessions ORDER BY sid'), [
    { sid: 's1', first_prompt: 'own prompt', agent_prompt: null },
    { sid: 's2', first_prompt: null, agent_prompt: 'review it' },
  ]);
  idx.close();
});

Files('markUnreadable and line stats are counted', () => {
  const { idx, root } = fresh();
  idx.applyBatch(batchOf(path.join(root, 's1.jsonl'), [{ ts: T0, output: 1 }], { stats: { lines: 9, usageLines: 1, blank: 2, malformed: 3, giant: 1, outOfRange: 2 } }), role('s1'), 100, 1);
  idx.markUnreadable(path.join(root, 'locked.jsonl'), 'EACCES');
  const s = idx.stats();
  assert.equal(s, { files: 2, filesGone: 0, lines: 9, usageLines: 1, malformed: 3, giant: 1, blank: 2, outOfRange: 2, unreadable: 1, messages: 1, duplicates: 0, newestTs: T0 });
  idx.close();
});

Files('queries see a write at once, before its group commit, through the rollups', () => {
  const { idx, root } = fresh();
  const scope = {
    range: { from: '2026-11-20', to: '2026-11-20', fromMs: T0 - 3_600_000, toMs: T0 + 3_600_000, bucket: 'hour' as const, kind: 'custom' as const, days: null },
    project: null,
    now: T0,
  };
  idx.applyBatch(batchOf(path.join(root, 'a.jsonl'), [{ ts: T0, messageId: 'm1', requestId: 'r1', model: HAIKU, input: 1000, output: 1000 }]), role('a'), 100, 1);
  assert.is(idx.queries.overview(scope).totals.messages, 1);
  idx.applyBatch(batchOf(path.join(root, 'a.jsonl'), [{ ts: T0 + MIN, messageId: 'm2', requestId: 'r2', model: HAIKU, input: 1000, output: 1000 }], { from: 100 }), role('a'), 200, 2);
  const o = idx.queries.overview(scope);
  assert.is(o.totals.messages, 2, 'the second write is visible without a commit');
  assert.ok(Math.abs(o.totals.cost - 2 * 0.006) < 1e-12, String(o.totals.cost));
  idx.close();
});

Files('a subagent keeps its type and description; a later meta file fills them in, also after a restart', () => {
  const { idx, file, root } = fresh();
  const sub = path.join(root, 's1/subagents/agent-q.jsonl');
  const agents = () => peek<{ agent: string; type: string | null; description: string | null }>(file, 'SELECT agent, type, description FROM agents');
  const row = (i: number) => ({ ts: T0 + i * MIN, messageId: `m${i}`, requestId: `r${i}`, model: HAIKU, output: 10 });
  // No .meta.json yet.
  idx.applyBatch(batchOf(sub, [row(1), row(2)]), role('s1', 'q'), 100, 1);
  assert.equal(agents(), [{ agent: 'q', type: null, description: null }]);
  // The meta file appeared: every row of the next batch names the agent's type.
  idx.applyBatch(batchOf(sub, [row(3), row(4)], { from: 100 }), role('s1', 'q', 'Explore'), 200, 2);
  assert.equal(agents(), [{ agent: 'q', type: 'Explore', description: 'Explore task' }]);
  // A role without meta (null) never erases what is known.
  idx.applyBatch(batchOf(sub, [row(5)], { from: 200 }), role('s1', 'q'), 300, 3);
  assert.equal(agents(), [{ agent: 'q', type: 'Explore', description: 'Explore task' }]);
  idx.close();
  // After a restart the known values are loaded; a changed description is still written.
  const again = track(openIndex(file, { log: () => {} }));
  again.setPrices(prices);
  again.applyBatch(batchOf(sub, [row(6)], { from: 300 }), { ...role('s1', 'q', 'Explore'), agentDescription: 'dig deeper' }, 400, 4);
  assert.equal(agents(), [{ agent: 'q', type: 'Explore', description: 'dig deeper' }]);
  assert.is(peek<{ n: number }>(file, 'SELECT count(*) AS n FROM messages WHERE agent_id IS NOT NULL')[0]!.n, 6);
  again.close();
});

Files.run();

const Open = suite('open');

Open('a file of garbage bytes is rebuilt empty with a log line', () => {
  const file = path.join(dir, 'garbage.db');
  fs.writeFileSync(file, Buffer.from(Array.from({ length: 8192 }, (_, i) => (i * 7919) % 256)));
  const logs: string[] = [];
  const idx = openIndex(file, { log: (m) => logs.push(m) });
  idx.setPrices(prices);
  assert.is(logs.length, 1);
  assert.match(logs[0]!, /rebuilding/);
  assert.is(idx.stats().messages, 0);
  idx.applyBatch(batchOf('/x/p1/s.jsonl', [{ ts: T0, output: 1 }]), role('s'), 100, 1);
  assert.is(idx.stats().messages, 1);
  idx.close();
});

Open('a newer schema version is refused and left as it is (issue 37: not damage); a known one is kept', () => {
  const { idx, file, root } = fresh();
  idx.applyBatch(batchOf(path.join(root, 's.jsonl'), [{ ts: T0, output: 1 }]), role('s'), 100, 1);
  idx.close();
  const quiet: string[] = [];
  const same = openIndex(file, { log: (m) => quiet.push(m) });
  assert.is(same.stats().messages, 1);
  assert.is(quiet.length, 0);
  same.close();
  const db = new Database(file);
  db.pragma('user_version = 99');
  db.close();
  const before = fs.readFileSync(file);
  try {
    openIndex(file, { log: () => {} });
    assert.unreachable('opened a newer schema');
  } catch (err) {
    assert.instance(err, NewerSchemaError);
    assert.match((err as Error).message, /written by a newer version of cost-dashboard \(schema 99/);
  }
  assert.ok(fs.readFileSync(file).equals(before), 'the file as it was');
  assert.is(sqlValue(file, 'SELECT count(*) FROM messages'), 1);
});

Open('an old file without a version but with tables is rebuilt', () => {
  const file = path.join(dir, 'old.db');
  const db = new Database(file);
  db.exec('CREATE TABLE messages (x); CREATE TABLE files (y);');
  db.close();
  const logs: string[] = [];
  const idx = openIndex(file, { log: (m) => logs.push(m) });
  assert.is(logs.length, 1);
  assert.is(idx.stats().files, 0);
  idx.close();
});

Open('a process that dies without close keeps what it committed; the next open checks the file', () => {
  const file = path.join(dir, 'crash.db');
  const script = path.join(dir, 'crash-child.ts');
  const src = (m: string) => JSON.stringify(new URL(`../../src/${m}`, import.meta.url).pathname);
  fs.writeFileSync(script, `
    import { openIndex } from ${src('index-db/index.ts')};
    import { encodeBatch } from ${src('workers/protocol.ts')};
    const idx = openIndex(${JSON.stringify(file)}, { log: () => {} });
    const row = { ts: ${T0}, input: 1, output: 2, cacheCreate: 0, cacheRead: 0, cache1h: 0, webSearch: 0, webFetch: 0, costUSD: null, offset: 0,
      fast: false, sidechain: false, geo: false, advisor: false, messageId: 'm', requestId: 'r', sessionId: '', model: 'x', agentId: '', tools: [], branch: '', entrypoint: '',
      skill: '', mcpServer: '', mcpTool: '', agentType: '', effort: '' };
    const stats = { lines: 1, usageLines: 1, blank: 0, malformed: 0, giant: 0, outOfRange: 0 };
    idx.applyBatch(encodeBatch([row], { path: '/c/p1/s.jsonl', from: 0, consumedTo: 50, head: 'ab', meta: {}, stats }),
      { project: 'p1', session: 's', agentId: null, agentType: null, agentDescription: null }, 50, 1);
    idx.commit();
    idx.applyBatch(encodeBatch([{ ...row, messageId: 'm2', offset: 50 }], { path: '/c/p1/s.jsonl', from: 50, consumedTo: 99, head: '', meta: {}, stats }),
      { project: 'p1', session: 's', agentId: null, agentType: null, agentDescription: null }, 99, 2);
    process.exit(0); // no close, the second batch is not committed yet
  `);
  const r = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: new URL('../..', import.meta.url).pathname, encoding: 'utf8', timeout: 30_000 });
  assert.is(r.status, 0, r.stderr);
  assert.equal(peek(file, "SELECT value FROM meta WHERE key = 'open'"), [{ value: '1' }], 'left open');
  const logs: string[] = [];
  const idx = track(openIndex(file, { log: (m) => logs.push(m) }));
  assert.equal(logs, []);
  assert.is(idx.stats().messages, 1);
  assert.is(idx.cursorOf('/c/p1/s.jsonl')!.offset, 50, 'the cursor matches the committed rows');
  idx.close();
  assert.equal(peek(file, "SELECT value FROM meta WHERE key = 'open'"), [{ value: '0' }], 'closed cleanly');
});

Open('a file whose pages after the first are garbage is rebuilt, even after a clean close', () => {
  const { idx, file, root } = fresh();
  for (let i = 0; i < 50; i++) idx.applyBatch(batchOf(path.join(root, `s${i}.jsonl`), [{ ts: T0 + i, messageId: `m${i}`, requestId: 'r', output: i }]), role(`s${i}`), 100, 1);
  idx.close();
  const bytes = fs.readFileSync(file);
  assert.ok(bytes.length > 8192);
  for (let i = 4096; i < bytes.length; i++) bytes[i] = (i * 31) % 251;
  fs.writeFileSync(file, bytes);
  const logs: string[] = [];
  const again = track(openIndex(file, { log: (m) => logs.push(m) }));
  assert.is(logs.length, 1);
  assert.match(logs[0]!, /rebuilding/);
  assert.is(again.stats().messages, 0);
  again.close();
});

Open.run();

const Prices = suite('prices');

Prices('setPrices with a different table recomputes every cost and the priced flags; the same table is a no-op', () => {
  const { idx, file, root } = fresh();
  idx.applyBatch(batchOf(path.join(root, 'a.jsonl'), [
    { ts: T0, messageId: 'm1', requestId: 'r1', model: HAIKU, input: 1000, output: 1000 },
    { ts: T0, messageId: 'm2', requestId: 'r2', model: 'claude-mystery-9', input: 1000, output: 1000 },
    { ts: T0, messageId: 'm3', requestId: 'r3', model: HAIKU, output: 1000, costUSD: 0.25 },
  ]), role('a'), 300, 1);
  idx.applyBatch(batchOf(path.join(root, 'b.jsonl'), [{ ts: T0, messageId: 'm1', requestId: 'r1', model: HAIKU, input: 1000, output: 10 }]), role('b'), 100, 1);
  const sum = () => peek<{ c: number }>(file, 'SELECT sum(cost) AS c FROM usage_hourly')[0]!.c;
  assert.ok(Math.abs(sum() - (0.006 + 0 + 0.25)) < 1e-12);
  assert.equal(peek(file, 'SELECT name, priced FROM models ORDER BY name'), [
    { name: 'claude-haiku-4-5-20251001', priced: 1 }, { name: 'claude-mystery-9', priced: 0 },
  ]);
  const v = idx.dataVersion();
  idx.setPrices(PriceTable.fromCatalogue(catalogue, 'again'));
  assert.is(idx.dataVersion(), v, 'same fingerprint: nothing to do');

  const doubled = structuredClone(catalogue) as Record<string, Record<string, number>>;
  const h = doubled[HAIKU]!;
  h.input_cost_per_token = 2e-6;
  h.output_cost_per_token = 10e-6;
  doubled['claude-mystery-9'] = { input_cost_per_token: 1e-6, output_cost_per_token: 1e-6 };
  idx.setPrices(PriceTable.fromCatalogue(doubled, 'doubled'));
  assert.ok(idx.dataVersion() > v);
  assert.ok(Math.abs(sum() - (0.012 + 0.002 + 0.25)) < 1e-12, String(sum()));
  assert.equal(peek(file, 'SELECT cost FROM alternates'), [{ cost: 1000 * 2e-6 + 10 * 10e-6 }]);
  assert.equal(peek<{ priced: number }>(file, 'SELECT priced FROM models ORDER BY name').map((r) => r.priced), [1, 1]);
  assertRollupsExact(file);
  // 'calculate' ignores the line's own costUSD.
  idx.setPrices(PriceTable.fromCatalogue(doubled, 'doubled', 'calculate'));
  assert.ok(Math.abs(sum() - (0.012 + 0.002 + 0.01)) < 1e-12, String(sum()));
  idx.close();
});

Prices('a reopened index reads with the built-in table without installing it (no reprice before the catalogue loads)', () => {
  const { idx, file, root } = fresh();
  idx.applyBatch(batchOf(path.join(root, 'a.jsonl'), [{ ts: T0, messageId: 'm1', requestId: 'r1', model: HAIKU, input: 1000, output: 1000 }]), role('a'), 100, 1);
  idx.close();
  const stored = peek<{ value: string }>(file, "SELECT value FROM meta WHERE key = 'price_fingerprint'")[0]!.value;
  assert.is(stored, prices.costFingerprint([HAIKU]), 'the model of the last batch is in the stored fingerprint');
  const again = track(openIndex(file, { log: () => {} }));
  const scope = {
    range: { from: '2026-11-20', to: '2026-11-20', fromMs: T0 - 3_600_000, toMs: T0 + 3_600_000, bucket: 'day' as const, kind: 'custom' as const, days: null },
    project: null,
    now: T0,
  };
  // Reads (insights uses the price table for cache savings) before any table is installed.
  assert.ok(again.queries.insights(scope));
  const v = again.dataVersion();
  assert.is(peek<{ value: string }>(file, "SELECT value FROM meta WHERE key = 'price_fingerprint'")[0]!.value, stored, 'fingerprint untouched');
  again.setPrices(PriceTable.fromCatalogue(catalogue, 'fixture'));
  assert.is(again.dataVersion(), v, 'the same catalogue again: no reprice');
  again.close();
});

/** A stored cost no table gives: a reprice overwrites it, anything else leaves it. */
function plantCost(file: string, meta?: string): void {
  const db = new Database(file);
  try {
    db.prepare('UPDATE messages SET cost = 123').run();
    // As an index written before the fingerprint covered the stored models (nor kept each model's).
    if (meta !== undefined) {
      db.prepare("UPDATE meta SET value = ? WHERE key = 'price_fingerprint'").run(meta);
      db.prepare("DELETE FROM meta WHERE key = 'price_models'").run();
    }
  } finally {
    db.close();
  }
}
const storedCosts = (file: string): number[] => peek<{ cost: number }>(file, 'SELECT cost FROM messages ORDER BY id').map((r) => r.cost);

Prices("a catalogue that changes only models the index does not hold reprices nothing; one that changes a stored model's price reprices", () => {
  const { idx, file, root } = fresh();
  // A name the catalogue prices by its longest prefix key (HAIKU's).
  const custom = `${HAIKU}-custom`;
  idx.applyBatch(batchOf(path.join(root, 'a.jsonl'), [
    { ts: T0, messageId: 'm1', requestId: 'r1', model: HAIKU, input: 1000, output: 1000 },
    { ts: T0, messageId: 'm2', requestId: 'r2', model: custom, input: 1000, output: 1000 },
  ]), role('a'), 200, 1);
  idx.close();
  plantCost(file);
  const again = track(openIndex(file, { log: () => {} }));
  const other = structuredClone(catalogue) as Record<string, Record<string, number>>;
  other['gpt-unrelated-1'] = { input_cost_per_token: 5e-6, output_cost_per_token: 5e-6 };
  const opus = Object.keys(other).find((k) => k.startsWith('claude-opus'))!;
  other[opus]!.input_cost_per_token = 99e-6;
  const v = again.dataVersion();
  again.setPrices(PriceTable.fromCatalogue(other, 'other models changed'));
  assert.is(again.dataVersion(), v, 'nothing written');
  assert.equal(storedCosts(file), [123, 123], 'no reprice');

  // A new key that the stored custom name now resolves to, at another price: that name's costs change, the others'
  // are left as they are (rollup-delta.test.ts checks the rollups of such a reprice).
  const exact = structuredClone(other);
  exact[custom] = { input_cost_per_token: 3e-6, output_cost_per_token: 3e-6 };
  again.setPrices(PriceTable.fromCatalogue(exact, 'custom priced'));
  assert.equal(storedCosts(file), [123, 0.006], 'the custom name repriced, alone');
  assert.is(peek<{ value: string }>(file, "SELECT value FROM meta WHERE key = 'price_fingerprint'")[0]!.value,
    PriceTable.fromCatalogue(exact, 'x').costFingerprint([HAIKU, custom]));
  again.close();
});

Prices("an index that stored the whole table's fingerprint (before costs were fingerprinted per model) is repriced only for another table", () => {
  const { idx, file, root } = fresh();
  idx.applyBatch(batchOf(path.join(root, 'a.jsonl'), [{ ts: T0, messageId: 'm1', requestId: 'r1', model: HAIKU, input: 1000, output: 1000 }]), role('a'), 100, 1);
  idx.close();
  plantCost(file, prices.fingerprint);
  let again = track(openIndex(file, { log: () => {} }));
  again.setPrices(PriceTable.fromCatalogue(catalogue, 'the same catalogue'));
  assert.equal(storedCosts(file), [123], 'the same table: no reprice');
  assert.is(peek<{ value: string }>(file, "SELECT value FROM meta WHERE key = 'price_fingerprint'")[0]!.value, prices.costFingerprint([HAIKU]));
  again.close();

  plantCost(file, prices.fingerprint);
  again = track(openIndex(file, { log: () => {} }));
  const other = structuredClone(catalogue) as Record<string, unknown>;
  other['gpt-unrelated-1'] = { input_cost_per_token: 5e-6, output_cost_per_token: 5e-6 };
  again.setPrices(PriceTable.fromCatalogue(other, 'another catalogue'));
  assert.equal(storedCosts(file), [0.006], 'another table: the old fingerprint cannot say what changed, so it reprices');
  again.close();
});

Prices('a model first written after the table was installed is priced with it: no reprice at the next start', () => {
  const { idx, file, root } = fresh();
  idx.applyBatch(batchOf(path.join(root, 'a.jsonl'), [{ ts: T0, messageId: 'm1', requestId: 'r1', model: HAIKU, input: 1000, output: 1000 }]), role('a'), 100, 1);
  assert.equal(storedCosts(file).length, 1, 'committed');
  plantCost(file);
  const sonnet = Object.keys(catalogue).find((k) => k.startsWith('claude-sonnet-4'))!;
  idx.applyBatch(batchOf(path.join(root, 'b.jsonl'), [{ ts: T0, messageId: 'm2', requestId: 'r2', model: sonnet, input: 1000, output: 1000 }]), role('b'), 100, 1);
  assert.is(storedCosts(file)[0], 123, 'a new model does not reprice the others');
  idx.close();
  plantCost(file);
  const again = track(openIndex(file, { log: () => {} }));
  again.setPrices(PriceTable.fromCatalogue(catalogue, 'the same catalogue'));
  assert.equal(storedCosts(file), [123, 123]);
  again.close();
});

Prices.run();
