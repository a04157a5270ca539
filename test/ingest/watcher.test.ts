// The watcher (chokidar) on real folders while real files are written, appended and removed: transcripts are
// reported, other names are not (non-.jsonl, journals, hidden files and sync tools' hidden folders); a projects folder
// that does not exist yet is picked up when it appears; folders reached through links are watched once added, and
// files given to it on their own; only folders get a watch (appends arrive through them, deep ones included); a
// folder deleted or moved away is reported, and one made again under its name is watched again; close() stops the
// reports. The walk watches every folder there when it is ready once, those made while it ran included. Files
// written before a test's sentinel transcript must have been reported (or not) by the time the sentinel is.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { slicesByEntries, watchProjects, type Watcher } from '../../src/ingest/watcher.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { sleep, waitFor } from '../helpers/wait.ts';

interface Watching {
  watcher: Watcher;
  changed: string[];
  removed: string[];
  removedFolders: string[];
  logs: string[];
}

async function watch(dirs: string[]): Promise<Watching> {
  const w: Omit<Watching, 'watcher'> = { changed: [], removed: [], removedFolders: [], logs: [] };
  const handlers = { changed: (p: string) => w.changed.push(p), removed: (p: string) => w.removed.push(p), removedFolder: (p: string) => w.removedFolders.push(p) };
  const watcher = watchProjects(dirs, handlers, (m) => w.logs.push(m));
  await watcher.ready;
  return { watcher, ...w };
}

function put(file: string, text = '{}\n'): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** Writes a transcript and waits until it is reported: what was written before it has been seen by then. */
async function sentinel(w: Watching, file: string): Promise<void> {
  put(file);
  await waitFor(() => w.changed.includes(file), `the sentinel ${path.basename(file)}`, 10_000);
  await sleep(200); // events of other files are not ordered with it to the millisecond
}

const Watch = suite('watcher');

Watch('the walk reports the transcripts the start-up scan did not list (made since), not those it did', async () => {
  const { dir, cleanup } = tempDir('cost-watch-');
  const projects = path.join(dir, 'projects');
  const scanned = put(path.join(projects, '-a', 's1.jsonl'));
  const since = put(path.join(projects, '-a', 's2.jsonl'));
  const deep = put(path.join(projects, '-a', 's1', 'subagents', 'agent-y.jsonl'));
  const changed: string[] = [];
  const listed = new Set([scanned]);
  const handlers = { changed: (p: string) => changed.push(p), removed: () => {}, removedFolder: () => {}, listed: (p: string) => listed.has(p) };
  const watcher = watchProjects([projects], handlers, () => {});
  try {
    await watcher.ready;
    assert.equal(changed.sort(), [since, deep].sort(), 'each file the scan did not list, once');
  } finally {
    await watcher.close();
    cleanup();
  }
});

Watch('new, appended and removed transcripts are reported; other names are not', async () => {
  const { dir, cleanup } = tempDir('cost-watch-');
  const projects = path.join(dir, 'projects');
  const existing = put(path.join(projects, '-a', 's1.jsonl'));
  const w = await watch([projects]);
  try {
    assert.equal(w.changed, [], 'files present at the start are the start-up scan\'s, not the watcher\'s');
    fs.appendFileSync(existing, '{"more":1}\n');
    await waitFor(() => w.changed.includes(existing), 'the append', 10_000);

    const created = put(path.join(projects, '-b', 's2.jsonl'));
    const subagent = put(path.join(projects, '-b', 's2', 'subagents', 'agent-x.jsonl'));
    await waitFor(() => w.changed.includes(created) && w.changed.includes(subagent), 'a new project folder, a new subagent folder', 10_000);

    const ignored = [
      path.join(projects, '-a', 'notes.txt'),
      path.join(projects, '-a', 'agent-x.meta.json'),
      path.join(projects, '-a', 'journal.jsonl'),
      path.join(projects, '-a', '.s1.jsonl.tmp'),
      path.join(projects, '-a', '.s3.jsonl'),
      path.join(projects, '.stversions', '-a', 's1.jsonl'),
      path.join(projects, '-a', '.sync', 'copy.jsonl'),
    ];
    for (const f of ignored) put(f);
    await sentinel(w, path.join(projects, '-a', 'sentinel-1.jsonl'));
    assert.equal(w.changed.filter((p) => ignored.includes(p)), [], 'no other name reported');

    fs.rmSync(created);
    await waitFor(() => w.removed.includes(created), 'the removal', 10_000);
    fs.rmSync(path.join(projects, '-a', 'notes.txt'));
    await sentinel(w, path.join(projects, '-a', 'sentinel-2.jsonl'));
    assert.equal(w.removed, [created], 'only the transcript\'s removal');
    assert.equal(w.logs, []);
  } finally {
    await w.watcher.close();
    cleanup();
  }
});

