// The writer's rollup deltas (rollup.ts) reuse the cells of the last two groups of messages (hour, local hour,
// project, session, model, main/subagent) and the tool cells of the current hour, day and project. Batches that
// alternate between groups, come back to an earlier one, cross hours and local midnight with the same tools strings,
// mix main and subagent rows and replace winners within and across batches must leave every per-project rollup equal
// to the sums recomputed from `messages`. So must batches folded by the parse worker (fold.ts, real JSONL through its
// reader): copies within a batch and across batches and files, the same lines twice, nested progress-line usage,
// subagent rows, and batches folded for another zone or role than the writer applies them in (refolded: the test fails
// when a correction or that check is left out). Real SQLite files, read by a second connection.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { HOUR_MS, LocalClock } from '../../src/index-db/time.ts';
import type { FileRole } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import type { UsageBatch, UsageRow } from '../../src/workers/protocol.ts';
import { readTranscript } from '../../src/workers/read-transcript.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir, usageLine, writeJsonl, type Line } from '../helpers/jsonl.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { openKeyed } from '../helpers/sqlite.ts';

const prices = PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')), 'fixture');
const HAIKU = 'claude-haiku-4-5-20251001';
const OPUS = 'claude-opus-4-5-20251101';
const MIN = 60_000;
const { dir } = tempDir('rollup-delta-');

interface Row { ts: number; file_id: number; project_id: number; session_id: number; model_id: number; sub: number; input: number; output: number; cost: number; tools: string;
  branch_id: number | null }

type Cells = Map<string, { n: number; input: number; output: number; cost: number }>;

function fold(rows: Row[], key: (r: Row) => (number | string)[]): Cells {
  const out: Cells = new Map();
  for (const r of rows) {
    const k = key(r).join(',');
    const c = out.get(k) ?? { n: 0, input: 0, output: 0, cost: 0 };
    out.set(k, c);
    c.n++;
    c.input += r.input;
    c.output += r.output;
    c.cost += r.cost;
  }
  return out;
}

function assertSame(db: Database.Database, sql: string, want: Cells, what: string, sums = true): void {
  const got = db.prepare(sql).raw().all() as (number | string)[][];
  const keyLen = got[0] ? got[0].length - (sums ? 4 : 1) : 0;
  assert.equal(got.map((r) => r.slice(0, keyLen).join(',')).sort(), [...want.keys()].sort(), `${what}: cells`);
  for (const r of got) {
    const w = want.get(r.slice(0, keyLen).join(','))!;
    const [n, input, output, cost] = r.slice(keyLen) as number[];
    assert.is(n, w.n, `${what} ${r.slice(0, keyLen).join(',')} count`);
    if (!sums) continue;
    assert.is(input, w.input, `${what} input`);
    assert.is(output, w.output, `${what} output`);
    assert.ok(Math.abs(cost! - w.cost) < 1e-9, `${what} cost ${cost} != ${w.cost}`);
  }
}

