// Repositories (decisions.md "Repository"): each project folder belongs to the repository of its main checkout,
// resolved from its cwd on this machine's files, once per folder, through the real pipeline and HTTP route.
process.env.TZ = 'UTC';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import type { IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { repositoryOf } from '../../src/ingest/repository.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { indexDir } from '../helpers/pipeline.ts';

const allTime: QueryScope = {
  range: { from: '1970-01-01', to: '2100-01-01', fromMs: 0, toMs: Date.UTC(2100, 0, 1), bucket: 'day', kind: 'all', days: null },
  project: null,
  now: Date.UTC(2026, 0, 3),
};

const index = (projects: string, file = ':memory:'): Promise<IndexDb> => indexDir(projects, { file });

/** A main checkout at `repo` with a linked worktree at `wt` (`git worktree add` writes these two files). */
function linkedWorktree(repo: string, wt: string, name: string): void {
  fs.mkdirSync(path.join(repo, '.git/worktrees', name), { recursive: true });
  fs.writeFileSync(path.join(repo, '.git/worktrees', name, 'gitdir'), `${wt}/.git\n`);
  fs.mkdirSync(wt, { recursive: true });
  fs.writeFileSync(path.join(wt, '.git'), `gitdir: ${repo}/.git/worktrees/${name}\n`);
}

const Resolve = suite('repositoryOf');

Resolve('the rules in order, on real files', () => {
  const { dir, cleanup } = tempDir();
  try {
    const repo = path.join(dir, 'code/app');
    fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
    assert.is(repositoryOf(repo), repo, 'a main checkout is its own repository');
    assert.is(repositoryOf(`${repo}/.claude/worktrees/agent-a1b2`), repo, 'Claude Code\'s own worktrees');
    linkedWorktree(repo, path.join(dir, 'elsewhere/hotfix'), 'hotfix');
    assert.is(repositoryOf(path.join(dir, 'elsewhere/hotfix')), repo, 'a .git file whose gitdir exists here');
    // the .git file wins over the layout names: this worktree's folder name says "other-worktrees"
    linkedWorktree(repo, path.join(dir, 'other-worktrees/x'), 'x');
    assert.is(repositoryOf(path.join(dir, 'other-worktrees/x')), repo);
    // a gitdir that does not exist on this machine (a synced folder) is not trusted
    fs.mkdirSync(path.join(dir, 'loose'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'loose/.git'), 'gitdir: /nowhere/big/.git/worktrees/loose\n');
    assert.is(repositoryOf(path.join(dir, 'loose')), path.join(dir, 'loose'));
    assert.is(repositoryOf('/home/USER/projects/spotter-worktrees/spotter-gqc'), '/home/USER/projects/spotter', '<parent>/<repo>-worktrees/<name>');
    assert.is(repositoryOf('/srv/big/worktrees/feature-1'), '/srv/big', '<repo>/worktrees/<name>');
    assert.is(repositoryOf('/srv/big/worktrees/feature-1/'), '/srv/big', 'a trailing slash');
    assert.is(repositoryOf('C:\\code\\app\\.claude\\worktrees\\w1'), 'C:\\code\\app', 'Windows paths');
    assert.is(repositoryOf('/home/dev/plain'), '/home/dev/plain');
  } finally {
    cleanup();
  }
});
Resolve.run();

const Folders = suite('repositories of project folders');

Folders('crafted folders: Claude Code worktrees and a linked worktree group under their main checkout', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const repo = path.join(dir, 'code/app');
    fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
    linkedWorktree(repo, path.join(dir, 'wt/fix'), 'fix');
    const projects = path.join(dir, 'projects');
    const folder = (name: string, cwd: string, output: number, branch: string) =>
      writeJsonl(path.join(projects, name, `${name}-s.jsonl`), [{ ...usageLine({ sessionId: `${name}-s`, messageId: name, requestId: name, output, cwd }), gitBranch: branch }]);
    folder('main', repo, 100, 'main');
    folder('agent', `${repo}/.claude/worktrees/agent-1`, 200, 'worktree-agent-1');
    folder('fix', path.join(dir, 'wt/fix'), 300, 'fix/bug');
    folder('other', '/home/dev/other', 50, 'main');
    const idx = await index(projects, path.join(dir, 'index.db'));
    const rows = Object.fromEntries(idx.queries.projects(allTime).map((p) => [p.id, p.repository]));
    assert.equal(rows, {
      main: { id: repo, name: 'app' },
      agent: { id: repo, name: 'app' },
      fix: { id: repo, name: 'app' },
      other: { id: '/home/dev/other', name: 'other' },
    });
    const detail = idx.queries.repository(repo, allTime)!;
    assert.equal(detail.projects.map((p) => p.id).sort(), ['agent', 'fix', 'main']);
    const sum = detail.projects.reduce((a, p) => a + p.cost, 0);
    assert.ok(Math.abs(detail.totals.cost - sum) < 1e-12, 'the repository sums its folders');
    assert.is(detail.totals.outputTokens, 600);
    assert.is(detail.totals.sessions, 3);
    assert.equal(detail.branches.map((b) => b.branch), ['fix/bug', 'worktree-agent-1', 'main']);
    assert.is(idx.queries.repository('/nowhere', allTime), null);
    assert.is(idx.queries.projectSessions('fix', allTime)!.project.repository.id, repo);

    // Resolved once: a later change on disk does not move a folder that is already placed.
    fs.rmSync(path.join(dir, 'wt/fix/.git'));
    idx.close();
    const again = await index(projects, path.join(dir, 'index.db'));
    assert.is(again.queries.projects(allTime).find((p) => p.id === 'fix')!.repository.id, repo);
    again.close();
  } finally {
    cleanup();
  }
});