Watch('a projects folder that does not exist yet is watched from its parent', async () => {
  const { dir, cleanup } = tempDir('cost-watch-late-');
  const config = path.join(dir, 'config');
  fs.mkdirSync(config);
  const w = await watch([path.join(config, 'projects')]);
  try {
    const first = path.join(config, 'projects', '-a', 'first.jsonl');
    put(first);
    await waitFor(() => w.changed.includes(first), 'the first session of a new config dir', 10_000);
  } finally {
    await w.watcher.close();
    cleanup();
  }
});

Watch('links are not followed: a linked folder is watched at its real path once added; a linked projects folder at its target', async () => {
  const { dir, cleanup } = tempDir('cost-watch-links-');
  const projects = path.join(dir, 'projects');
  const outside = path.join(dir, 'synced', '-c');
  fs.mkdirSync(outside, { recursive: true });
  fs.mkdirSync(path.join(projects, '-a'), { recursive: true });
  fs.symlinkSync(outside, path.join(projects, '-c'));
  const linkedProjects = path.join(dir, 'linked-projects');
  fs.symlinkSync(projects, linkedProjects);
  const w = await watch([linkedProjects]);
  try {
    const beyond = put(path.join(outside, 's1.jsonl'));
    await sentinel(w, path.join(projects, '-a', 'sentinel-1.jsonl'));
    assert.not.ok(w.changed.includes(beyond) || w.changed.includes(path.join(projects, '-c', 's1.jsonl')), 'the link is not followed');
    assert.ok(w.changed.includes(path.join(fs.realpathSync(projects), '-a', 'sentinel-1.jsonl')), 'reported at the real path');

    w.watcher.add([fs.realpathSync(outside)]);
    const later = path.join(outside, 's2.jsonl');
    await waitFor(async () => {
      // chokidar reports nothing until its walk of the added folder is done: append until it does.
      fs.appendFileSync(later, '{}\n');
      await sleep(100);
      return w.changed.includes(fs.realpathSync(later));
    }, 'a file of the added folder', 10_000);
  } finally {
    await w.watcher.close();
    cleanup();
  }
});

Watch('close() stops the reports', async () => {
  const { dir, cleanup } = tempDir('cost-watch-close-');
  const projects = path.join(dir, 'projects');
  const file = put(path.join(projects, '-a', 's1.jsonl'));
  const w = await watch([projects]);
  try {
    await w.watcher.close();
    fs.appendFileSync(file, '{}\n');
    put(path.join(projects, '-a', 's2.jsonl'));
    await sleep(500);
    assert.equal(w.changed, []);
  } finally {
    cleanup();
  }
});

/** The inotify watches this process holds (Linux: one line per watch in the fdinfo of each inotify descriptor). */
function inotifyWatches(): number {
  let n = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed since the listing
    }
    if (target !== 'anon_inode:inotify') continue;
    n += fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').split('\n').filter((l) => l.startsWith('inotify wd:')).length;
  }
  return n;
}

Watch('folders are watched, files are not: appends deep in the tree arrive through their folder\'s watch', async () => {
  const { dir, cleanup } = tempDir('cost-watch-deep-');
  const projects = path.join(dir, 'projects');
  const files = ['s1', 's2', 's3'].flatMap((s) => [
    put(path.join(projects, '-a', `${s}.jsonl`)),
    put(path.join(projects, '-a', s, 'subagents', 'agent-1.jsonl')),
    put(path.join(projects, '-a', s, 'subagents', 'agent-2.jsonl')),
  ]);
  const before = process.platform === 'linux' ? inotifyWatches() : 0;
  const w = await watch([projects]);
  try {
    if (process.platform === 'linux') {
      // projects, -a, and per session its folder and subagents/: 2 + 3 x 2 folders, none of the 9 files
      assert.is(inotifyWatches() - before, 8, 'one watch per folder');
    }
    for (const f of files) fs.appendFileSync(f, '{"more":1}\n');
    await waitFor(() => files.every((f) => w.changed.includes(f)), 'every append', 10_000);
  } finally {
    await w.watcher.close();
    cleanup();
  }
});