/** Every per-project rollup (UTC hours, local days and hours, tools, sessions per day) equals the sums of `messages`. */
function assertRollupsOfMessages(file: string): void {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare(`SELECT ts, file_id, project_id, session_id, model_id, agent_id IS NOT NULL AS sub, input, output, cost, tools,
      branch_id FROM messages`).all() as Row[];
    assert.ok(rows.length > 0);
    const clock = new LocalClock();
    const hour = (r: Row): number => Math.floor(r.ts / HOUR_MS);
    const day = (r: Row): number => clock.day(r.ts);
    assertSame(db, 'SELECT hour, project_id, session_id, model_id, sub, messages, input, output, cost FROM usage_hourly',
      fold(rows, (r) => [hour(r), r.project_id, r.session_id, r.model_id, r.sub]), 'usage_hourly');
    assertSame(db, 'SELECT hour, project_id, model_id, sub, messages, input, output, cost FROM usage_hourly_model',
      fold(rows, (r) => [hour(r), r.project_id, r.model_id, r.sub]), 'usage_hourly_model');
    assertSame(db, 'SELECT day, project_id, model_id, sub, messages, input, output, cost FROM usage_daily',
      fold(rows, (r) => [day(r), r.project_id, r.model_id, r.sub]), 'usage_daily');
    assertSame(db, 'SELECT lhour, project_id, model_id, messages, 0, 0, cost FROM cost_local_hourly',
      new Map([...fold(rows, (r) => [clock.lhour(r.ts), r.project_id, r.model_id])].map(([k, c]) => [k, { ...c, input: 0, output: 0 }])),
      'cost_local_hourly');
    assertSame(db, 'SELECT project_id, session_id, messages, 0, 0, cost FROM cost_total_session',
      new Map([...fold(rows, (r) => [r.project_id, r.session_id])].map(([k, c]) => [k, { ...c, input: 0, output: 0 }])), 'cost_total_session');
    assertSame(db, 'SELECT hour, model_id, messages, 0, 0, cost FROM cost_hourly_model',
      new Map([...fold(rows, (r) => [hour(r), r.model_id])].map(([k, c]) => [k, { ...c, input: 0, output: 0 }])), 'cost_hourly_model');
    assertSame(db, 'SELECT file_id, messages, 0, 0, cost FROM usage_total_file',
      new Map([...fold(rows, (r) => [r.file_id])].map(([k, c]) => [k, { ...c, input: 0, output: 0 }])), 'usage_total_file');
    const onBranch = rows.filter((r) => r.branch_id !== null);
    assert.ok(onBranch.length > 0 && onBranch.length < rows.length, 'usage on branches and on none');
    assertSame(db, 'SELECT hour, project_id, session_id, branch_id, messages, 0, 0, cost FROM usage_hourly_branch',
      new Map([...fold(onBranch, (r) => [hour(r), r.project_id, r.session_id, r.branch_id!])].map(([k, c]) => [k, { ...c, input: 0, output: 0 }])),
      'usage_hourly_branch');
    assertSame(db, 'SELECT day, project_id, session_id, messages FROM sessions_daily',
      fold(rows, (r) => [day(r), r.project_id, r.session_id]), 'sessions_daily', false);
    const perTool = rows.flatMap((r) => (r.tools ? r.tools.split(',').map((tool) => ({ ...r, tools: tool })) : []));
    assertSame(db, 'SELECT hour, project_id, tool, count FROM tools_hourly', fold(perTool, (r) => [hour(r), r.project_id, r.tools]), 'tools_hourly', false);
    assertSame(db, 'SELECT day, project_id, tool, count FROM tools_daily', fold(perTool, (r) => [day(r), r.project_id, r.tools]), 'tools_daily', false);
  } finally {
    db.close();
  }
}

const role = (project: string, session: string | null, agentId: string | null = null): FileRole =>
  ({ project, session, agentId, agentType: null, agentDescription: null });

const Delta = suite('rollup deltas');

// Kathmandu (+5:45): local midnight falls inside a UTC hour, so one UTC hour holds two local days.
for (const zone of ['UTC', 'Asia/Kathmandu']) {
  Delta(`alternating and returning groups, hours, local midnight, tools and replacements stay exact (${zone})`, () => {
    process.env.TZ = zone;
    const file = path.join(dir, `${zone.replace('/', '-')}.db`);
    const root = path.join(dir, zone.replace('/', '-'), 'projects');
    const idx = openIndex(file, { log: () => {} });
    idx.setPrices(prices);
    const t0 = Date.UTC(2026, 10, 15, 18, 0); // 23:45 in Kathmandu
    const tools: string[][] = [['Bash'], ['Read', 'Edit'], [], ['Bash'], ['Read', 'Edit'], ['Grep', 'Bash']];
    // Main model and a smaller one interleaved (A B A B ...), a subagent row now and then, two sessions' ids on lines
    // of a project-root file, minutes apart across four UTC hours, and the same tools strings in every hour.
    const rows: (Partial<UsageRow> & { ts: number })[] = Array.from({ length: 48 }, (_, i) => ({
      ts: t0 + i * 5 * MIN,
      messageId: `m${i}`,
      requestId: `r${i}`,
      model: i % 2 ? HAIKU : OPUS,
      agentId: i % 7 === 3 ? 'sub1' : '',
      sessionId: i % 5 === 4 ? 's2' : 's1',
      input: 10 + i,
      output: 100 + i,
      tools: tools[i % tools.length]!,
      branch: ['main', 'feat', ''][i % 3]!,
    }));
    // A better copy of m3 later in the same batch replaces the first within the batch.
    rows.push({ ...rows[3]!, output: 900, ts: rows[3]!.ts + MIN });
    const a = path.join(root, 'p1', 'root.jsonl');
    idx.applyBatch(batchOf(a, rows.slice(0, 30)), role('p1', null), 3000, 1);
    idx.applyBatch(batchOf(a, rows.slice(30), { from: 3000 }), role('p1', null), 6000, 1);
    idx.commit();
    assertRollupsOfMessages(file);
    // Another project's file with better copies of some rows (old winners out, in the same delta as new rows in).
    const b = path.join(root, 'p2', 'b.jsonl');
    idx.applyBatch(batchOf(b, [
      { ...rows[10]!, output: 5000 },
      { ts: t0 + 7 * MIN, messageId: 'n1', requestId: 'q1', model: OPUS, output: 3, tools: ['Bash'] },
      { ...rows[11]!, output: 6000 },
      { ts: t0 + 8 * MIN, messageId: 'n2', requestId: 'q2', model: OPUS, output: 4, tools: ['Read', 'Edit'] },
    ], { meta: { firstTs: t0 - 1 } }), role('p2', 'b'), 400, 1);
    idx.commit();
    assertRollupsOfMessages(file);
    // Rewritten: its rows go out and the alternates come back, every cell of the first file touched by one delta.
    idx.resetFile(b);
    idx.commit();
    assertRollupsOfMessages(file);
    idx.close();
  });
}

