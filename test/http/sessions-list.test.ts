// Issue 36, "find the expensive thing": GET /api/sessions lists the range's sessions across projects, the dearest
// first, with project, machine, branches, models by cost and title; Warmup side calls are counted apart, and the
// listed sessions plus the Warmup ones add up to the overview's total.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Overview, SessionList } from '../../src/shared/api-types.ts';
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

t.run();
