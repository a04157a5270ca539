// Discovery on real folders: a transcript's role from its path (sessions, subagents, other files, sync conflict
// copies), which names are transcripts, subagent meta files (missing, bad, odd, too big, a FIFO), the machine of each
// dir, and the start-up listing: breadth-first, by name, sizes and mtimes, hidden and non-transcript names left out,
// each real file once through links (the pipeline-level suite test/ingest/symlinks.test.ts checks the totals), a big
// folder stat'ed in slices and many folders read in runs, with turns of the event loop between them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readAgentMeta } from '../../src/workers/agent-meta.ts';
import { readTranscript } from '../../src/workers/read-transcript.ts';
import { fileRoles, isTranscript, listTranscripts, readFolder, readFolders, roleOf, TranscriptPaths, withoutConflictMarker, type FolderEntry } from '../../src/ingest/discovery.ts';
import { workflowRunOf } from '../../src/shared/workflow-run.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { countTurns } from '../helpers/wait.ts';

const { dir: root } = tempDir('cost-discovery-');
const projects = path.join(root, 'projects');
const at = (...parts: string[]): string => path.join(projects, ...parts);

/** Writes a file (and its folders) with `text`. */
function put(file: string, text = '{}\n'): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

const Roles = suite('roles from paths');

Roles('a session file, its subagents at any depth, other files, and paths outside a project', () => {
  assert.equal(roleOf(projects, at('-home-me-p', 'sess-1.jsonl')), { project: '-home-me-p', session: 'sess-1', agentId: null });
  assert.equal(roleOf(projects, at('-home-me-p', 'sess-1', 'subagents', 'agent-a1.jsonl')), { project: '-home-me-p', session: 'sess-1', agentId: 'a1' });
  assert.equal(roleOf(projects, at('-home-me-p', 'sess-1', 'subagents', 'deep', 'agent-a2.jsonl')), { project: '-home-me-p', session: 'sess-1', agentId: 'a2' });
  assert.equal(roleOf(projects, at('-home-me-p', 'sess-1', 'subagents', 'notes.jsonl')), { project: '-home-me-p', session: 'sess-1', agentId: 'notes' });
  assert.equal(roleOf(projects, at('-home-me-p', 'agent-old.jsonl')), { project: '-home-me-p', session: null, agentId: 'old' }, 'an old-style agent file');
  assert.equal(roleOf(projects, at('-home-me-p', 'misc', 'other.jsonl')), { project: '-home-me-p', session: null, agentId: null });
  assert.is(roleOf(projects, at('loose.jsonl')), null, 'directly in projects/: no project');
  assert.is(roleOf(projects, path.join(root, 'elsewhere', 'p', 's.jsonl')), null);
  assert.is(roleOf(projects, projects), null);
});

Roles('a workflow run\'s agents are subagents of the session, its run named by its folder; its journal is no transcript', () => {
  const run = at('-home-me-p', 'sess-1', 'subagents', 'workflows', 'wf_abc123');
  assert.equal(roleOf(projects, path.join(run, 'agent-w1.jsonl')), { project: '-home-me-p', session: 'sess-1', agentId: 'w1' });
  assert.is(workflowRunOf(path.join(run, 'agent-w1.jsonl')), 'wf_abc123');
  assert.is(workflowRunOf('C:\\Users\\me\\.claude\\projects\\p\\s\\subagents\\workflows\\wf_9\\agent-a.jsonl'), 'wf_9', 'Windows separators');
  assert.not.ok(isTranscript(path.join(run, 'journal.jsonl')));
  for (const other of [at('-home-me-p', 'sess-1', 'subagents', 'agent-a1.jsonl'), at('-home-me-p', 'sess-1', 'subagents', 'workflows', 'agent-a1.jsonl'),
    at('-home-me-p', 'sess-1', 'subagents', 'workflows', 'wf_', 'agent-a1.jsonl'), at('-home-me-p', 'sess-1', 'subagents', 'other', 'wf_1', 'agent-a1.jsonl'),
    at('-home-me-p', 'sess-1.jsonl')]) {
    assert.is(workflowRunOf(other), null, other);
  }
});

Roles("a sync conflict copy is its original's", () => {
  assert.is(withoutConflictMarker("sess-1 (Bob's conflicted copy 2025-01-02)"), 'sess-1');
  assert.is(withoutConflictMarker('sess-1.sync-conflict-20250102-101112-ABCDEF7'), 'sess-1');
  assert.is(withoutConflictMarker('sess-1.sync-conflict-2025'), 'sess-1.sync-conflict-2025', 'not the full marker');
  assert.equal(roleOf(projects, at('-home-me-p', "sess-1 (Bob's conflicted copy 2025-01-02).jsonl"))?.session, 'sess-1');
  assert.equal(roleOf(projects, at('-home-me-p', 'sess-1', 'subagents', 'agent-a1.sync-conflict-20250102-101112-ABCDEF7.jsonl'))?.agentId, 'a1');
});