// Batches as the parse worker folds them (fold.ts): the writer adds each group's sums at once and takes out again the
// rows it does not store as new. Lines are real JSONL read by the worker's own reader, in two ranges per file.
const at = (t0: number, minutes: number): string => new Date(t0 + minutes * MIN).toISOString();
/** A subagent response streamed into its parent session's file. */
const progress = (session: string, id: string, output: number, time: string): Line => ({
  type: 'progress', sessionId: session, timestamp: time,
  data: { type: 'agent_progress', agentId: 'a1', message: { type: 'assistant', requestId: `req_${id}`, timestamp: time,
    message: (usageLine({ messageId: `msg_${id}`, model: HAIKU, output, input: 7, tools: ['Grep'] }).message) } },
});

Delta('worker-folded batches: copies within and across batches, losers, replaced winners, subagents, nested usage and a zone change', () => {
  process.env.TZ = 'Asia/Kathmandu';
  const file = path.join(dir, 'folded.db');
  const root = path.join(dir, 'folded', 'projects', 'p1');
  const idx = openIndex(file, { log: () => {} });
  idx.setPrices(prices);
  const t0 = Date.UTC(2026, 10, 15, 18, 0); // 23:45 in Kathmandu: local midnight inside the first UTC hour
  const main = (i: number, extra: Partial<Parameters<typeof usageLine>[0]> = {}): Line => usageLine({
    sessionId: 's1', messageId: `msg_${i}`, requestId: `req_${i}`, model: i % 3 ? OPUS : HAIKU, input: 10 + i, output: 100 + i,
    timestamp: at(t0, i * 7), tools: i % 4 ? ['Bash'] : ['Read', 'Edit'], extra: i % 3 === 1 ? {} : { gitBranch: i % 3 ? 'feat' : 'main' }, ...extra,
  });
  const s1 = writeJsonl(path.join(root, 's1.jsonl'), [
    ...Array.from({ length: 20 }, (_, i) => main(i)),
    // Within the batch: a better copy of msg_2 (replaces it in place), a worse one of msg_5 (loses), and one message
    // without a request id on lines of two line-level sessions, one key in this session's file.
    main(2, { output: 900 }), main(5, { output: 1 }),
    usageLine({ sessionId: 's1', messageId: 'msg_noreq', requestId: '', output: 30, timestamp: at(t0, 3) }),
    usageLine({ sessionId: 'other', messageId: 'msg_noreq', requestId: '', output: 60, timestamp: at(t0, 4) }),
    progress('s1', 'sub1', 40, at(t0, 11)), progress('s1', 'sub2', 50, at(t0, 75)),
    ...Array.from({ length: 12 }, (_, i) => main(20 + i)),
  ]);
  // The subagent's own file: copies of the streamed responses (one better, one the same), and rows of its own.
  const sub = writeJsonl(path.join(root, 's1', 'subagents', 'agent-a1.jsonl'), [
    usageLine({ sessionId: 's1', messageId: 'msg_sub1', requestId: 'req_sub1', model: HAIKU, input: 7, output: 45, timestamp: at(t0, 11), tools: ['Grep'], extra: { isSidechain: true, agentId: 'a1' } }),
    usageLine({ sessionId: 's1', messageId: 'msg_sub2', requestId: 'req_sub2', model: HAIKU, input: 7, output: 50, timestamp: at(t0, 75), tools: ['Grep'], extra: { isSidechain: true, agentId: 'a1' } }),
    usageLine({ sessionId: 's1', messageId: 'msg_sub3', requestId: 'req_sub3', model: HAIKU, output: 5, timestamp: at(t0, 80), extra: { isSidechain: true, agentId: 'a1' } }),
  ]);
  // A resumed session: copies of s1's lines, some better (they replace the stored winners), some equal (they lose).
  const s2 = writeJsonl(path.join(root, 's2.jsonl'), [
    main(1, { sessionId: 's2' }), main(3, { sessionId: 's2', output: 5000 }), main(8, { sessionId: 's2', output: 7000, tools: [] }),
    main(9, { sessionId: 's2' }), usageLine({ sessionId: 's2', messageId: 'msg_new', requestId: 'req_new', output: 3, timestamp: at(t0, 200) }),
  ]);
  const roles: Record<string, FileRole> = { [s1]: role('p1', 's1'), [sub]: role('p1', 's1', 'a1'), [s2]: role('p1', 's2') };
  const read = (f: string, from: number, to: number): UsageBatch => {
    const r = roles[f]!;
    const batch = readTranscript({ path: f, from, to, wantPrompt: false, fold: { session: r.session, agentId: r.agentId, zone: idx.foldZone()! } });
    assert.ok(batch.fold, 'the batch comes folded');
    return batch;
  };
  const apply = (f: string, batch: UsageBatch): void => idx.applyBatch(batch, roles[f]!, batch.consumedTo, 1);
  const half = (f: string): number => fs.readFileSync(f).indexOf('\n', Math.floor(fs.statSync(f).size / 2)) + 1;
  const rows = (): number => (new Database(file, { readonly: true }).prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;

  // Two ranges of each file; the first range of s1 twice (the same lines again: every row taken out again).
  const s1a = read(s1, 0, half(s1));
  apply(s1, s1a);
  apply(s1, read(s1, s1a.consumedTo, fs.statSync(s1).size));
  apply(s1, read(s1, 0, half(s1)));
  apply(sub, read(sub, 0, fs.statSync(sub).size));
  idx.commit();
  assertRollupsOfMessages(file);
  // 32 responses of s1, one key without a request id, two streamed responses (their file's copies replace or lose),
  // one response of the subagent's own.
  assert.is(rows(), 32 + 1 + 2 + 1);
  const s2a = read(s2, 0, half(s2));
  apply(s2, s2a);
  apply(s2, read(s2, s2a.consumedTo, fs.statSync(s2).size));
  idx.commit();
  assertRollupsOfMessages(file);
  assert.is(rows(), 32 + 1 + 2 + 1 + 1);

  // Folded in Kathmandu, applied after the zone became UTC: the writer refolds them in its own zone.
  const late = writeJsonl(path.join(root, 's3.jsonl'), [main(40, { sessionId: 's3' }), main(2, { sessionId: 's3', output: 9000 }), main(41, { sessionId: 's3' })]);
  roles[late] = role('p1', 's3');
  const lateBatch = read(late, 0, fs.statSync(late).size);
  process.env.TZ = 'UTC';
  apply(late, lateBatch);
  // Folded for another role (as a main session's file) than the one it is applied with (a subagent's): refolded too.
  const other = writeJsonl(path.join(root, 's3', 'subagents', 'agent-a2.jsonl'), [main(50, { sessionId: 's3' }), main(51, { sessionId: 's3' })]);
  const asMain = readTranscript({ path: other, from: 0, to: fs.statSync(other).size, wantPrompt: false, fold: { session: 's3', agentId: null, zone: idx.foldZone()! } });
  idx.applyBatch(asMain, role('p1', 's3', 'a2'), asMain.consumedTo, 1);
  idx.commit();
  assertRollupsOfMessages(file);
  idx.close();
});

/** The rollups summed over projects or sessions (per hour, local day and local hour, and per project x model). */
function assertTotalsOfMessages(file: string): void {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare('SELECT ts, project_id, model_id, agent_id IS NOT NULL AS sub, input, output, cost FROM messages').all() as Row[];
    const clock = new LocalClock();
    assertSame(db, 'SELECT hour, messages, input, output, cost FROM usage_hourly_all', fold(rows, (r) => [Math.floor(r.ts / HOUR_MS)]), 'usage_hourly_all');
    assertSame(db, 'SELECT project_id, model_id, messages, input, output, cost FROM usage_total', fold(rows, (r) => [r.project_id, r.model_id]), 'usage_total');
    assertSame(db, 'SELECT model_id, sub, messages, input, output, cost FROM usage_total_model', fold(rows, (r) => [r.model_id, r.sub]), 'usage_total_model');
    assertSame(db, 'SELECT day, model_id, sub, messages, input, output, cost FROM usage_daily_all',
      fold(rows, (r) => [clock.day(r.ts), r.model_id, r.sub]), 'usage_daily_all');
    assertSame(db, 'SELECT lhour, messages, 0, 0, cost FROM cost_local_hourly_all',
      new Map([...fold(rows, (r) => [clock.lhour(r.ts)])].map(([k, c]) => [k, { ...c, input: 0, output: 0 }])), 'cost_local_hourly_all');
  } finally {
    db.close();
  }
}

