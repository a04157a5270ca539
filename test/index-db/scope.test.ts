// Scopes as sets of project folders: a repository's scope over the whole index answers exactly what an index of
// that repository's folders alone answers, on every figure of overview, insights and projects (blocks included).
// In a :30 zone, so the partial UTC hours at a range's edges are read too.
process.env.TZ = 'Asia/Kolkata';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { parseRange } from '../../src/http/params.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { near } from '../helpers/near.ts';
import { indexDir } from '../helpers/pipeline.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = path.resolve(root, '../shared/fixtures/transcripts/worktrees/projects');
const NOW = Date.UTC(2026, 1, 12, 9, 30);
const WORKTREES = '/home/USER/projects/spotter';
const MAIN = '/home/marco/projects/spotter';

const indexOf = (projects: string): Promise<IndexDb> => indexDir(projects, { mode: 'calculate' });

const ranges = {
  days: parseRange({ from: '2026-02-10', to: '2026-02-12' }, 'all', NOW),
  today: parseRange({ range: 'today' }, 'all', NOW),
  rolling: parseRange({ range: '24h' }, 'all', NOW),
  all: parseRange({}, 'all', NOW),
};
const scope = (range: QueryScope['range'], project: string | null = null, repository: string | null = null): QueryScope => ({ range, project, repository, now: NOW });

const full = await indexOf(fixture);
const folders = (repo: string) => full.queries.projects(scope(ranges.all)).filter((p) => p.repository.id === repo).map((p) => p.id);
const { dir, cleanup } = tempDir();
for (const f of folders(WORKTREES)) fs.cpSync(path.join(fixture, f), path.join(dir, f), { recursive: true });
const alone = await indexOf(dir);

const Scope = suite('repository scope');
Scope.after(() => {
  full.close();
  alone.close();
  cleanup();
});

for (const [name, range] of Object.entries(ranges)) {
  Scope(`${name}: a repository's scope is the index of its folders alone (overview, insights, projects)`, () => {
    const o = full.queries.overview(scope(range, null, WORKTREES));
    near(o, alone.queries.overview(scope(range)));
    const i = full.queries.insights(scope(range, null, WORKTREES));
    near(i, alone.queries.insights(scope(range)));
    near(full.queries.projects(scope(range, null, WORKTREES)), alone.queries.projects(scope(range)));
  });
}

Scope('the scope holds several folders and leaves the rest out', () => {
  const o = full.queries.overview(scope(ranges.all, null, WORKTREES));
  const all = full.queries.overview(scope(ranges.all));
  assert.is(o.totals.projects, 7);
  assert.ok(o.totals.cost > 0 && o.totals.cost < all.totals.cost - 1e-6, `${o.totals.cost} of ${all.totals.cost}`);
  const main = full.queries.overview(scope(ranges.all, null, MAIN));
  near(o.totals.cost + main.totals.cost, all.totals.cost);
  near(o.totals.sessions + main.totals.sessions, all.totals.sessions);
  assert.ok(full.queries.insights(scope(ranges.all, null, WORKTREES)).blocks.length > 0);
});

Scope('a repository of one folder reads as that folder; project and repository together are their intersection', () => {
  const [folder] = folders(MAIN);
  for (const range of Object.values(ranges)) {
    near(full.queries.overview(scope(range, null, MAIN)), full.queries.overview(scope(range, folder!)));
    near(full.queries.insights(scope(range, null, MAIN)), full.queries.insights(scope(range, folder!)));
  }
  const [worktree] = folders(WORKTREES);
  const both = full.queries.overview(scope(ranges.all, worktree!, WORKTREES));
  near(both, full.queries.overview(scope(ranges.all, worktree!)));
  assert.is(both.totals.projects, 1);
  const none = full.queries.overview(scope(ranges.all, worktree!, MAIN));
  assert.equal([none.totals.cost, none.totals.messages, none.projects], [0, 0, []]);
  assert.equal(full.queries.projects(scope(ranges.all, worktree!, MAIN)), []);
  assert.is(full.queries.insights(scope(ranges.all, worktree!, MAIN)).blocks.length, 0);
});

Scope('knowsRepository: a main checkout path of a folder, nothing else', () => {
  assert.ok(full.queries.knowsRepository(WORKTREES));
  assert.ok(full.queries.knowsRepository(MAIN));
  assert.not.ok(full.queries.knowsRepository('/home/USER/projects'));
  assert.not.ok(full.queries.knowsRepository(folders(MAIN)[0]!), 'a folder id is no repository');
});

Scope.run();