Roles('transcripts are .jsonl files other than journals and hidden (sync tool) files', () => {
  assert.ok(isTranscript(at('p', 's.jsonl')));
  for (const name of ['journal.jsonl', '.s.jsonl', '.s.jsonl.icloud', 's.json', 's.jsonl.tmp']) assert.not.ok(isTranscript(at('p', name)), name);
});

const Meta = suite('subagent meta files');

Meta('type and description from agent-<id>.meta.json; anything odd gives nulls, without blocking', () => {
  const dir = at('-home-me-meta', 'sess', 'subagents');
  const none = { agentType: null, agentDescription: null };
  put(path.join(dir, 'agent-good.meta.json'), JSON.stringify({ agentType: 'Explore', description: 'find the bug' }));
  assert.equal(readAgentMeta(path.join(dir, 'agent-good.jsonl')), { agentType: 'Explore', agentDescription: 'find the bug' });
  put(path.join(dir, 'agent-typed.meta.json'), JSON.stringify({ agentType: 7, description: ['x'] }));
  assert.equal(readAgentMeta(path.join(dir, 'agent-typed.jsonl')), none, 'fields that are not strings');
  put(path.join(dir, 'agent-bad.meta.json'), '{"agentType": ');
  assert.equal(readAgentMeta(path.join(dir, 'agent-bad.jsonl')), none, 'malformed JSON');
  put(path.join(dir, 'agent-null.meta.json'), 'null');
  assert.equal(readAgentMeta(path.join(dir, 'agent-null.jsonl')), none);
  put(path.join(dir, 'agent-big.meta.json'), JSON.stringify({ agentType: 'Explore', description: 'x'.repeat(70_000) }));
  assert.equal(readAgentMeta(path.join(dir, 'agent-big.jsonl')), none, 'over 64 KiB');
  assert.equal(readAgentMeta(path.join(dir, 'agent-missing.jsonl')), none);
  fs.mkdirSync(path.join(dir, 'agent-folder.meta.json'));
  assert.equal(readAgentMeta(path.join(dir, 'agent-folder.jsonl')), none, 'a folder');
  execFileSync('mkfifo', [path.join(dir, 'agent-fifo.meta.json')]);
  assert.equal(readAgentMeta(path.join(dir, 'agent-fifo.jsonl')), none, 'a FIFO with no writer');
});

Meta('fileRoles: each file of a dir gets that dir\'s machine; unknown paths are null; the worker reads the meta with each task', () => {
  const laptop = path.join(root, 'laptop', 'projects');
  put(path.join(laptop, '-home-me-lap', 'sess', 'subagents', 'agent-x.meta.json'), JSON.stringify({ agentType: 'Plan', description: 'plan it' }));
  const roles = fileRoles([projects, laptop], [null, 'laptop']);
  assert.equal(roles.of(at('-home-me-p', 's.jsonl')), { project: '-home-me-p', session: 's', agentId: null, machine: null });
  const x = path.join(laptop, '-home-me-lap', 'sess', 'subagents', 'agent-x.jsonl');
  assert.equal(roles.of(x), { project: '-home-me-lap', session: 'sess', agentId: 'x', machine: 'laptop' });
  assert.is(roles.of(path.join(root, 'nowhere', 'p', 's.jsonl')), null);
  const task = (file: string, agentMeta: boolean) => readTranscript({ path: put(file, ''), from: 0, to: 0, wantPrompt: false, agentMeta });
  assert.equal(task(x, true).agent, { agentType: 'Plan', agentDescription: 'plan it' });
  assert.is(task(x, false).agent, undefined, 'only when the task asks');
  // Read with every task: a meta file written after the transcript's first read counts from its next one.
  const late = path.join(laptop, '-home-me-lap', 'sess', 'subagents', 'agent-late.jsonl');
  assert.equal(task(late, true).agent, { agentType: null, agentDescription: null });
  put(late.replace(/\.jsonl$/, '.meta.json'), JSON.stringify({ agentType: 'Explore' }));
  assert.equal(task(late, true).agent, { agentType: 'Explore', agentDescription: null });
});

const Listing = suite('the start-up listing');

Listing('breadth-first by name, with sizes and mtimes; hidden, non-transcript and missing paths left out', async () => {
  const base = path.join(root, 'listing', 'projects');
  const b = put(path.join(base, '-b', 's2.jsonl'), 'x\n'.repeat(5));
  const a = put(path.join(base, '-a', 's1.jsonl'), 'x\n');
  const sub = put(path.join(base, '-a', 's1', 'subagents', 'agent-1.jsonl'), 'xyz\n');
  put(path.join(base, '-a', 'journal.jsonl'));
  put(path.join(base, '-a', '.s1.jsonl.tmp'));
  put(path.join(base, '-a', '.hidden.jsonl'));
  put(path.join(base, '-a', 'notes.txt'));
  put(path.join(base, '.stversions', '-a', 's1.jsonl'), 'an old version\n');
  put(path.join(base, '-a', '.sync', 'kept.jsonl'));
  const found = await listTranscripts([base, path.join(root, 'no-such-dir')]);
  assert.equal(found.map((f) => f.path), [a, b, sub], 'the top level by name, then the next level');
  for (const f of found) {
    const st = fs.statSync(f.path);
    assert.equal([f.size, f.mtimeMs], [st.size, st.mtimeMs], f.path);
  }
  assert.equal(await listTranscripts([path.join(root, 'no-such-dir')]), []);
});