// A new price for one model reprices its rows alone; every rollup stays the sums of the messages. In the zone the local
// rollups are in (only that model's local cells are redone), and after TZ changed (every local cell is redone).
for (const later of ['Asia/Kathmandu', 'UTC']) {
  Delta(`one model's new price: its rows and every rollup over them, the other model's left alone (TZ then ${later})`, () => {
    process.env.TZ = 'Asia/Kathmandu';
    const file = path.join(dir, `reprice-${later.replace('/', '-')}.db`);
    const root = path.join(dir, `reprice-${later.replace('/', '-')}`, 'projects');
    const idx = openIndex(file, { log: () => {} });
    idx.setPrices(prices);
    const t0 = Date.UTC(2026, 10, 15, 18, 0); // 23:45 in Kathmandu
    const rows: (Partial<UsageRow> & { ts: number })[] = Array.from({ length: 40 }, (_, i) => ({
      ts: t0 + i * 7 * MIN, messageId: `m${i}`, requestId: `r${i}`, model: i % 3 ? OPUS : HAIKU, agentId: i % 6 === 1 ? 'sub1' : '',
      sessionId: i % 4 === 3 ? 's2' : 's1', input: 10 + i, output: 100 + i, tools: i % 2 ? ['Bash'] : [], branch: ['main', '', 'feat'][i % 3]!,
    }));
    idx.applyBatch(batchOf(path.join(root, 'p1', 'a.jsonl'), rows.slice(0, 25)), role('p1', null), 2500, 1);
    idx.applyBatch(batchOf(path.join(root, 'p2', 'b.jsonl'), rows.slice(25)), role('p2', null), 1500, 1);
    // A worse copy of an Opus row in another file: an alternate, repriced with its model.
    idx.applyBatch(batchOf(path.join(root, 'p2', 'c.jsonl'), [{ ...rows[1]!, output: 1 }]), role('p2', null), 100, 1);
    idx.commit();
    const costs = (): Map<string, [string, number]> => {
      const db = openKeyed(file, { readonly: true });
      try {
        const r = db.prepare(`SELECT unpack_key(m.stored_key), d.name, m.cost FROM messages m JOIN models d ON d.id = m.model_id
          UNION ALL SELECT 'alt ' || unpack_key(a.stored_key), d.name, a.cost FROM alternates a JOIN models d ON d.id = a.model_id`).raw().all() as [string, string, number][];
        return new Map(r.map(([k, model, cost]) => [k, [model, cost]]));
      } finally {
        db.close();
      }
    };
    const before = costs();
    const dearer = JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Record<string, Record<string, number>>;
    dearer[OPUS]!.output_cost_per_token = dearer[OPUS]!.output_cost_per_token! * 3;
    process.env.TZ = later;
    idx.setPrices(PriceTable.fromCatalogue(dearer, 'opus dearer'));
    idx.commit();
    const after = costs();
    assert.is(after.size, before.size);
    let repriced = 0;
    for (const [key, [model, cost]] of after) {
      if (model === HAIKU) assert.is(cost, before.get(key)![1], `${key}: Haiku's cost as it was`);
      else if (cost > before.get(key)![1]) repriced++;
    }
    assert.is(repriced, [...after.values()].filter(([model]) => model === OPUS).length, 'every Opus row, the alternate too');
    assertRollupsOfMessages(file);
    assertTotalsOfMessages(file);
    idx.close();
  });
}

