// A report's stat thread (src/cli/stat-thread.ts): the walk handing its transcripts to a worker thread finds what the
// walk stat'ing them itself finds (paths, sizes, mtimes, order; links, subagents, a vanished link's target, a file
// that cannot be stat'ed), tells when it has handed them over, and a thread that cannot start costs nothing but the
// speed: the main thread stats them itself.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { listTranscripts, readFolders } from '../../src/main/discovery.ts';
import { startStatThread } from '../../src/cli/stat-thread.ts';
import { tempDir } from '../helpers/jsonl.ts';

const { dir: root } = tempDir('stat-thread-');
const projects = path.join(root, 'projects');

function put(p: string, text: string): void {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
}

for (let p = 0; p < 5; p++) {
  for (let s = 0; s < 40; s++) {
    put(path.join(projects, `-home-u-p${p}`, `s${s}.jsonl`), 'x'.repeat(p * 40 + s + 1));
    if (s % 4 === 0) put(path.join(projects, `-home-u-p${p}`, `s${s}`, 'subagents', `agent-a${s}.jsonl`), 'y'.repeat(s + 7));
  }
}
// A linked transcript (stat'ed by the walk as it meets the link) and a linked folder (its files are batched).
fs.symlinkSync(path.join(projects, '-home-u-p0', 's1.jsonl'), path.join(projects, '-home-u-p1', 'linked.jsonl'));
fs.mkdirSync(path.join(root, 'elsewhere', 'sync'), { recursive: true });
put(path.join(root, 'elsewhere', 'sync', 's-far.jsonl'), 'far\n');
fs.symlinkSync(path.join(root, 'elsewhere', 'sync'), path.join(projects, '-home-u-far'));

const t = suite('stat thread');

t('the thread finds what the walk stat\'ing on its own thread finds, in the same order', async () => {
  const own = await listTranscripts([projects]);
  assert.ok(own.length > 250, `${own.length} transcripts`);
  const thread = startStatThread();
  let handedOver = false;
  void thread.handedOver.then(() => (handedOver = true));
  const listing = listTranscripts([projects], readFolders, thread.stats);
  await thread.handedOver;
  assert.ok(handedOver);
  assert.equal(await listing, own);
});

t('a transcript that vanishes after its folder was listed is not found, and one that cannot be stat\'ed has zeros', async () => {
  const gone = path.join(projects, '-home-u-p2', 's3.jsonl');
  const looped = path.join(projects, '-home-u-p3', 's5.jsonl');
  const thread = startStatThread();
  const found = await listTranscripts([projects], async (dirs) => {
    const listed = await readFolders(dirs);
    // Listed as files, then changed before the thread stats them: one removed, one made a link to itself (ELOOP).
    if (fs.existsSync(gone)) {
      fs.rmSync(gone);
      fs.rmSync(looped);
      fs.symlinkSync(looped, looped);
    }
    return listed;
  }, thread.stats);
  assert.not.ok(found.some((f) => f.path === gone));
  assert.equal(found.find((f) => f.path === looped), { path: looped, size: 0, mtimeMs: 0 }, 'unreadable, not dropped');
  assert.equal(found, await listTranscripts([projects]));
  fs.rmSync(looped);
});

t('a thread that cannot start: the walk stats the transcripts itself', async () => {
  const thread = startStatThread(new URL('file:///nonexistent/stat-worker.cjs'));
  assert.equal(await listTranscripts([projects], readFolders, thread.stats), await listTranscripts([projects]));
});

t.run();
