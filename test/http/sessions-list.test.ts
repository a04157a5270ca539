// Issue 36, "find the expensive thing": GET /api/sessions lists the range's sessions across projects, the dearest
// first, with project, machine, branches, models by cost and title; Warmup side calls are counted apart, and the
// listed sessions plus the Warmup ones add up to the overview's total. Past the list's limit, the listed sessions still
// carry their branches, those of usage in a project-root subagent file too, as a project's sessions answer has them.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Overview, ProjectSessions, SessionList } from '../../src/shared/api-types.ts';
import { SESSION_LIST_LIMIT } from '../../src/index-db/queries/sessions.ts';
import { FEW_SESSIONS } from '../../src/index-db/queries/session-rows.ts';
import { usageLine, userLine, writeJsonl } from '../helpers/jsonl.ts';
import { ingestFile, sessionRole, startServer, type TestServer } from '../helpers/server.ts';

const HAIKU = 'claude-haiku-4-5-20251001';
const SONNET = 'claude-sonnet-4-5-20250929';
let s: TestServer;
const t = suite('sessions across projects');
t.before(async () => {
  s = await startServer();
  const root = s.config.projectsDirs[0]!;
  const ts = new Date(Date.now() - 3_600_000).toISOString();
  let n = 0;
  const usage = (sid: string, model: string, usd: number, branch = 'main') =>
    usageLine({ sessionId: sid, model, messageId: `m${++n}`, requestId: `r${n}`, timestamp: ts, extra: { costUSD: usd, gitBranch: branch } });
  const session = (project: string, sid: string, ...lines: Record<string, unknown>[]) =>
    ingestFile(s.index, writeJsonl(path.join(root, project, `${sid}.jsonl`), lines), sessionRole(project, sid));
  session('-home-dev-a', 'cheap', userLine('rename a variable', { sessionId: 'cheap', timestamp: ts }), usage('cheap', HAIKU, 0.5));
  session('-home-dev-b', 'dear', userLine('port the parser to Rust', { sessionId: 'dear', timestamp: ts }),
    usage('dear', HAIKU, 2, 'rust'), usage('dear', SONNET, 30, 'rust'));
  session('-home-dev-a', 'middle', userLine('write the docs', { sessionId: 'middle', timestamp: ts }), usage('middle', SONNET, 4));
  // A Warmup side call: the subagent file of a session with no prompt of its own.
  const warm = writeJsonl(path.join(root, '-home-dev-a', 'warm', 'subagents', 'agent-w1.jsonl'), [
    userLine('Warmup', { sessionId: 'warm', isSidechain: true, agentId: 'w1', timestamp: ts }),
    usageLine({ sessionId: 'warm', model: HAIKU, messageId: 'mw', requestId: 'rw', timestamp: ts, extra: { costUSD: 0.25, isSidechain: true, agentId: 'w1' } }),
  ]);
  ingestFile(s.index, warm, { project: '-home-dev-a', session: 'warm', agentId: 'w1', agentType: null, agentDescription: null });
});
t.after(() => s.close());

t('the dearest first, with project, machine, branches, models by cost and title; Warmup counted apart', async () => {
  const r = await s.request('/api/sessions?range=7');
  assert.is(r.status, 200, r.text);
  const list = r.json<SessionList>();
  assert.equal(list.sessions.map((x) => [x.id, x.project.id, x.title]), [
    ['dear', '-home-dev-b', 'port the parser to Rust'],
    ['middle', '-home-dev-a', 'write the docs'],
    ['cheap', '-home-dev-a', 'rename a variable'],
  ]);
  const dear = list.sessions[0]!;
  assert.equal(dear.models, [SONNET, HAIKU]);
  assert.equal(dear.branches, ['rust']);
  assert.is(dear.machine, s.config.machine);
  assert.is(dear.cost, 32);
  assert.equal([list.total, list.warmup], [3, { sessions: 1, cost: 0.25 }]);
  const overview = (await s.request('/api/overview?range=7')).json<Overview>();
  const listed = list.sessions.reduce((sum, x) => sum + x.cost, 0);
  assert.ok(Math.abs(listed + list.warmup.cost - overview.totals.cost) < 1e-9, `${listed} + ${list.warmup.cost} vs ${overview.totals.cost}`);
});

