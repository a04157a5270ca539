// GET /api/sessions/:id over the workflow fixture (test/fixtures/workflows): the workflow runs and the plain subagents
// add up, in cost, messages and every token kind, to the session's subagent messages, and with the session's own
// messages to its totals; each run to the messages of its agents.
process.env.TZ = 'UTC';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { SessionDetail, SessionMessage, Tokens } from '../../src/shared/api-types.ts';
import type { IndexDb } from '../../src/index-db/types.ts';
import { ROOT } from '../helpers/paths.ts';
import { indexDir } from '../helpers/pipeline.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const SID = 'b7e2c1a4-6f3d-4c2e-9a1b-0d5e8f7c3a21';
const RUN_OF_AGENT: Record<string, string> = { b1: 'wf_7c1e4a', b2: 'wf_7c1e4a', c1: 'wf_9d0422', c2: 'wf_9d0422' };

interface Sum extends Tokens { cost: number; messages: number }
const zero = (): Sum => ({ cost: 0, messages: 0, inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, totalTokens: 0 });
function add(s: Sum, t: Tokens & { cost: number }, messages: number): void {
  s.cost += t.cost;
  s.messages += messages;
  s.inputTokens += t.inputTokens;
  s.outputTokens += t.outputTokens;
  s.cacheCreationTokens += t.cacheCreationTokens;
  s.cacheReadTokens += t.cacheReadTokens;
  s.totalTokens += t.totalTokens;
}
const ofMessages = (ms: SessionMessage[]): Sum => {
  const s = zero();
  for (const m of ms) add(s, m, 1);
  return s;
};
function same(a: Sum, b: Sum, what: string): void {
  assert.ok(Math.abs(a.cost - b.cost) < 1e-12, `${what}: cost ${a.cost} vs ${b.cost}`);
  assert.equal({ ...a, cost: 0 }, { ...b, cost: 0 }, what);
}

let s: TestServer;
let index: IndexDb;
const t = suite('session workflows');
t.before(async () => {
  index = await indexDir(path.join(ROOT, 'test/fixtures/workflows/projects'));
  s = await startServer({ index });
});
t.after(async () => {
  await s.close();
  index.close();
});

t('the runs and the plain subagents add up to the session\'s subagent usage, each run to its agents\' messages', async () => {
  const r = await s.request(`/api/sessions/${SID}?range=all`);
  assert.is(r.status, 200, r.text);
  const d = r.json<SessionDetail>();
  assert.equal(d.workflows.map((w) => [w.runId, w.agents, w.messages]), [['wf_7c1e4a', 2, 2], ['wf_9d0422', 2, 3]]);

  const groups = zero();
  for (const w of d.workflows) add(groups, w, w.messages);
  for (const a of d.subagents) {
    groups.cost += a.cost;
    groups.messages += a.messages;
  }
  const sub = d.messages.filter((m) => m.subagent);
  const plain = sub.filter((m) => !RUN_OF_AGENT[m.subagent!.agentId]);
  // plain subagents carry no tokens in the API: take theirs from their messages
  const tokens = ofMessages(plain);
  add(groups, { ...tokens, cost: 0 }, 0);
  same(groups, ofMessages(sub), 'runs + plain subagents = subagent messages');

  for (const w of d.workflows) {
    const own = ofMessages(sub.filter((m) => RUN_OF_AGENT[m.subagent!.agentId] === w.runId));
    const run = zero();
    add(run, w, w.messages);
    same(run, own, w.runId);
    assert.is(w.firstActivity, sub.filter((m) => RUN_OF_AGENT[m.subagent!.agentId] === w.runId)[0]!.timestamp, `${w.runId} first`);
  }
  const all = ofMessages(d.messages.filter((m) => !m.subagent));
  add(all, { ...ofMessages(sub), cost: ofMessages(sub).cost }, sub.length);
  same(all, { cost: d.cost, messages: d.messageCount, inputTokens: d.inputTokens, outputTokens: d.outputTokens,
    cacheCreationTokens: d.cacheCreationTokens, cacheReadTokens: d.cacheReadTokens, totalTokens: d.totalTokens }, 'the session\'s totals');
});

t('the runs are the session\'s over all time, whatever the range; an unknown session is still a 404', async () => {
  const r = await s.request(`/api/sessions/${SID}?range=7`);
  assert.is(r.status, 200, r.text);
  const d = r.json<SessionDetail>();
  assert.is(d.inRange, null, 'the fixture\'s day is outside the last 7 days');
  assert.equal(d.workflows.map((w) => [w.runId, w.messages]), [['wf_7c1e4a', 2], ['wf_9d0422', 3]]);
  assert.is((await s.request('/api/sessions/no-such-session?range=all')).status, 404);
});

t.run();
