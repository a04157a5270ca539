// Missed work is made up for: with file descriptors exhausted (real EMFILE in this process, where the pool's
// worker threads also open files), a failed read is retried, and a folder the watcher could not watch is found by
// the periodic re-list. After the descriptors come back nothing else happens to the files: no event, no write. The
// re-list reads a file changed where the watcher cannot see it, and leaves the unchanged ones alone.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import type { IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { startIndexing } from '../helpers/pipeline.ts';
import { sleep, waitFor } from '../helpers/wait.ts';

const allTime = (): QueryScope => ({
  range: { from: '1970-01-01', to: '2100-01-01', fromMs: 0, toMs: Date.UTC(2100, 0, 1), bucket: 'day', kind: 'all', days: null },
  project: null,
  now: Date.now(),
});

let n = 0;
const line = (sessionId: string): string => {
  n++;
  return `${JSON.stringify({
    type: 'assistant', sessionId, timestamp: '2026-11-20T10:00:00.000Z', requestId: `req_${n}`,
    message: { id: `msg_${n}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 100, output_tokens: 10 } },
  })}\n`;
};

const count = (index: IndexDb, session: string): number => index.queries.session(session, allTime())?.messageCount ?? 0;

/** Opens /dev/null until the process has no descriptor left; returns them for release. */
function exhaustDescriptors(): number[] {
  const fds: number[] = [];
  for (;;) {
    try {
      fds.push(fs.openSync('/dev/null', 'r'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EMFILE' || (err as NodeJS.ErrnoException).code === 'ENFILE') return fds;
      throw err;
    }
  }
}

async function start(projects: string, recheckMs: number) {
  const logs: string[] = [];
  const running = await startIndexing(projects, { prices: 'builtin', recheckMs, log: (m) => logs.push(m) });
  return { ...running, logs };
}

/** A temp dir whose projects folder holds one transcript of one line, `-home-dev-a/s1.jsonl`. */
function historyOfOne(prefix: string) {
  const tmp = tempDir(prefix);
  const projects = path.join(tmp.dir, 'projects');
  const file = path.join(projects, '-home-dev-a', 's1.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, line('s1'));
  return { tmp, projects, file };
}

const Retry = suite('missed work');

Retry('a read that failed (EMFILE) is retried with no further event', async () => {
  const { tmp, projects, file } = historyOfOne('cost-retry-');
  const { index, logs, stop } = await start(projects, 3_600_000); // no periodic re-list in this test
  let fds: number[] = [];
  try {
    assert.is(count(index, 's1'), 1);
    const append = fs.openSync(file, 'a'); // opened before the descriptors run out
    fds = exhaustDescriptors();
    fs.writeSync(append, line('s1'));
    await waitFor(() => logs.some((l) => l.startsWith('cannot read') && l.includes('EMFILE')), 'the failed read', 5000);
    await sleep(300);
    assert.is(count(index, 's1'), 1, 'not read while descriptors are exhausted');
    for (const fd of fds) fs.closeSync(fd);
    fds = [];
    fs.closeSync(append);
    await waitFor(() => count(index, 's1') === 2, 'the appended line, read again', 10_000);
    assert.ok(logs.some((l) => l.startsWith('read ') && l.endsWith('again')), logs.join(' | '));
    assert.is(index.stats().unreadable, 0, 'no longer counted unreadable');
  } finally {
    for (const fd of fds) fs.closeSync(fd);
    await stop();
    tmp.cleanup();
  }
});

Retry('a folder the watcher could not watch (EMFILE) is found by the periodic re-list', async () => {
  const { tmp, projects } = historyOfOne('cost-relist-'); // the parse worker is up before
  const staged = path.join(tmp.dir, 'staged.jsonl');
  fs.writeFileSync(staged, line('s2'));
  const { index, logs, stop } = await start(projects, 1500);
  let fds: number[] = [];
  try {
    fds = exhaustDescriptors();
    // a new project folder and its transcript appear, made without a descriptor (mkdir, a hard link)
    const dir = path.join(projects, '-home-dev-b');
    fs.mkdirSync(dir);
    fs.linkSync(staged, path.join(dir, 's2.jsonl'));
    await sleep(1000);
    for (const fd of fds) fs.closeSync(fd);
    fds = [];
    await waitFor(() => count(index, 's2') === 1, 'the new folder, from the re-list', 10_000).catch((e: Error) => { throw new Error(e.message + ' ' + logs.join(' | ') + JSON.stringify(index.stats())); });
  } finally {
    for (const fd of fds) fs.closeSync(fd);
    await stop();
    tmp.cleanup();
  }
});

Retry('the periodic re-list reads what changed unseen, and looks up no cursor of an unchanged file', async () => {
  const { tmp, projects, file } = historyOfOne('cost-recheck-');
  for (let i = 0; i < 40; i++) fs.writeFileSync(path.join(projects, '-home-dev-a', `other-${i}.jsonl`), line(`other-${i}`));
  // A second name outside the watched folders: inotify reports a write to the folder the writer opened it through,
  // so an append through this name reaches the index only through the re-list.
  const unseen = path.join(tmp.dir, 'same-file.jsonl');
  fs.linkSync(file, unseen);
  const { index, stop } = await start(projects, 300);
  let lookups = 0;
  const cursorOf = index.cursorOf.bind(index);
  index.cursorOf = (p) => {
    lookups++;
    return cursorOf(p);
  };
  try {
    await sleep(1000); // three re-lists or more
    assert.is(lookups, 0, 'no cursor looked up for 41 unchanged files');
    fs.appendFileSync(unseen, line('s1'));
    await waitFor(() => count(index, 's1') === 2, 'the line appended through the other name, from the re-list', 10_000);
    await sleep(700);
    assert.ok(lookups >= 1 && lookups <= 3, `cursors looked up for the changed file only: ${lookups}`);
  } finally {
    await stop();
    tmp.cleanup();
  }
});

Retry.run();