Listing('links: each real folder and file once, under the first path that reaches it; loops end; broken links are skipped', async () => {
  const base = path.join(root, 'links', 'projects');
  const outside = path.join(root, 'links', 'synced', '-c');
  const real = put(path.join(outside, 's3.jsonl'));
  const own = put(path.join(base, '-a', 's1.jsonl'));
  fs.symlinkSync(outside, path.join(base, '-c'));
  fs.symlinkSync(outside, path.join(base, '-d')); // a second link to the same folder
  fs.symlinkSync(base, path.join(base, '-a', 'loop')); // a cycle back to projects/
  fs.symlinkSync(own, path.join(base, '-a', 'zz-s1.jsonl')); // a second name (later by name) of a file already listed
  fs.symlinkSync(path.join(root, 'links', 'gone.jsonl'), path.join(base, '-a', 'broken.jsonl'));
  fs.symlinkSync('self.jsonl', path.join(base, '-a', 'self.jsonl')); // a link to itself cannot be read: listed, so ingest counts it
  const paths = new TranscriptPaths();
  const found = await paths.list([base]);
  assert.equal(found.map((f) => path.relative(base, f.path)), ['-a/s1.jsonl', '-a/self.jsonl', '-c/s3.jsonl']);
  assert.equal(found.find((f) => f.path.endsWith('self.jsonl')), { path: path.join(base, '-a', 'self.jsonl'), size: 0, mtimeMs: 0 });
  assert.ok(paths.linked.has(fs.realpathSync(outside)), 'the real folder behind the link is watched');
  // The watcher reports real paths; they map back to the listed ones.
  assert.is(paths.canonical(real), path.join(base, '-c', 's3.jsonl'));
  assert.is(paths.canonical(path.join(base, '-d', 's3.jsonl')), path.join(base, '-c', 's3.jsonl'));
  const fresh = put(path.join(outside, 's4.jsonl'));
  assert.is(paths.canonical(fresh), path.join(base, '-c', 's4.jsonl'), 'a new file in a linked folder');
  assert.equal((await paths.list([base])).map((f) => path.relative(base, f.path)), ['-a/s1.jsonl', '-a/self.jsonl', '-c/s3.jsonl', '-c/s4.jsonl'], 'a later listing agrees');
});

Roles.run();
Meta.run();
Listing('a big folder is stat\'ed a slice at a time: the event loop turns while 2,500 transcripts are listed', async () => {
  const base = path.join(root, 'big', 'projects');
  const names = Array.from({ length: 2500 }, (_, i) => `s${String(i).padStart(4, '0')}.jsonl`);
  for (const name of names) put(path.join(base, '-a', name));
  // Entries that are already there: without the slices nothing but microtasks would run until the listing ends.
  const listed = new Map<string, FolderEntry[]>([[base, [{ name: '-a', kind: 'dir' }]], [path.join(base, '-a'), names.map((name) => ({ name, kind: 'file' }))]]);
  const folders = (dirs: readonly string[]) => Promise.resolve(dirs.map((d) => listed.get(d) ?? []));
  const loop = countTurns();
  const found = await new TranscriptPaths().list([base], folders);
  loop.stop();
  assert.is(found.length, 2500);
  assert.equal(found.map((f) => path.basename(f.path)), names, 'in name order');
  assert.ok(loop.turns >= 2, `the event loop turned ${loop.turns} times during the listing`);
});

Listing('many folders are read a run at a time, each as readFolder reads it: the event loop turns between the runs', async () => {
  const base = path.join(root, 'many');
  const dirs = Array.from({ length: 300 }, (_, i) => path.join(base, `-p${String(i).padStart(3, '0')}`));
  dirs.forEach((d, i) => {
    put(path.join(d, `s${i}.jsonl`));
    put(path.join(d, 'notes.txt'));
    fs.mkdirSync(path.join(d, `s${i}`, 'subagents'), { recursive: true });
    put(path.join(d, '.hidden.jsonl.icloud'));
    fs.mkdirSync(path.join(d, '.stversions'), { recursive: true });
  });
  const gone = path.join(base, 'gone');
  const file = put(path.join(base, 'a-file.jsonl'));
  const unreadable: string[] = [];
  const loop = countTurns();
  const read = await readFolders([...dirs, gone, file], (dir, code) => unreadable.push(`${dir} ${code}`));
  loop.stop();
  assert.equal(read.slice(0, 300), dirs.map((d) => readFolder(d)!), 'the entries readFolder reads');
  assert.equal(read[7], [{ name: 's7', kind: 'dir' }, { name: 's7.jsonl', kind: 'file' }], 'in name order, hidden names and other files left out');
  assert.equal(read.slice(300), [[], []], 'a folder gone or not a folder: no entries');
  assert.equal(unreadable, [], 'and nothing unreadable to report for them');
  assert.ok(loop.turns >= 3, `the event loop turned ${loop.turns} times while 300 folders were read`);
});

Listing.run();