// A reprice in chunks with writes between them: a new file, a better copy replacing a winner, and, once the messages
// are done, a rewritten file whose alternates (some not repriced yet) become messages again. At the end every stored
// cost is the new table's and every rollup the sums of the messages.
Delta('a reprice in chunks with writes between the chunks ends with every cost the new table\'s and every rollup exact', async () => {
  process.env.TZ = 'Asia/Kathmandu';
  const file = path.join(dir, 'chunks.db');
  const root = path.join(dir, 'chunks', 'projects');
  const idx = openIndex(file, { log: () => {}, repriceChunkRows: 8 });
  idx.setPrices(prices);
  const t0 = Date.UTC(2026, 10, 15, 18, 0); // 23:45 in Kathmandu
  const rows: (Partial<UsageRow> & { ts: number })[] = Array.from({ length: 48 }, (_, i) => ({
    ts: t0 + i * 7 * MIN, messageId: `m${i}`, requestId: `r${i}`, model: i % 3 ? OPUS : HAIKU, agentId: i % 6 === 1 ? 'sub1' : '',
    sessionId: i % 4 === 3 ? 's2' : 's1', input: 10 + i, output: 100 + i, tools: i % 2 ? ['Bash'] : [], branch: ['main', '', 'feat'][i % 3]!,
  }));
  const a = path.join(root, 'p1', 'a.jsonl');
  idx.applyBatch(batchOf(a, rows), role('p1', null), 4800, 1);
  // Worse copies of every row in another file: alternates.
  idx.applyBatch(batchOf(path.join(root, 'p2', 'b.jsonl'), rows.map((r) => ({ ...r, output: 1 }))), role('p2', null), 4800, 1);
  idx.commit();
  const dearer = JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Record<string, Record<string, number>>;
  dearer[OPUS]!.output_cost_per_token = dearer[OPUS]!.output_cost_per_token! * 3;
  dearer[HAIKU]!.input_cost_per_token = dearer[HAIKU]!.input_cost_per_token! * 2;
  const table = PriceTable.fromCatalogue(dearer, 'both dearer');
  idx.setPrices(table);
  assert.ok(idx.repricing(), 'more rows than one chunk');
  const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  const phase = (): string | undefined => {
    const db = new Database(file, { readonly: true });
    try {
      const p = db.prepare("SELECT value FROM meta WHERE key = 'reprice'").pluck().get() as string | undefined;
      return p === undefined ? undefined : (JSON.parse(p) as { table: string }).table;
    } finally {
      db.close();
    }
  };
  await turn();
  idx.applyBatch(batchOf(path.join(root, 'p3', 'c.jsonl'), [{ ts: t0 + 3 * MIN, messageId: 'new1', requestId: 'rn1', model: OPUS, output: 500 }]), role('p3', null), 100, 1);
  idx.applyBatch(batchOf(path.join(root, 'p3', 'd.jsonl'), [{ ...rows[40]!, output: 999 }]), role('p3', null), 100, 1);
  while (phase() === 'messages') await turn();
  assert.is(phase(), 'alternates', 'the messages are done, the alternates not yet');
  idx.resetFile(a);
  while (idx.repricing()) await turn();
  idx.commit();
  const db = new Database(file, { readonly: true });
  try {
    const stored = db.prepare(`SELECT d.name AS model, input, output, cache_create AS cacheCreate, cache_read AS cacheRead,
      cache_1h AS cache1h, web_search AS webSearch, fast, cost_usd AS costUSD, geo, cost FROM messages m JOIN models d ON d.id = m.model_id
      UNION ALL SELECT d.name, input, output, cache_create, cache_read, cache_1h, web_search, fast, cost_usd, geo, cost
      FROM alternates m JOIN models d ON d.id = m.model_id`).all() as ({ model: string; fast: number; cost: number } & Record<string, number>)[];
    // c's and d's rows, b's copies of a's other 47 keys promoted, b's copy of the key d won an alternate.
    assert.is(stored.length, 1 + 1 + 47 + 1);
    for (const r of stored) {
      const want = table.cost({
        model: r.model, input: r.input!, output: r.output!, cacheCreate: r.cacheCreate!, cacheRead: r.cacheRead!, cache1h: r.cache1h!,
        webSearch: r.webSearch!, fast: r.fast === 1, geoUs: r.geo === 1, costUSD: r.costUSD ?? null,
      }).cost;
      assert.is(r.cost, want, `${r.model} ${r.input}/${r.output}: the new table's cost`);
    }
  } finally {
    db.close();
  }
  assertRollupsOfMessages(file);
  assertTotalsOfMessages(file);
  idx.close();
});

Delta.run();
