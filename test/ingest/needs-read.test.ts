// The ingest's skip rule as the command line applies it, in both of its forms (a cursor object for the statusline's
// one file, the raw cursor row for a report's check of every file): a new file, a grown, shrunk or touched one and a
// file read since it came back are read; an unchanged one is not; a vanished known file is read (marked gone) once.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { fileStatesByTurns, needsRead, rowNeedsRead } from '../../src/ingest/needs-read.ts';
import { nextTurn } from '../../src/ingest/turns.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { batchOf } from '../helpers/batches.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { countTurns } from '../helpers/wait.ts';

const st = { size: 100, mtimeMs: 1_700_000_000_123.456 };
type Case = [what: string, stat: typeof st | undefined, cursor: { size: number; mtimeMs: number; gone: boolean } | undefined, read: boolean];
const cases: Case[] = [
  ['unknown and not on disk', undefined, undefined, false],
  ['new on disk', st, undefined, true],
  ['unchanged', st, { ...st, gone: false }, false],
  ['grown', { ...st, size: 150 }, { ...st, gone: false }, true],
  ['shrunk', { ...st, size: 50 }, { ...st, gone: false }, true],
  ['touched (mtime differs by a fraction of a ms)', { ...st, mtimeMs: st.mtimeMs + 0.001 }, { ...st, gone: false }, true],
  ['marked gone, back on disk as it was', st, { ...st, gone: true }, true],
  ['vanished, known', undefined, { ...st, gone: false }, true],
  ['vanished, already marked gone', undefined, { ...st, gone: true }, false],
];

const t = suite('needs read');

t('the cursor object and the cursor row give the ingest\'s answer', () => {
  for (const [what, stat, cursor, read] of cases) {
    assert.is(needsRead(stat, cursor), read, what);
    assert.is(rowNeedsRead(stat, cursor && ['/p', cursor.size, cursor.mtimeMs, cursor.gone ? 1 : 0]), read, `${what} (row)`);
  }
});

t('the server\'s re-check reads every cursor a slice a turn, the same cursors as one read of them all', async () => {
  const { dir, cleanup } = tempDir('states-by-turns-');
  const idx = openIndex(path.join(dir, 'index.db'), { log: () => {} });
  try {
    idx.setPrices(PriceTable.builtin());
    for (let i = 0; i < 7; i++) {
      const file = path.join(dir, 'projects', '-p', `s${i}.jsonl`);
      const role = { project: '-p', session: `s${i}`, agentId: null, agentType: null, agentDescription: null };
      idx.applyBatch(batchOf(file, [{ ts: Date.UTC(2026, 9, 1) + i, messageId: `m${i}`, requestId: `r${i}` }]), role, 100 + i, 1_700_000_000_000 + i);
    }
    idx.markGone(path.join(dir, 'projects', '-p', 's3.jsonl'));
    const whole = idx.reports.fileStates();
    assert.is(whole.size, 7);
    const turns = countTurns();
    const sliced = await fileStatesByTurns(idx.reports, nextTurn, 2);
    turns.stop();
    assert.equal([...sliced.entries()].sort(), [...whole.entries()].sort());
    assert.ok(turns.turns >= 3, `a turn between each of the four slices (${turns.turns})`);
    assert.equal(await fileStatesByTurns(idx.reports, nextTurn, 7), whole, 'a last slice that is full');
  } finally {
    idx.close();
    cleanup();
  }
});

t.run();
