// A process that reads an index another process writes answers from one state of the file: each query, and each
// snapshot of several, reads inside one read transaction, so a commit of the writer never lands between its
// statements. Without it a reader's overview once read its models before a commit and that commit's rows after it,
// and failed (CI). Real SQLite file, the writer and the reader on two connections, the commit made mid-query.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex, openIndexReader } from '../../src/index-db/index.ts';
import { openReportReader } from '../../src/index-db/report-reader.ts';
import type { FileRole, IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import type { RangeInfo } from '../../src/shared/api-types.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';

const catalogue = JSON.parse(fs.readFileSync(new URL('../../../shared/fixtures/prices/catalogue.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const prices = PriceTable.fromCatalogue(catalogue, 'fixture');
const T0 = Date.UTC(2026, 10, 20, 10, 15);
const { dir } = tempDir('reader-snapshot-');
let n = 0;
const role: FileRole = { project: '-home-u-p1', session: 's1', agentId: null, agentType: null, agentDescription: null };
const range: RangeInfo = { from: '2026-01-01', to: '2027-01-01', fromMs: Date.UTC(2026, 0, 1), toMs: Date.UTC(2027, 0, 1), bucket: 'day', kind: 'all', days: null };
const allTime: QueryScope = { range, project: null, now: Date.UTC(2026, 10, 21) };

/** A written index of two messages of one model, and a function that commits one more message of a new model. */
function written(): { file: string; writer: IndexDb & { commit(): boolean }; commitAnother(): void } {
  const file = path.join(dir, `i${++n}.db`);
  const writer = openIndex(file, { log: () => {} });
  writer.setPrices(prices);
  writer.applyBatch(batchOf('/c/p1/s1.jsonl', [
    { ts: T0, messageId: 'a', requestId: 'ra', sessionId: 's1', input: 100, output: 10 },
    { ts: T0 + 1000, messageId: 'b', requestId: 'rb', sessionId: 's1', input: 100, output: 20 },
  ]), role, 200, 1);
  writer.commit();
  let offset = 200;
  const commitAnother = (): void => {
    writer.applyBatch(batchOf('/c/p1/s1.jsonl', [
      { ts: T0 + 2000 + offset, messageId: `m${offset}`, requestId: `r${offset}`, sessionId: 's1', model: 'claude-opus-4-1-20250805', input: 1000, output: 500 },
    ], { from: offset }), role, offset + 100, 2);
    offset += 100;
    writer.commit();
  };
  return { file, writer, commitAnother };
}

const Query = suite('one query of a reader');

Query('reads one state even when the writer commits between its statements', () => {
  const { file, writer, commitAnother } = written();
  // The overview asks for the price table between its reads (its estimated fast models): the commit lands there.
  let armed = false;
  const reader = openIndexReader(file, {
    prices: () => {
      if (armed) {
        armed = false;
        commitAnother();
      }
      return prices;
    },
  });
  try {
    reader.queries.overview(allTime); // the models and projects read before the commit, as a server's first answer
    armed = true;
    const o = reader.queries.overview(allTime);
    assert.is(armed, false, 'the writer committed during the query');
    assert.is(o.totals.messages, 2, 'the state the query began with');
    const byEntrypoint = o.byEntrypoint.reduce((a, e) => ({ messages: a.messages + e.messages, cost: a.cost + e.cost }), { messages: 0, cost: 0 });
    assert.is(byEntrypoint.messages, o.totals.messages, 'its entrypoints read the same state as its totals');
    assert.ok(Math.abs(byEntrypoint.cost - o.totals.cost) < 1e-12);
    const next = reader.queries.overview(allTime);
    assert.is(next.totals.messages, 3, 'the next query sees the commit');
    assert.equal(next.projects[0]!.topModel, 'claude-opus-4-1-20250805');
  } finally {
    reader.close();
    writer.close();
  }
});

const Snapshot = suite('a snapshot of several reads');

Snapshot('a server answer and a report read one state; the writer answers from its own connection as it is', () => {
  const { file, writer, commitAnother } = written();
  const reader = openIndexReader(file, { prices: () => prices });
  const reports = openReportReader(file);
  try {
    const [before, after, stats] = reader.snapshot(() => {
      const a = reader.queries.overview(allTime);
      commitAnother();
      return [a, reader.queries.overview(allTime), reader.stats()] as const;
    });
    assert.equal(after, before, 'no commit lands inside a snapshot');
    assert.is(stats.messages, 2);
    assert.is(reader.queries.overview(allTime).totals.messages, 3, 'the commit is seen once the snapshot ends');

    const [sessions, totals] = reports.snapshot(() => {
      const s = reports.reports.sessions(range, null, 'here');
      commitAnother();
      return [s, reports.reports.totals(range, null)] as const;
    });
    assert.is(sessions[0]!.totals.messages, totals.messages, "a report's rows and totals agree");
    assert.is(reports.reports.totals(range, null).messages, 4);

    // The writer's own connection: no transaction of a snapshot may wrap its writes.
    const mine = writer.snapshot(() => {
      commitAnother();
      return writer.queries.overview(allTime).totals.messages;
    });
    assert.is(mine, 5);
  } finally {
    reports.close();
    reader.close();
    writer.close();
  }
});

Query.run();
Snapshot.run();
