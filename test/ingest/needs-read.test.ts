// The ingest's skip rule as the command line applies it, in both of its forms (a cursor object for the statusline's
// one file, the raw cursor row for a report's check of every file): a new file, a grown, shrunk or touched one and a
// file read since it came back are read; an unchanged one is not; a vanished known file is read (marked gone) once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { needsRead, rowNeedsRead } from '../../src/ingest/needs-read.ts';

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

t.run();
