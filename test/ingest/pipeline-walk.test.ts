// Nothing written while the watcher walks the folders is lost: the real pipeline (worker pool, ingest, SQLite index,
// watcher) over a tree of some 300 folders (a dozen slices of the walk), with lines appended, transcripts written
// and folders made from the end of the start-up scan until the watcher is live. The periodic re-check is pushed out
// of the test's reach, so what is indexed came from the re-check after the walk or from the folders' watches; then a
// line appended to every transcript, those of the folders made during the walk included, is read through the watches.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { openIndex } from '../../src/index-db/index.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { startPipeline } from '../../src/ingest/pipeline.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { waitFor } from '../helpers/wait.ts';

let n = 0;
function line(sessionId: string): string {
  n++;
  return `${JSON.stringify({
    type: 'assistant',
    sessionId,
    cwd: '/home/dev/alpha',
    timestamp: '2026-11-20T10:00:00.000Z',
    requestId: `req_walk_${n}`,
    message: { id: `msg_walk_${n}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 100, output_tokens: 10 } },
  })}\n`;
}

const Walk = suite('pipeline: writes during the watcher\'s walk');

Walk('lines, transcripts and folders written while the watcher walks are all indexed, and watched after', async () => {
  const { dir, cleanup } = tempDir('cost-walk-');
  const projects = path.join(dir, 'projects');
  const files: string[] = [];
  const write = (file: string): void => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (!fs.existsSync(file)) files.push(file);
    fs.appendFileSync(file, line(path.basename(file, '.jsonl')));
  };
  // 12 projects of 12 sessions, each with a subagent: 301 folders, 288 transcripts
  for (let p = 0; p < 12; p++) {
    for (let s = 0; s < 12; s++) {
      write(path.join(projects, `-p${p}`, `s${p}-${s}.jsonl`));
      write(path.join(projects, `-p${p}`, `s${p}-${s}`, 'subagents', `agent-${p}-${s}.jsonl`));
    }
  }
  let written = files.length;
  const index = openIndex(path.join(dir, 'index.db'), { log: () => undefined });
  index.setPrices(PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as unknown, 'fixture', 'auto'));
  const logs: string[] = [];
  const pipeline = await startPipeline({ projectsDirs: [projects], index, log: (m) => void logs.push(m), threads: 1, recheckMs: 600_000 });
  try {
    await pipeline.ingest.idle();
    assert.is(index.stats().lines, written, 'the start-up scan read every line');
    let live = false;
    void pipeline.watching.then(() => (live = true));
    let made = 0;
    for (let i = 0; !live; i++) {
      // an append to a transcript the scan read, a new transcript in a folder it walked, one in a new nested folder
      write(files[(i * 7) % 288]!);
      write(path.join(projects, `-p${i % 12}`, `new-${i}.jsonl`));
      write(path.join(projects, `-p${(i + 5) % 12}`, `s${(i + 5) % 12}-${i % 12}`, `made-${i}`, 'subagents', `agent-made-${i}.jsonl`));
      made++;
      written += 3;
      await new Promise((r) => setTimeout(r, 2));
    }
    assert.ok(made > 0, 'something was written during the walk');
    await waitFor(() => index.stats().lines === written, `the ${written} lines written by the time the watcher was live`, 10_000);
    for (const f of files) fs.appendFileSync(f, line(path.basename(f, '.jsonl')));
    written += files.length;
    await waitFor(() => index.stats().lines === written, `a line appended to each of the ${files.length} transcripts`, 10_000);
    assert.equal(logs.filter((l) => l.startsWith('watcher')), []);
  } finally {
    await pipeline.close();
    index.close();
    cleanup();
  }
});

Walk('the walk and the re-check after it wait on the pipeline\'s turn; the start-up scan does not', async () => {
  const { dir, cleanup } = tempDir('cost-walk-turn-');
  const projects = path.join(dir, 'projects');
  // 3 folders of 90 transcripts: the walk is one slice, and the re-check's listing takes a turn after 250 stats
  for (let p = 0; p < 3; p++) {
    fs.mkdirSync(path.join(projects, `-t${p}`), { recursive: true });
    for (let f = 0; f < 90; f++) fs.writeFileSync(path.join(projects, `-t${p}`, `t${p}-${f}.jsonl`), line(`t${p}-${f}`));
  }
  const index = openIndex(path.join(dir, 'index.db'), { log: () => undefined });
  index.setPrices(PriceTable.fromCatalogue(JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as unknown, 'fixture', 'auto'));
  let turns = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const turn = async (): Promise<void> => {
    turns++;
    await opened;
  };
  const pipeline = await startPipeline({ projectsDirs: [projects], index, log: () => undefined, threads: 1, recheckMs: 600_000, turn });
  try {
    await pipeline.ingest.idle();
    assert.is(index.stats().lines, 270, 'the start-up scan read every line while the turn held');
    let live = false;
    void pipeline.watching.then(() => (live = true));
    await new Promise((r) => setTimeout(r, 300));
    assert.not.ok(live, 'the watcher is not live while its walk waits on the turn');
    assert.is(turns, 1, 'the walk\'s one slice waited on the turn');
    open();
    await pipeline.watching;
    assert.ok(turns > 1, 'the re-check after the walk listed the folders a slice a turn');
  } finally {
    await pipeline.close();
    index.close();
    cleanup();
  }
});

Walk.run();
