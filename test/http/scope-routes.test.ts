// `repository=` on the data routes (overview, insights, projects, monthly) against a real server: a repository's folders
// summed, beside `project=`, cached apart, and 400 `Invalid repository` for one no folder belongs to.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ApiError, Insights, Monthly, Overview, ProjectRow, Receipt } from '../../src/shared/api-types.ts';
import { repositoryOf } from '../../src/ingest/repository.ts';
import { usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { ingestFile, sessionRole, startServer, type TestServer } from '../helpers/server.ts';

const NOW = Date.UTC(2026, 0, 10, 12);
const REPO = '/srv/app';
const FOLDERS = { '-srv-app': REPO, '-srv-app--claude-worktrees-w1': `${REPO}/.claude/worktrees/w1`, '-srv-other': '/srv/other' };
let s: TestServer;

const Routes = suite('repository scope routes');
Routes.before(async () => {
  s = await startServer({ now: () => NOW });
  let n = 0;
  for (const [project, cwd] of Object.entries(FOLDERS)) {
    const session = `s-${project}`;
    const lines = [1, 2].map((k) => usageLine({
      sessionId: session, cwd, messageId: `m${++n}`, requestId: `r${n}`, output: 100 * n, tools: ['Read'],
      timestamp: new Date(Date.UTC(2026, 0, 8 + k, 10, n)).toISOString(),
    }));
    ingestFile(s.index, writeJsonl(path.join(s.config.projectsDirs[0]!, project, `${session}.jsonl`), lines), sessionRole(project, session));
  }
  // As the pipeline does once per folder.
  for (const { project, cwd } of s.index.unresolvedRepositories()) s.index.setRepository(project, repositoryOf(cwd));
});
Routes.after(() => s.close());

const get = async <T>(url: string) => {
  const r = await s.request(url);
  assert.is(r.status, 200, `${url}: ${r.text}`);
  return r.json<T>();
};
const repo = `repository=${encodeURIComponent(REPO)}`;

Routes('overview, insights and projects sum the repository\'s folders and leave the others out', async () => {
  const rows = await get<ProjectRow[]>('/api/projects');
  const inRepo = rows.filter((r) => r.repository.id === REPO);
  assert.equal(inRepo.map((r) => r.id).sort(), ['-srv-app', '-srv-app--claude-worktrees-w1']);

  const o = await get<Overview>(`/api/overview?range=7&${repo}`);
  assert.is(o.repository, REPO);
  assert.is(o.project, null);
  assert.equal([o.totals.projects, o.totals.sessions, o.totals.messages, o.totals.outputTokens], [2, 2, 4, 100 + 200 + 300 + 400]);
  const all = await get<Overview>('/api/overview?range=7');
  assert.equal([all.totals.messages, all.repository], [6, null]);
  assert.ok(Math.abs(o.totals.cost - inRepo.reduce((a, r) => a + r.cost, 0)) < 1e-12);
  assert.equal(o.projects.map((p) => p.id).sort(), ['-srv-app', '-srv-app--claude-worktrees-w1']);

  const i = await get<Insights>(`/api/insights?range=7&${repo}`);
  assert.is(i.repository, REPO);
  assert.is(i.tokenComposition.outputTokens, 1000);
  assert.equal(i.topTools, [{ name: 'Read', count: 4 }]);
  assert.is((await get<Insights>('/api/insights?range=7')).tokenComposition.outputTokens, 100 + 200 + 300 + 400 + 500 + 600);

  const scoped = await get<ProjectRow[]>(`/api/projects?${repo}`);
  assert.equal(scoped, inRepo);

  // The receipt of the repository explains its cost card: its folders' messages only, to the cent.
  const r = await get<Receipt>(`/api/receipt?range=7&${repo}`);
  assert.equal([r.repository, r.project, r.messages, r.mismatch], [REPO, null, 4, null]);
  assert.ok(r.total > 0 && Math.abs(r.total - o.totals.cost) < 1e-12, `${r.total} vs ${o.totals.cost}`);
  assert.is(r.lines.reduce((n, l) => n + l.items.find((i) => i.kind === 'output')!.tokens, 0), 1000);
});

Routes('with project=, the intersection', async () => {
  const one = await get<Overview>(`/api/overview?range=7&${repo}&project=-srv-app`);
  assert.equal([one.project, one.repository, one.totals.messages, one.totals.outputTokens], ['-srv-app', REPO, 2, 300]);
  const none = await get<Overview>(`/api/overview?range=7&${repo}&project=-srv-other`);
  assert.equal([none.totals.messages, none.projects], [0, []]);
});

Routes('an unknown repository is 400 Invalid repository; a folder id or a path too long too', async () => {
  for (const q of ['repository=%2Fnowhere', 'repository=-srv-app', `repository=/${'a'.repeat(4096)}`]) {
    for (const route of ['/api/overview', '/api/insights', '/api/projects', '/api/receipt']) {
      const r = await s.request(`${route}?${q}`);
      assert.is(r.status, 400, `${route}?${q.slice(0, 40)}`);
      assert.equal(r.json<ApiError>(), { error: 'Invalid repository' });
    }
  }
  // ignored where it does not apply, as project= is
  assert.is((await s.request(`/api/projects/-srv-other/sessions?repository=%2Fnowhere`)).status, 200);
});

Routes('the monthly table sums the repository\'s folders too', async () => {
  const o = await get<Overview>(`/api/overview?range=all&${repo}`);
  const m = await get<Monthly>(`/api/monthly?${repo}`);
  assert.equal(m.months.map((x) => [x.month, x.messages]), [['2026-01', 4]]);
  assert.ok(Math.abs(m.months[0]!.cost - o.totals.cost) < 1e-12);
  assert.is((await get<Monthly>('/api/monthly')).months[0]!.messages, 6);
});

Routes.run();
