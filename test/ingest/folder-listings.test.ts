// The freshness check's walk with folder listings kept from the walk before (src/ingest/folder-listings.ts) against a
// full walk (listTranscripts reading every folder), on a real tree changed in every way a config dir changes: after
// each change both must find the same transcripts, paths, sizes and mtimes in the same order, under the same rules
// (two dirs, symlinked folders and files and their claims, hidden names, journals). The listings must also be used:
// an unchanged tree reads no folder; and a folder whose read failed (as another user) must not be kept as empty.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listTranscripts } from '../../src/ingest/discovery.ts';
import { FolderListings } from '../../src/ingest/folder-listings.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { ROOT } from '../helpers/paths.ts';
import { skipTest } from '../helpers/skip.ts';
import { sleep } from '../helpers/wait.ts';

const { dir: root } = tempDir('folder-listings-');
const dirA = path.join(root, 'a', 'projects');
const dirB = path.join(root, 'b', 'projects');
const outside = path.join(root, 'outside');
const dirs = [dirA, dirB];
const file = path.join(root, 'index.db.listing.json');

function put(p: string, text = '{"type":"x"}\n'): void {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
}

put(path.join(dirA, '-p1', 's1.jsonl'));
put(path.join(dirA, '-p1', 's2.jsonl'));
put(path.join(dirA, '-p1', 's1', 'subagents', 'agent-x.jsonl'));
put(path.join(dirA, '-p1', 's1', 'subagents', 'agent-x.meta.json'), '{}');
put(path.join(dirA, '-p1', 'journal.jsonl'));
put(path.join(dirA, '-p1', '.hidden.jsonl'));
put(path.join(dirA, '-p1', 'notes.txt'));
put(path.join(dirA, '.stversions', '-p1', 'old.jsonl'));
put(path.join(dirA, '-p2', 's3.jsonl'));
put(path.join(dirB, '-p9', 's9.jsonl'));
put(path.join(outside, 'linked', 's7.jsonl'));
put(path.join(outside, 'other', 's8.jsonl'));
put(path.join(outside, 'loose.jsonl'));
fs.symlinkSync(path.join(outside, 'linked'), path.join(dirA, '-linked'));
// A second path to the same real folder: its files are claimed once, under the first path.
fs.symlinkSync(path.join(outside, 'linked'), path.join(dirB, '-again'));
fs.symlinkSync(path.join(outside, 'loose.jsonl'), path.join(dirA, '-p2', 'loose.jsonl'));

/** The clock the listings measure their margin on: ahead of the file system, so a change made by the test is old. */
let skew = 10_000;
const now = (): number => Date.now() + skew;

/** A walk with the listings the last one saved, checked against a full walk; what it took from them and read. */
async function same(what: string): Promise<{ cached: number; read: number }> {
  const full = await listTranscripts(dirs);
  const listings = FolderListings.load(file, { now });
  const cached = await listTranscripts(dirs, listings.source);
  listings.save();
  assert.equal(cached, full, what);
  return listings.counts;
}

/**
 * A change is made a little after the walk before it: with the clock ahead of the file system, the listings are
 * trusted at once, which in real use the 3 s margin guards; a coarse kernel clock ticks every 1 to 10 ms.
 */
async function change(what: string, make: () => void): Promise<{ cached: number; read: number }> {
  await sleep(15);
  make();
  return same(what);
}

const t = suite('folder listings find what a full walk finds');