Watch('a folder that goes is reported with the transcripts deleted in it; one moved away is reported as a folder', async () => {
  const { dir, cleanup } = tempDir('cost-watch-gone-');
  const projects = path.join(dir, 'projects');
  const deleted = put(path.join(projects, '-a', 's1.jsonl'));
  put(path.join(projects, '-b', 's2.jsonl'));
  put(path.join(projects, '-keep', 's3.jsonl'));
  const w = await watch([projects]);
  try {
    fs.rmSync(path.join(projects, '-a'), { recursive: true });
    fs.renameSync(path.join(projects, '-b'), path.join(dir, 'moved-away'));
    await waitFor(() => w.removed.includes(deleted), 'the deleted folder\'s transcript', 10_000);
    await waitFor(() => w.removedFolders.includes(path.join(projects, '-b')), 'the folder moved away', 10_000);
    await sentinel(w, path.join(projects, '-keep', 'sentinel.jsonl'));
    assert.equal(w.removedFolders.sort(), [path.join(projects, '-a'), path.join(projects, '-b')]);
    assert.equal(w.removed, [deleted], 'the moved folder\'s file is not there to be reported: its folder is');
  } finally {
    await w.watcher.close();
    cleanup();
  }
});

Watch('a file given to add (reached through a link) is watched on its own: appends and its removal', async () => {
  const { dir, cleanup } = tempDir('cost-watch-file-');
  const projects = path.join(dir, 'projects');
  fs.mkdirSync(path.join(projects, '-a'), { recursive: true });
  const outside = put(path.join(dir, 'elsewhere', 'linked.jsonl'));
  const w = await watch([projects]);
  try {
    w.watcher.add([outside]);
    await waitFor(async () => {
      // chokidar reports nothing until it watches the added file: append until it does
      fs.appendFileSync(outside, '{}\n');
      await sleep(100);
      return w.changed.includes(outside);
    }, 'an append to the added file', 10_000);
    fs.rmSync(outside);
    await waitFor(() => w.removed.includes(outside), 'its removal', 10_000);
  } finally {
    await w.watcher.close();
    cleanup();
  }
});

Watch('the walk: every folder there when it is ready is watched once, those made while it ran included', async () => {
  const { dir, cleanup } = tempDir('cost-watch-walk-');
  const projects = path.join(dir, 'projects');
  // 10 projects of 10 sessions, each with its subagents folder: 211 folders, several slices of the walk
  for (let p = 0; p < 10; p++) for (let s = 0; s < 10; s++) put(path.join(projects, `-p${p}`, `s${s}`, 'subagents', 'agent-1.jsonl'));
  const before = process.platform === 'linux' ? inotifyWatches() : 0;
  const w: Omit<Watching, 'watcher'> = { changed: [], removed: [], removedFolders: [], logs: [] };
  const watcher = watchProjects([projects], { changed: (p) => w.changed.push(p), removed: (p) => w.removed.push(p), removedFolder: (p) => w.removedFolders.push(p) }, (m) => w.logs.push(m));
  try {
    // folders made while the walk runs, in folders it has or has not reached yet, nested ones too
    let walked = false;
    void watcher.ready.then(() => (walked = true));
    const madeDuring: string[] = [];
    for (let i = 0; !walked; i++) {
      const folder = path.join(projects, `-p${i % 10}`, `s${i % 7}`, `new-${i}`, 'deeper');
      fs.mkdirSync(folder, { recursive: true });
      madeDuring.push(folder, path.dirname(folder));
      await sleep(1);
    }
    assert.ok(madeDuring.length > 0);
    const folders: string[] = [];
    const walkTree = (d: string): void => {
      folders.push(d);
      for (const e of fs.readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) walkTree(path.join(d, e.name));
    };
    walkTree(projects);
    if (process.platform === 'linux') {
      // the walk's folders, and those it was told of as new while it ran, each watched once
      await waitFor(() => inotifyWatches() - before === folders.length, `${folders.length} watches`, 10_000);
    }
    const written = folders.map((f) => put(path.join(f, 'after-ready.jsonl')));
    await waitFor(() => written.every((f) => w.changed.includes(f)), 'a transcript written in every folder', 10_000);
    assert.equal(w.logs, []);
  } finally {
    await watcher.close();
    cleanup();
  }
});

