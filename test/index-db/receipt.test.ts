// The receipt query on a real index file: a stored cost that the installed prices no longer give is reported as a
// mismatch (not hidden), a line's own costUSD is its cost in 'auto' mode and ignored in 'calculate' mode, a scope
// keeps only its folders' messages, and a range read a file at a time gives the same receipt, other work running
// between its reads.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { createReceipt } from '../../src/index-db/queries/receipt.ts';
import { Reader } from '../../src/index-db/queries/reader.ts';
import type { FileRole, QueryScope } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import type { CostMode } from '../../src/pricing/types.ts';
import type { RangeInfo } from '../../src/shared/api-types.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { countTurns } from '../helpers/wait.ts';
import { PRICES_FILE } from '../helpers/paths.ts';

const catalogue = JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Record<string, unknown>;
const HAIKU = 'claude-haiku-4-5-20251001'; // per M: in 1, out 5
const T0 = Date.UTC(2026, 10, 10, 12);
const RANGE: RangeInfo = { from: '2026-11-01', to: '2026-11-30', fromMs: Date.UTC(2026, 10, 1), toMs: Date.UTC(2026, 11, 1), bucket: 'day', kind: 'custom', days: null };
const scope = (project: string | null = null): QueryScope => ({ range: RANGE, project, now: T0 });
const role = (project: string, session: string): FileRole => ({ project, session, agentId: null, agentType: null, agentDescription: null });

const tmp = tempDir('receipt-db-');
const t = suite('receipt query');
t.after(() => tmp.cleanup());

function build(file: string, mode: CostMode): ReturnType<typeof openIndex> {
  const idx = openIndex(file, { log: () => {} });
  idx.setPrices(PriceTable.fromCatalogue(catalogue, 'fixture', mode));
  idx.applyBatch(batchOf(path.join(tmp.dir, 'p1', 's1.jsonl'), [
    { ts: T0, messageId: 'a', requestId: 'ra', model: HAIKU, input: 1_000_000, output: 0 },
    { ts: T0 + 60_000, messageId: 'b', requestId: 'rb', model: HAIKU, input: 0, output: 1_000_000, costUSD: 0.5 },
  ]), role('p1', 's1'), 100, T0);
  idx.applyBatch(batchOf(path.join(tmp.dir, 'p2', 's2.jsonl'), [
    { ts: T0, messageId: 'c', requestId: 'rc', model: HAIKU, input: 2_000_000, output: 0, sessionId: 's2' },
  ]), role('p2', 's2'), 100, T0);
  return idx;
}

t("'auto' takes a line's own costUSD, 'calculate' prices it from its tokens", async () => {
  const auto = build(path.join(tmp.dir, 'auto.db'), 'auto');
  const a = (await auto.queries.receipt(scope('p1')))!;
  assert.equal(a.lines.map((l) => [l.pricing, l.amount]), [['catalogue', 1], ['costUSD', 0.5]]);
  assert.is(a.total, 1.5);
  assert.equal(a.rules.map((r) => [r.rule, r.tokens, r.added]), [['costUSD', 1_000_000, 0.5]]);
  auto.close();
  const calc = build(path.join(tmp.dir, 'calc.db'), 'calculate');
  const c = (await calc.queries.receipt(scope('p1')))!;
  // One line: the model's messages with and without a costUSD price alike.
  assert.equal(c.lines.map((l) => [l.pricing, l.messages, l.amount]), [['catalogue', 2, 6]]);
  assert.is(c.costMode, 'calculate');
  assert.is(c.total, 6);
  assert.is((await calc.queries.receipt(scope()))!.total, 8);
  calc.close();
});

t('a stored cost the installed prices do not give is a mismatch', async () => {
  const file = path.join(tmp.dir, 'tampered.db');
  build(file, 'auto').close();
  const db = new Database(file);
  db.prepare("UPDATE messages SET cost = cost + 0.25 WHERE cost_usd IS NULL AND project_id = (SELECT id FROM projects WHERE encoded = 'p2')").run();
  db.close();
  const idx = openIndex(file, { log: () => {} });
  idx.setPrices(PriceTable.fromCatalogue(catalogue, 'fixture'));
  const r = (await idx.queries.receipt(scope('p2')))!;
  assert.is(r.computed, 2);
  assert.is(r.total, 2.25);
  assert.equal(r.mismatch, { computed: 2, stored: 2.25, difference: -0.25 });
  assert.is((await idx.queries.receipt(scope('p1')))!.mismatch, null);
  assert.is(await idx.queries.receipt({ ...scope(), session: 'nobody' }), null);
  assert.is((await idx.queries.receipt({ ...scope(), session: 's2' }))!.total, 2.25);
  idx.close();
});

t('read a file at a time, a receipt is the same, and the event loop turns between its reads', async () => {
  const file = path.join(tmp.dir, 'chunks.db');
  build(file, 'auto').close();
  const db = new Database(file, { readonly: true });
  const table = PriceTable.fromCatalogue(catalogue, 'fixture');
  const whole = createReceipt(db, new Reader(db), () => table);
  const byFile = createReceipt(db, new Reader(db), () => table, 1); // one file per read
  const withSpans = scope() as Parameters<typeof whole>[0]; // a receipt reads the range and scope alone
  const loop = countTurns();
  const before = loop.turns;
  const a = await whole(withSpans);
  const wholeTurns = loop.turns - before;
  const start = loop.turns;
  const b = await byFile(withSpans);
  loop.stop();
  assert.equal(b, a);
  assert.is(a!.messages, 3);
  assert.is(wholeTurns, 0, 'one read: answered at once');
  assert.ok(loop.turns - start >= 1, `timers ran between the reads: ${loop.turns - start}`);
  db.close();
});

t.run();