t('an unchanged tree reads no folder; each change is found as the full walk finds it', async () => {
  const first = await same('no listings yet');
  assert.is(first.cached, 0);
  const folders = first.read;
  assert.equal(await same('unchanged'), { cached: folders, read: 0 }, 'every folder from the listings');

  const s1 = path.join(dirA, '-p1', 's1.jsonl');
  const appended = await change('an append', () => fs.appendFileSync(s1, '{"type":"y"}\n'));
  assert.is(appended.read, 0, 'an append changes no folder');

  const newInOld = await change('a new transcript in an old folder', () => put(path.join(dirA, '-p1', 's4.jsonl')));
  assert.is(newInOld.read, 1, 'only that folder is read');
  await change('a new project folder', () => put(path.join(dirA, '-p3', 's5.jsonl')));
  await change('a new subagent folder in an old session', () => put(path.join(dirA, '-p2', 's3', 'subagents', 'agent-y.jsonl')));
  const run = path.join(dirA, '-p2', 's3', 'subagents', 'workflows', 'wf_1');
  await change('a workflow run: an agent, a 0-byte agent, a meta file, a journal', () => {
    put(path.join(run, 'agent-w1.jsonl'));
    put(path.join(run, 'agent-w2.jsonl'), '');
    put(path.join(run, 'agent-w2.meta.json'));
    put(path.join(run, 'journal.jsonl'));
  });
  assert.ok((await listTranscripts(dirs)).some((f) => f.path === path.join(run, 'agent-w2.jsonl') && f.size === 0), 'the 0-byte agent is listed');
  assert.not.ok((await listTranscripts(dirs)).some((f) => f.path === path.join(run, 'journal.jsonl')), 'the journal is not');
  await change('a second workflow run', () => put(path.join(run, '..', 'wf_2', 'agent-w3.jsonl')));
  await change('a deleted transcript', () => fs.rmSync(path.join(dirA, '-p1', 's2.jsonl')));
  await change('a renamed transcript', () => fs.renameSync(path.join(dirA, '-p1', 's4.jsonl'), path.join(dirA, '-p1', 's6.jsonl')));
  await change('a renamed folder', () => fs.renameSync(path.join(dirA, '-p3'), path.join(dirA, '-p4')));
  await change('a deleted folder', () => fs.rmSync(path.join(dirA, '-p4'), { recursive: true }));
  await change('a journal and a hidden transcript', () => {
    put(path.join(dirA, '-p2', 'journal.jsonl'));
    put(path.join(dirA, '-p2', '.tmp.jsonl'));
    put(path.join(dirA, '.stversions', '-p2', 'old.jsonl'));
  });
  await change('a new transcript in a linked folder (the link\'s folder does not change)', () => put(path.join(outside, 'linked', 's10.jsonl')));
  await change('a new symlinked folder', () => fs.symlinkSync(path.join(outside, 'other'), path.join(dirB, '-other')));
  await change('a link re-pointed, in place', () => {
    fs.rmSync(path.join(dirB, '-other'));
    fs.symlinkSync(path.join(outside, 'linked'), path.join(dirB, '-other'));
  });
  await change('a folder replaced by a link to another', () => {
    fs.rmSync(path.join(dirA, '-p2'), { recursive: true });
    fs.symlinkSync(path.join(outside, 'other'), path.join(dirA, '-p2'));
  });
  await change('a link replaced by a folder', () => {
    fs.rmSync(path.join(dirA, '-p2'));
    put(path.join(dirA, '-p2', 's11.jsonl'));
  });
  await change('a transcript link to a file that is gone', () => fs.rmSync(path.join(outside, 'loose.jsonl')));
  assert.is((await same('unchanged again')).read, 0);
});

t('a link to a link: the target changes behind a link whose folder does not', async () => {
  const hop = path.join(outside, 'hop');
  fs.symlinkSync(path.join(outside, 'other'), hop);
  fs.symlinkSync(hop, path.join(dirA, '-hop'));
  await same('a chain of links');
  await change('the second link re-pointed', () => {
    fs.rmSync(hop);
    fs.symlinkSync(path.join(outside, 'linked'), hop);
  });
  await change('back again', () => {
    fs.rmSync(hop);
    fs.symlinkSync(path.join(outside, 'other'), hop);
  });
});

t('mtime-preserving copies: a folder set back to its old times, a folder swapped for a copy with its times', async () => {
  const p1 = path.join(dirA, '-p1');
  // Whole seconds, which utimes sets exactly.
  const old = Math.floor(Date.now() / 1000) - 3600;
  fs.utimesSync(p1, old, old);
  const before = fs.statSync(p1);
  await same('the folder\'s times set to an hour ago');
  await change('a file added, then the folder\'s mtime set back', () => {
    put(path.join(p1, 's12.jsonl'));
    fs.utimesSync(p1, old, old);
  });
  assert.is(fs.statSync(p1).mtimeMs, before.mtimeMs, 'the folder\'s mtime is as it was');
  await same('settled');
  await change('the folder swapped for a copy with one more file and the same times', () => {
    const copy = path.join(root, 'copy');
    fs.cpSync(p1, copy, { recursive: true, preserveTimestamps: true });
    put(path.join(copy, 's13.jsonl'));
    fs.utimesSync(copy, old, old);
    fs.renameSync(p1, path.join(root, 'old-p1'));
    fs.renameSync(copy, p1);
  });
  await change('a transcript replaced by an older copy of itself (same folder, new inode)', () => {
    const s = path.join(p1, 's1.jsonl');
    const st = fs.statSync(s);
    fs.writeFileSync(`${s}.new`, 'x'.repeat(st.size));
    fs.utimesSync(`${s}.new`, st.atime, st.mtime);
    fs.renameSync(`${s}.new`, s);
  });
});