t('a project scope lists its sessions only; an unknown project lists none', async () => {
  const a = (await s.request('/api/sessions?range=7&project=-home-dev-a')).json<SessionList>();
  assert.equal(a.sessions.map((x) => x.id), ['middle', 'cheap']);
  assert.is(a.project, '-home-dev-a');
  const none = (await s.request('/api/sessions?range=7&project=-home-dev-zzz')).json<SessionList>();
  assert.equal([none.sessions, none.total], [[], 0]);
});

t('more sessions than the list shows (and than are looked up by id): the listed ones carry their titles and branches', async () => {
  const root = s.config.projectsDirs[0]!;
  // A day of its own, 40 days back, so the sessions above stay out of it.
  const day = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
  const ts = `${day}T12:00:00.000Z`;
  const project = '-home-dev-many';
  let n = 0;
  const usage = (sid: string, usd: number, branch: string, extra: Record<string, unknown> = {}) =>
    usageLine({ sessionId: sid, model: HAIKU, messageId: `many${++n}`, requestId: `rm${n}`, timestamp: ts, extra: { costUSD: usd, gitBranch: branch, ...extra } });
  // More than FEW_SESSIONS: the titles come from one pass over the folder's sessions (the first test's three, by id).
  const sessions = Math.max(SESSION_LIST_LIMIT, FEW_SESSIONS) + 5;
  for (let i = 0; i < sessions; i++) {
    const sid = `s${String(i).padStart(4, '0')}`;
    ingestFile(s.index, writeJsonl(path.join(root, project, `${sid}.jsonl`), [usage(sid, 1 + i / 100, `b${i}`)]), sessionRole(project, sid));
  }
  // The dearest: a session whose subagent wrote into a project-root agent file (2.0.x), which names the session per line
  // and has no session of its own; that usage is on another branch, and dearer.
  ingestFile(s.index, writeJsonl(path.join(root, project, 'top.jsonl'), [usage('top', 50, 'main-b'), usage('top', 1, 'feature')]), sessionRole(project, 'top'));
  ingestFile(s.index, writeJsonl(path.join(root, project, 'agent-a7.jsonl'), [usage('top', 60, 'agent-b', { isSidechain: true, agentId: 'a7' })]),
    { project, session: null, agentId: 'a7', agentType: null, agentDescription: null });
  await s.request('/api/refresh', { method: 'POST' });
  const list = (await s.request(`/api/sessions?from=${day}&to=${day}`)).json<SessionList>();
  assert.is(list.total, sessions + 1);
  assert.is(list.sessions.length, SESSION_LIST_LIMIT);
  assert.equal(list.sessions[0]!.id, 'top');
  assert.equal(list.sessions[0]!.branches, ['agent-b', 'main-b', 'feature'], 'every branch of its usage, the dearest first');
  const cheapestListed = sessions - SESSION_LIST_LIMIT + 1;
  assert.equal(list.sessions.slice(1).map((x) => x.branches), Array.from({ length: SESSION_LIST_LIMIT - 1 }, (_, k) => [`b${sessions - 1 - k}`]));
  assert.is(list.sessions.at(-1)!.id, `s${String(cheapestListed).padStart(4, '0')}`, 'the cheapest ones left out');
  // The same branches as the project's own answer, which reads every message of the folder.
  const own = (await s.request(`/api/projects/${project}/sessions?from=${day}&to=${day}`)).json<ProjectSessions>();
  const ownBranches = new Map(own.sessions.map((x) => [x.id, x.branches]));
  for (const x of list.sessions) assert.equal(x.branches, ownBranches.get(x.id), x.id);
});

t.run();
