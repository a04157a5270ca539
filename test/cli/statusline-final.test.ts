// The statusline says "today so far" while a first index (the server's scan or the command line's catch-up) may still
// add to today: the writer keeps its finalSince in the index file (IndexDb.setFinalSince), the built statusline reads
// it. A real index file, written by the real writer, read by the real `cost-dashboard statusline` process.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openIndex } from '../../src/index-db/index.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { DIST_BIN, PRICES_FILE } from '../helpers/paths.ts';
import { cli } from '../helpers/cli.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { ingestFile, sessionRole } from '../helpers/server.ts';

const test = suite('statusline: today so far');

test('"today so far" while the index holds a finalSince after local midnight; "today" before it and once cleared', async () => {
  const { dir } = tempDir('statusline-final-');
  const project = path.join(dir, 'projects', '-home-u-p');
  const transcript = path.join(project, 's1.jsonl');
  writeJsonl(transcript, [usageLine({ sessionId: 's1', timestamp: new Date(Date.now() - 60_000).toISOString() })]);
  const file = path.join(dir, 'index.db');
  const write = (since: string | null): void => {
    const index = openIndex(file);
    try {
      index.setPrices(PriceTable.builtin());
      if (!index.cursorOf(transcript)) ingestFile(index, transcript, sessionRole('-home-u-p', 's1'));
      index.setFinalSince(since);
    } finally {
      index.close();
    }
  };
  const render = async (): Promise<string> => {
    // As if an update just ran: the render starts none, whose writer lock would race this test's next write.
    fs.writeFileSync(`${file}.updated`, '');
    const r = await cli(['statusline', '--dir', dir, '--index', file, '--prices', PRICES_FILE], {
      entry: DIST_BIN,
      input: JSON.stringify({ session_id: 's1', transcript_path: transcript, model: { display_name: 'Sonnet' } }),
    });
    assert.is(r.code, 0, r.stderr);
    return r.stdout.trim();
  };
  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);

  write(new Date().toISOString()); // the scan has not yet read every file modified since midnight
  assert.match(await render(), / today so far \//);
  write(new Date(midnight.getTime() - 3_600_000).toISOString()); // it has: today is final, older days are not
  assert.match(await render(), / today \//);
  write(new Date().toISOString());
  write(null); // the scan ended
  const done = await render();
  assert.match(done, / today \//);
  assert.not.match(done, /so far/);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('"today so far" while a reprice is under way in the file; "today" once it is done', async () => {
  const { dir } = tempDir('statusline-reprice-');
  const project = path.join(dir, 'projects', '-home-u-p');
  const transcript = path.join(project, 's1.jsonl');
  const now = Date.now();
  writeJsonl(transcript, Array.from({ length: 4 }, (_, i) => usageLine({
    sessionId: 's1', messageId: `m${i}`, requestId: `r${i}`, timestamp: new Date(now - (i + 1) * 1000).toISOString(),
  })));
  const file = path.join(dir, 'index.db');
  const catalogue = JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Record<string, Record<string, number>>;
  const dearer = structuredClone(catalogue);
  dearer['claude-sonnet-4-5-20250929']!.output_cost_per_token = 1e-4;
  const render = async (): Promise<string> => {
    fs.writeFileSync(`${file}.updated`, '');
    const r = await cli(['statusline', '--dir', dir, '--index', file, '--prices', PRICES_FILE], {
      entry: DIST_BIN,
      input: JSON.stringify({ session_id: 's1', transcript_path: transcript, model: { display_name: 'Sonnet' } }),
    });
    assert.is(r.code, 0, r.stderr);
    return r.stdout.trim();
  };
  // One row a chunk: the writer closes after the first chunk, the reprice recorded as under way.
  const first = openIndex(file, { repriceChunkRows: 1 });
  first.setPrices(PriceTable.fromCatalogue(catalogue, 'fixture'));
  ingestFile(first, transcript, sessionRole('-home-u-p', 's1'));
  first.setPrices(PriceTable.fromCatalogue(dearer, 'dearer'));
  assert.ok(first.repricing());
  first.close();
  assert.match(await render(), / today so far \//);
  const again = openIndex(file);
  again.setPrices(PriceTable.fromCatalogue(dearer, 'dearer'));
  again.finishReprice();
  assert.is(again.repricing(), false);
  again.close();
  const done = await render();
  assert.match(done, / today \//);
  assert.not.match(done, /so far/);
  fs.rmSync(dir, { recursive: true, force: true });
});

test.run();
