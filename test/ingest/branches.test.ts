// Cost per git branch (decisions.md "Branch"), through the real pipeline: each usage entry keeps its line's
// gitBranch ("" or missing: none, HEAD: detached); the project's sessions answer carries the branches and each
// session row the names of its own.
process.env.TZ = 'UTC';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import type { IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { indexDir } from '../helpers/pipeline.ts';

const scope = (fromMs: number, toMs: number): QueryScope => ({
  range: { from: '', to: '', fromMs, toMs, bucket: 'day', kind: 'custom', days: null },
  project: null,
  now: toMs,
});
const allTime = scope(0, Date.UTC(2100, 0, 1));

const indexOf = (projects: string): Promise<IndexDb> => indexDir(projects);

let n = 0;
const on = (sessionId: string, branch: string | undefined, output: number, day = 2) => {
  n++;
  const line = usageLine({ sessionId, messageId: `m${n}`, requestId: `r${n}`, output, timestamp: `2026-01-0${day}T10:00:00.000Z` });
  return branch === undefined ? line : { ...line, gitBranch: branch };
};

const Branches = suite('branches');

Branches('cost per branch and the branches of each session', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const project = path.join(dir, 'projects/-home-dev-proj');
    writeJsonl(path.join(project, 'a.jsonl'), [on('a', 'main', 200), on('a', 'feature/x', 1000), on('a', 'feature/x', 1000, 3)]);
    writeJsonl(path.join(project, 'b.jsonl'), [on('b', 'feature/x', 10), on('b', '', 50), on('b', undefined, 50), on('b', 'HEAD', 20)]);
    const index = await indexOf(path.join(dir, 'projects'));
    const ps = index.queries.projectSessions('-home-dev-proj', allTime)!;
    assert.equal(ps.branches.map((b) => [b.branch, b.outputTokens, b.messages, b.sessions]), [
      ['feature/x', 2010, 3, 2],
      ['main', 200, 1, 1],
      [null, 100, 2, 1],
      ['HEAD', 20, 1, 1],
    ]);
    const x = ps.branches[0]!;
    assert.is(x.lastActivity, '2026-01-03T10:00:00.000Z');
    assert.is(x.totalTokens, x.inputTokens + x.outputTokens + x.cacheCreationTokens + x.cacheReadTokens);
    const sum = ps.branches.reduce((a, b) => a + b.cost, 0);
    assert.ok(Math.abs(sum - ps.totals.cost) < 1e-12, 'the branches add up to the project');
    const rows = Object.fromEntries(ps.sessions.map((s) => [s.id, s.branches]));
    assert.equal(rows, { a: ['feature/x', 'main'], b: ['HEAD', 'feature/x'] });

    const day2 = index.queries.projectSessions('-home-dev-proj', scope(Date.UTC(2026, 0, 2), Date.UTC(2026, 0, 3)))!;
    assert.equal(day2.branches.find((b) => b.branch === 'feature/x')!.messages, 2, 'only the range counts');
    index.close();
  } finally {
    cleanup();
  }
});

Branches('the worktrees fixture: one branch per worktree, master in the main checkout', async () => {
  const index = await indexOf(new URL('../../../shared/fixtures/transcripts/worktrees/projects', import.meta.url).pathname);
  const gqc = index.queries.projectSessions('-home-marco-projects-spotter-worktrees-spotter-gqc', allTime)!;
  assert.equal(gqc.branches.map((b) => [b.branch, b.sessions]), [['spotter-gqc', 1]]);
  assert.ok(Math.abs(gqc.branches[0]!.cost - gqc.totals.cost) < 1e-12);
  const main = index.queries.projectSessions('-home-marco-projects-spotter', allTime)!;
  assert.equal(main.branches.map((b) => [b.branch, b.sessions]), [['master', 3]]);
  assert.ok(main.sessions.every((s) => s.branches.join() === 'master'));
  index.close();
});

Branches.run();