// Issue 37: 100,000 one-line transcripts in 100 folders left the walk over the 400 MB bound, as 25 folders of 1,000
// entries each were stat'ed by chokidar all at once. The walk's slices hold at most 1,000 entries (a bigger folder alone).
Watch('the walk\'s slices are bounded by the entries of their folders, not only by their number', async () => {
  const { dir, cleanup } = tempDir('cost-watch-slices-');
  try {
    const folder = (name: string, files: number): string => {
      const d = path.join(dir, name);
      fs.mkdirSync(d);
      for (let i = 0; i < files; i++) fs.writeFileSync(path.join(d, `s${i}.jsonl`), '{}\n');
      return d;
    };
    const big1 = folder('big1', 1200);
    const big2 = folder('big2', 600);
    const mid = folder('mid', 500);
    const small = Array.from({ length: 20 }, (_, i) => folder(`small${i}`, 3));
    const gone = path.join(dir, 'gone');
    const slices = slicesByEntries([big1, big2, mid, ...small, gone]);
    assert.equal(slices, [[big1], [big2], [mid, ...small, gone]]);
    for (const slice of slices) {
      const entries = slice.reduce((n, d) => n + (fs.existsSync(d) ? fs.readdirSync(d).length : 0), 0);
      assert.ok(slice.length === 1 || entries <= 1000, `${slice.length} folders, ${entries} entries`);
    }
    // The walk over them: every folder watched, an append in the big ones reported.
    const w = await watch([dir]);
    try {
      fs.appendFileSync(path.join(big1, 's1199.jsonl'), '{}\n');
      fs.appendFileSync(path.join(big2, 's0.jsonl'), '{}\n');
      await waitFor(() => w.changed.includes(path.join(big1, 's1199.jsonl')) && w.changed.includes(path.join(big2, 's0.jsonl')), 'appends in the big folders', 10_000);
      assert.equal(w.logs, []);
    } finally {
      await w.watcher.close();
    }
  } finally {
    cleanup();
  }
});

Watch('a folder made again under the name of one deleted or moved away is watched again', async () => {
  const { dir, cleanup } = tempDir('cost-watch-again-');
  const projects = path.join(dir, 'projects');
  put(path.join(projects, '-a', 's1', 'subagents', 'agent-1.jsonl'));
  put(path.join(projects, '-b', 's2.jsonl'));
  const w = await watch([projects]);
  try {
    fs.rmSync(path.join(projects, '-a'), { recursive: true });
    fs.renameSync(path.join(projects, '-b'), path.join(dir, 'moved-away'));
    await waitFor(() => w.removedFolders.includes(path.join(projects, '-a')) && w.removedFolders.includes(path.join(projects, '-b')), 'both folders gone', 10_000);
    const again = [put(path.join(projects, '-a', 's1', 'subagents', 'agent-2.jsonl')), put(path.join(projects, '-b', 's3.jsonl'))];
    await waitFor(() => again.every((f) => w.changed.includes(f)), 'the transcripts of the folders made again', 10_000);
    for (const f of again) fs.appendFileSync(f, '{"more":1}\n');
    const reported = w.changed.length;
    await waitFor(() => again.every((f) => w.changed.lastIndexOf(f) >= reported), 'appends in the folders made again', 10_000);
    // the moved folder's old watch is closed: a write there is not reported under the old name
    put(path.join(dir, 'moved-away', 's4.jsonl'));
    await sentinel(w, path.join(projects, '-b', 'sentinel.jsonl'));
    assert.not.ok(w.changed.includes(path.join(projects, '-b', 's4.jsonl')) || w.removed.includes(path.join(projects, '-b', 's4.jsonl')));
  } finally {
    await w.watcher.close();
    cleanup();
  }
});

Watch.run();