t('clock skew: times in the future and the past, a process clock behind or far ahead of the file system', async () => {
  const p9 = path.join(dirB, '-p9');
  await change('a folder with a future mtime', () => {
    put(path.join(p9, 's14.jsonl'));
    fs.utimesSync(p9, new Date(Date.now() + 86_400_000), new Date(Date.now() + 86_400_000));
  });
  await change('a new file in it, its mtime set into the future again', () => {
    put(path.join(p9, 's15.jsonl'));
    fs.utimesSync(p9, new Date(Date.now() + 86_400_000), new Date(Date.now() + 86_400_000));
  });
  await change('a folder with an mtime in the past', () => {
    put(path.join(p9, 's16.jsonl'));
    fs.utimesSync(p9, new Date(0), new Date(0));
  });
  skew = -3_600_000;
  const behind = await change('the process clock an hour behind: nothing read now is kept', () => put(path.join(p9, 's17.jsonl')));
  assert.ok(behind.read >= 1);
  assert.ok((await same('still behind')).read >= 1, 'a folder changed "in the future" is read on every walk');
  skew = 10_000;
  await same('the clock back');
  assert.is((await same('the clock back, settled')).read, 0);
});

t('the real margin: a folder changed in the last 3 s is read again by the next walk', async () => {
  skew = 0;
  try {
    await same('settled');
    const fresh = await change('a new transcript now', () => put(path.join(dirA, '-p1', 's18.jsonl')));
    assert.is(fresh.read, 1);
    const saved = fs.statSync(file).mtimeMs;
    const again = await same('right after');
    assert.is(again.read, 1, 'the folder changed less than 3 s ago is not taken from the listings');
    assert.is(fs.statSync(file).mtimeMs, saved, 'nor written again while it is that young');
  } finally {
    skew = 10_000;
  }
});

t('a damaged or foreign listings file: every folder is read, with the same result, and the file is rewritten', async () => {
  for (const text of ['not json', '{"version":1,"folders":[["/x",1,2,3,4,"q?"]]}', '{"version":99,"folders":[]}', '[]', 'null']) {
    fs.writeFileSync(file, text);
    const r = await same(text);
    assert.is(r.cached, 0, text);
    assert.is((await same(`${text}, then`)).read, 0, 'rewritten');
  }
});

t('a folder that could not be read is not kept: read again by the next walk, which can read it', async () => {
  // The first walk runs as a user the folder shuts out (root reads it whatever its mode); the folder itself does not
  // change between the two walks, so only the rule keeps the failed read out of the listings.
  if (process.getuid?.() !== 0) return skipTest('needs root, to walk once as another user and once as root');
  let setpriv: string;
  try {
    setpriv = execFileSync('sh', ['-c', 'command -v setpriv'], { encoding: 'utf8' }).trim();
  } catch {
    return skipTest('setpriv is not installed');
  }
  const shut = path.join(root, 'shut');
  const locked = path.join(shut, 'projects', '-p', 'locked');
  put(path.join(locked, 's.jsonl'));
  put(path.join(shut, 'projects', '-p', 'open.jsonl'));
  const listing = path.join(shut, 'listing.json');
  fs.chmodSync(root, 0o755); // mkdtemp's 0700 would shut the other user out of everything
  fs.chmodSync(shut, 0o777);
  for (const d of [path.join(shut, 'projects'), path.join(shut, 'projects', '-p')]) fs.chmodSync(d, 0o755);
  fs.chmodSync(locked, 0o000);
  try {
    await sleep(15);
    const walk = `const { FolderListings } = await import(${JSON.stringify(path.join(ROOT, 'src', 'ingest', 'folder-listings.ts'))});
      const { listTranscripts } = await import(${JSON.stringify(path.join(ROOT, 'src', 'ingest', 'discovery.ts'))});
      const l = FolderListings.load(${JSON.stringify(listing)}, { now: () => Date.now() + 10000 });
      const found = await listTranscripts([${JSON.stringify(path.join(shut, 'projects'))}], l.source);
      l.save();
      process.stdout.write(JSON.stringify(found.map((f) => f.path)));`;
    const asNobody = execFileSync(setpriv, ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '--import', 'tsx', '--input-type=module', '-e', walk], { encoding: 'utf8' });
    assert.equal(JSON.parse(asNobody), [path.join(shut, 'projects', '-p', 'open.jsonl')], 'the locked folder is shut to that user');
    assert.ok(fs.existsSync(listing), 'the listings were kept');
    const full = await listTranscripts([path.join(shut, 'projects')]);
    const listings = FolderListings.load(listing, { now });
    assert.equal(await listTranscripts([path.join(shut, 'projects')], listings.source), full);
    assert.ok(full.some((f) => f.path === path.join(locked, 's.jsonl')));
  } finally {
    fs.chmodSync(locked, 0o755);
  }
});

t.run();
