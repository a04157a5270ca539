// The command line's catch-up (src/cli/catch-up.ts) tells a statusline reading the file meanwhile how far its figures
// are final: before its first read, the bound just after the newest transcript it reads; after its last, none.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { catchUp } from '../../src/cli/catch-up.ts';
import { openIndex } from '../../src/index-db/index.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';

const test = suite('catch-up finalSince');

test('the bound just after the newest transcript while it reads, cleared when it is done', async () => {
  const { dir } = tempDir('catch-up-final-');
  const projects = path.join(dir, 'projects');
  const older = path.join(projects, '-home-u-p', 'a.jsonl');
  const newer = path.join(projects, '-home-u-p', 'b.jsonl');
  writeJsonl(older, [usageLine({ sessionId: 'a', timestamp: '2026-11-01T10:00:00.000Z' })]);
  writeJsonl(newer, [usageLine({ sessionId: 'b', timestamp: '2026-11-02T10:00:00.000Z' })]);
  fs.utimesSync(older, new Date('2026-11-01T10:00:01.000Z'), new Date('2026-11-01T10:00:01.000Z'));
  fs.utimesSync(newer, new Date('2026-11-02T10:00:01.500Z'), new Date('2026-11-02T10:00:01.500Z'));
  const index = openIndex(path.join(dir, 'index.db'));
  const stored: (string | null)[] = [];
  try {
    const recording = { ...index, setFinalSince: (iso: string | null) => void (stored.push(iso), index.setFinalSince(iso)) };
    const r = await catchUp({ index: recording, indexFile: path.join(dir, 'index.db'), projectsDirs: [projects], prices: async () => PriceTable.builtin(), log: () => undefined });
    assert.is(r.changed, 2);
    assert.equal(stored, ['2026-11-02T10:00:01.501Z', null]);
    assert.ok(index.cursorOf(older) && index.cursorOf(newer), 'both read');
    stored.length = 0;
    await catchUp({ index: recording, indexFile: path.join(dir, 'index.db'), projectsDirs: [projects], prices: async () => PriceTable.builtin(), log: () => undefined });
    assert.equal(stored, [], 'nothing to read: nothing written');
  } finally {
    index.close();
  }
});

test.run();