Folders('the worktrees fixture: six worktrees and the orphan under spotter; the main checkout, redacted apart, alone', async () => {
  const idx = await index(new URL('../../../shared/fixtures/transcripts/worktrees/projects', import.meta.url).pathname);
  const rows = idx.queries.projects(allTime);
  const byRepo = new Map<string, string[]>();
  for (const p of rows) byRepo.set(p.repository.id, [...(byRepo.get(p.repository.id) ?? []), p.name]);
  // PROVENANCE.md: the worktrees' cwds say /home/USER, the main checkout's /home/marco (redacted by the author)
  assert.equal(byRepo.get('/home/USER/projects/spotter')!.sort(), ['spotter-0rt', 'spotter-0zw', 'spotter-4te', 'spotter-a0y', 'spotter-dov', 'spotter-fum', 'spotter-gqc']);
  assert.equal(byRepo.get('/home/marco/projects/spotter'), ['spotter']);
  const detail = idx.queries.repository('/home/USER/projects/spotter', allTime)!;
  assert.is(detail.repository.name, 'spotter');
  assert.is(detail.branches.length, 7, 'one branch per worktree');
  const total = idx.queries.overview(allTime).totals.cost;
  const main = rows.find((p) => p.name === 'spotter')!.cost;
  assert.ok(Math.abs(detail.totals.cost + main - total) < 1e-9, 'the two repositories add up to the whole');
  idx.close();
});

Folders('folders an older index holds without a repository are resolved at the next start', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const projects = path.join(dir, 'projects');
    writeJsonl(path.join(projects, 'wt/s.jsonl'), [usageLine({ sessionId: 's', cwd: '/srv/big/worktrees/feature-1' })]);
    const file = path.join(dir, 'index.db');
    (await index(projects, file)).close();
    const Database = (await import('better-sqlite3')).default;
    const raw = new Database(file);
    raw.exec('UPDATE projects SET repo = NULL'); // as migration 002 leaves a folder indexed before it
    raw.close();
    const idx = await index(projects, file);
    assert.equal(idx.queries.projects(allTime)[0]!.repository, { id: '/srv/big', name: 'big' });
    idx.close();
  } finally {
    cleanup();
  }
});

Folders.run();
