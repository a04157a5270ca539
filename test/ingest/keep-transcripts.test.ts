// --keep-transcripts' keeper over real files: on another file system (a link that fails with EXDEV) a copy that follows
// the appends, a rewrite in place moved aside with its last content, nothing ever deleted; a folder that cannot be
// written is one log line (not one per transcript), the transcripts untouched, and keeping resumes once it can.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { createKeeper, keptDirName, keptStats } from '../../src/ingest/keep-transcripts.ts';
import { tempDir } from '../helpers/jsonl.ts';

const Keep = suite('keep transcripts');

function setup() {
  const tmp = tempDir('cost-keep-');
  const projects = path.join(tmp.dir, 'claude', 'projects');
  const file = path.join(projects, '-p', 's.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const keptDir = path.join(tmp.dir, 'kept');
  const kept = path.join(keptDir, keptDirName(path.join(tmp.dir, 'claude')), 'projects', '-p', 's.jsonl');
  const logs: string[] = [];
  return { tmp, projects, file, keptDir, kept, logs, log: (m: string) => logs.push(m) };
}

const exdev = (): never => {
  throw Object.assign(new Error('EXDEV: cross-device link not permitted'), { code: 'EXDEV' });
};

Keep('across file systems: a copy that follows the appends; a rewrite keeps its last content aside', () => {
  const s = setup();
  try {
    const keeper = createKeeper({ dir: s.keptDir, projectsDirs: [s.projects], log: s.log, link: exdev, now: () => 42 });
    fs.writeFileSync(s.file, 'line 1\n');
    keeper.keep(s.file);
    assert.is(fs.readFileSync(s.kept, 'utf8'), 'line 1\n');
    assert.is.not(fs.statSync(s.kept).ino, fs.statSync(s.file).ino, 'a copy');
    fs.appendFileSync(s.file, 'line 2\n');
    keeper.keep(s.file);
    assert.is(fs.readFileSync(s.kept, 'utf8'), 'line 1\nline 2\n');
    keeper.keep(s.file);
    assert.is(fs.readFileSync(s.kept, 'utf8'), 'line 1\nline 2\n', 'nothing new, nothing appended');
    // Rewritten in place, longer than before but not starting with the kept bytes.
    fs.writeFileSync(s.file, 'other 1\nother 2\nother 3\n');
    keeper.keep(s.file);
    assert.is(fs.readFileSync(s.kept, 'utf8'), 'other 1\nother 2\nother 3\n');
    assert.is(fs.readFileSync(path.join(path.dirname(s.kept), '.s.jsonl.replaced-42'), 'utf8'), 'line 1\nline 2\n');
    fs.rmSync(s.file);
    keeper.keep(s.file);
    assert.is(fs.readFileSync(s.kept, 'utf8'), 'other 1\nother 2\nother 3\n', 'a deleted transcript stays kept');
    assert.equal(keptStats(s.keptDir), { files: 2, bytes: 24 + 14 });
    assert.equal(s.logs, []);
  } finally {
    s.tmp.cleanup();
  }
});

Keep('same file system: a hard link; a file outside the projects folders is not kept', () => {
  const s = setup();
  try {
    const keeper = createKeeper({ dir: s.keptDir, projectsDirs: [s.projects], log: s.log });
    fs.writeFileSync(s.file, 'a\n');
    keeper.keep(s.file);
    assert.is(fs.statSync(s.kept).ino, fs.statSync(s.file).ino);
    const outside = path.join(s.tmp.dir, 'elsewhere.jsonl');
    fs.writeFileSync(outside, 'x\n');
    keeper.keep(outside);
    assert.equal(keptStats(s.keptDir), { files: 1, bytes: 2 });
  } finally {
    s.tmp.cleanup();
  }
});

Keep('a folder that cannot be written: one line, the transcripts untouched, keeping resumes when it can', async () => {
  const s = setup();
  try {
    fs.mkdirSync(s.keptDir);
    fs.chmodSync(s.keptDir, 0o500);
    const keeper = createKeeper({ dir: s.keptDir, projectsDirs: [s.projects], log: s.log, link: exdev });
    const files = ['a', 'b', 'c'].map((n) => path.join(s.projects, '-p', `${n}.jsonl`));
    for (const f of files) fs.writeFileSync(f, `${f}\n`);
    if (process.getuid?.() === 0) {
      // root writes a read-only folder anyway: the refusal comes from a file where the folder of a project should be.
      fs.chmodSync(s.keptDir, 0o700);
      fs.mkdirSync(path.join(s.keptDir, keptDirName(path.join(s.tmp.dir, 'claude')), 'projects'), { recursive: true });
      fs.writeFileSync(path.join(s.keptDir, keptDirName(path.join(s.tmp.dir, 'claude')), 'projects', '-p'), 'in the way');
    }
    await keeper.keepAll(files);
    assert.is(s.logs.length, 1, s.logs.join('\n'));
    assert.match(s.logs[0]!, /cannot keep transcripts in .*untouched/);
    for (const f of files) assert.is(fs.readFileSync(f, 'utf8'), `${f}\n`);
    fs.chmodSync(s.keptDir, 0o700);
    fs.rmSync(path.join(s.keptDir, keptDirName(path.join(s.tmp.dir, 'claude')), 'projects', '-p'), { force: true });
    await keeper.keepAll(files);
    assert.equal(keptStats(s.keptDir).files, 3);
  } finally {
    fs.chmodSync(s.keptDir, 0o700);
    s.tmp.cleanup();
  }
});

Keep('a config dir mirrors under its name without leading dots and a hash of its path', () => {
  assert.match(keptDirName('/home/me/.claude'), /^claude-[0-9a-f]{8}$/);
  assert.is.not(keptDirName('/a/.claude'), keptDirName('/b/.claude'));
  assert.match(keptDirName('/'), /^root-[0-9a-f]{8}$/);
});

Keep.run();
