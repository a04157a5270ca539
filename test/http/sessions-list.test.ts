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

t('past the limit, the last listed session is the one the rows put there, not SQLite\'s sum; Warmup still counted', async () => {
  const root = s.config.projectsDirs[0]!;
  const day = new Date(Date.now() - 50 * 86_400_000).toISOString().slice(0, 10);
  const at = (minute: number) => `${day}T12:${String(minute).padStart(2, '0')}:00.000Z`;
  const project = '-home-dev-near';
  let n = 0;
  const usage = (sid: string, usd: number, model = HAIKU, minute = 0, extra: Record<string, unknown> = {}) =>
    usageLine({ sessionId: sid, model, messageId: `near${++n}`, requestId: `rn${n}`, timestamp: at(minute), extra: { costUSD: usd, ...extra } });
  const session = (sid: string, ...lines: Record<string, unknown>[]) =>
    ingestFile(s.index, writeJsonl(path.join(root, project, `${sid}.jsonl`), lines), sessionRole(project, sid));
  for (let i = 0; i < SESSION_LIST_LIMIT - 1; i++) session(`top${i}`, usage(`top${i}`, 10));
  for (let i = 0; i < 20; i++) session(`low${i}`, usage(`low${i}`, 0.01));
  // Its three models' costs summed in the rows' order: 0.6000000000000001. SQLite sums them to 0.6, below 'single'.
  session('three', usage('three', 0.1, HAIKU, 5), usage('three', 0.2, SONNET, 5), usage('three', 0.3, 'claude-opus-4-1-20250805', 5));
  // The same cost to the last bit in both sums; the same cost as 'three' by the rows, and an older last activity.
  session('single', usage('single', 0.6000000000000001, HAIKU, 1));
  const warm = writeJsonl(path.join(root, project, 'warm2', 'subagents', 'agent-w2.jsonl'), [
    userLine('Warmup', { sessionId: 'warm2', isSidechain: true, agentId: 'w2', timestamp: at(0) }),
    usage('warm2', 0.125, HAIKU, 0, { isSidechain: true, agentId: 'w2' }),
  ]);
  ingestFile(s.index, warm, { project, session: 'warm2', agentId: 'w2', agentType: null, agentDescription: null });
  await s.request('/api/refresh', { method: 'POST' });
  const list = (await s.request(`/api/sessions?from=${day}&to=${day}`)).json<SessionList>();
  assert.is(list.total, SESSION_LIST_LIMIT - 1 + 20 + 2);
  assert.is(list.sessions.length, SESSION_LIST_LIMIT);
  const last = list.sessions.at(-1)!;
  assert.equal([last.id, last.cost], ['three', 0.6000000000000001], 'a tie on cost goes to the later one');
  assert.ok(!list.sessions.some((x) => x.id === 'single'));
  assert.equal(list.warmup, { sessions: 1, cost: 0.125 });
  // The project's own answer reads every row: the same order.
  const own = (await s.request(`/api/sessions?from=${day}&to=${day}&project=${project}`)).json<SessionList>();
  assert.equal(own.sessions.map((x) => x.id), list.sessions.map((x) => x.id));
});

t.run();
