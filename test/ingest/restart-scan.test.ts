// A restart's start-up scan reads only the transcripts that changed while the server was down: the listing is compared
// with every cursor (read a slice a turn), not file by file in the ingest, which held the main thread for 0.8 s at
// 10 GiB. The unchanged files still count in the scan's progress and its "indexed" line.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import type { IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { jsonlText, tempDir, usageLine } from '../helpers/jsonl.ts';
import { startIndexing } from '../helpers/pipeline.ts';

const allTime: QueryScope = {
  range: { from: '1970-01-01', to: '2100-01-01', fromMs: 0, toMs: Date.UTC(2100, 0, 1), bucket: 'day', kind: 'all', days: null },
  project: null,
  now: Date.now(),
};

let n = 0;
const line = (sessionId: string): string => {
  n++;
  return jsonlText([usageLine({ sessionId, cwd: '/home/dev/alpha', timestamp: '2026-11-20T10:00:00.000Z', messageId: `msg_${n}`, requestId: `req_${n}` })]);
};

/**
 * Indexes `projects` into `file` through the real pipeline; `cursorPaths` collects every path whose cursor was read.
 * `cursorsFail`: the first read of every cursor at once throws, as on a file the index keeper closed meanwhile.
 */
async function indexOnce(projects: string, file: string, logs: string[], cursorPaths = new Set<string>(), cursorsFail = false) {
  let failing = cursorsFail;
  const wrap = (opened: IndexDb): IndexDb => new Proxy(opened, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver) as unknown;
      if (key === 'cursorOf') return (p: string) => (cursorPaths.add(p), target.cursorOf(p));
      if (key === 'reports' && failing) {
        return {
          ...target.reports,
          fileStatesAfter: () => {
            failing = false;
            throw new Error('The database connection is not open');
          },
        };
      }
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  const run = await startIndexing(projects, { file, log: (m) => void logs.push(m), wrap });
  try {
    // Whether the scan said that the last week was final while it still had files to read (the server's heap setting).
    const weekFinal = await Promise.race([run.pipeline.ingest.weekFinal().then(() => true), new Promise<false>((r) => setImmediate(() => r(false)))]);
    return { progress: run.pipeline.ingest.progress(), messages: run.index.queries.overview(allTime).totals.messages, weekFinal };
  } finally {
    await run.stop();
  }
}

test('a restart reads only the changed and new transcripts and counts the rest as done; without its cursors it checks each', async () => {
  const { dir, cleanup } = tempDir('cost-restart-scan-');
  try {
    const projects = path.join(dir, 'projects');
    const folder = path.join(projects, '-home-dev-alpha');
    fs.mkdirSync(folder, { recursive: true });
    const files = Array.from({ length: 40 }, (_, i) => path.join(folder, `s${i}.jsonl`));
    for (const [i, f] of files.entries()) fs.writeFileSync(f, line(`s${i}`) + line(`s${i}`));
    const dbFile = path.join(dir, 'index.db');
    const first = await indexOnce(projects, dbFile, []);
    assert.is(first.messages, 80);
    assert.is(first.weekFinal, false, 'every transcript modified just now: the scan ends before a week back is final');

    fs.appendFileSync(files[7]!, line('s7'));
    const added = path.join(folder, 's40.jsonl');
    fs.writeFileSync(added, line('s40'));
    const logs: string[] = [];
    const read = new Set<string>();
    const again = await indexOnce(projects, dbFile, logs, read);
    assert.is(again.messages, 82, 'the appended line and the new file are read');
    assert.equal([...read].sort(), [files[7]!, added].sort(), 'no cursor of an unchanged file is read one by one');
    assert.is(again.progress.done, true);
    assert.is(again.weekFinal, false, 'a restart reads what changed, all of it recent: the heap setting waits for the watcher');
    assert.is(again.progress.filesDone, 41);
    assert.is(again.progress.filesTotal, 41);
    assert.is(again.progress.bytesDone, again.progress.bytesTotal);
    assert.ok(logs.includes(`indexed 41 files (${(again.progress.bytesTotal / 1048576).toFixed(1)} MiB)`), logs.join(' | '));

    // Nothing changed: nothing is read, and the scan still ends with its line.
    const quiet: string[] = [];
    const none = new Set<string>();
    const third = await indexOnce(projects, dbFile, quiet, none);
    assert.is(third.messages, 82);
    assert.is(none.size, 0);
    assert.ok(quiet.some((l) => l.startsWith('indexed 41 files')), quiet.join(' | '));
    assert.is(third.progress.done, true);
    assert.is(third.weekFinal, false, 'nothing to read');

    // The cursors cannot be read at once: each file is checked by the ingest, and what changed is still read.
    fs.appendFileSync(files[3]!, line('s3'));
    const failing: string[] = [];
    const each = new Set<string>();
    const fourth = await indexOnce(projects, dbFile, failing, each, true);
    assert.is(fourth.messages, 83);
    assert.is(each.size, 41, 'every file checked against its own cursor');
    assert.ok(failing.some((l) => l.startsWith("the index's cursors could not be read (The database connection is not open)")), failing.join(' | '));
    assert.is(fourth.progress.filesDone, 41);
  } finally {
    cleanup();
  }
});

test.run();
