// Workflow runs through the real pipeline: Claude Code writes a run's subagents as
// `<session>/subagents/workflows/wf_<id>/agent-*.jsonl` (0-byte files and `.meta.json` beside them included; the
// run's `journal.jsonl` holds no usage). Their usage is subagent usage of the session, grouped by run in the session
// detail; the journal is neither read nor counted. Also live: a run started while the watcher runs is picked up.
process.env.TZ = 'UTC';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import type { IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { appendJsonl, tempDir, usageLine, userLine, writeJsonl } from '../helpers/jsonl.ts';
import { ROOT } from '../helpers/paths.ts';
import { indexDir, startIndexing } from '../helpers/pipeline.ts';
import { waitFor } from '../helpers/wait.ts';

const FIXTURE = path.join(ROOT, 'test/fixtures/workflows/projects');
const SID = 'b7e2c1a4-6f3d-4c2e-9a1b-0d5e8f7c3a21';
const SESSION_DIR = path.join('-home-dev-flow', SID);

const allTime: QueryScope = {
  range: { from: '1970-01-01', to: '2100-01-01', fromMs: 0, toMs: Date.UTC(2100, 0, 1), bucket: 'day', kind: 'all', days: null },
  project: null,
  now: Date.UTC(2026, 10, 21),
};

const detail = (index: IndexDb) => index.queries.session(SID, allTime)!;

/** The cost of the session's messages of the given subagents, as the messages list gives each. */
const costOf = (index: IndexDb, agents: string[]): number =>
  detail(index).messages.filter((m) => m.subagent && agents.includes(m.subagent.agentId)).reduce((s, m) => s + m.cost, 0);

const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-12, `${what}: ${a} vs ${b}`);

const Runs = suite('workflow runs');

Runs('the fixture: two runs grouped with their agents (a 0-byte one counted), plain subagents as before, journals not read', async () => {
  const { dir, cleanup } = tempDir('cost-workflows-');
  try {
    const file = path.join(dir, 'index.db');
    const index = await indexDir(FIXTURE, { file });
    const d = detail(index);
    const runs = d.workflows.map(({ cost, ...r }) => r);
    assert.equal(runs, [
      { runId: 'wf_7c1e4a', agents: 2, messages: 2, inputTokens: 220, outputTokens: 330, cacheCreationTokens: 500, cacheReadTokens: 500, totalTokens: 1550,
        firstActivity: '2026-11-20T10:01:00.000Z', lastActivity: '2026-11-20T10:02:00.000Z' },
      { runId: 'wf_9d0422', agents: 2, messages: 3, inputTokens: 55, outputTokens: 85, cacheCreationTokens: 0, cacheReadTokens: 0, totalTokens: 140,
        firstActivity: '2026-11-20T10:05:00.000Z', lastActivity: '2026-11-20T10:06:00.000Z' },
    ]);
    near(d.workflows[0]!.cost, costOf(index, ['b1', 'b2']), 'first run');
    near(d.workflows[1]!.cost, costOf(index, ['c1', 'c2']), 'second run');
    assert.ok(d.workflows[0]!.cost > 0 && d.workflows[1]!.cost > 0, 'priced');
    assert.equal(d.subagents.map((a) => [a.agentId, a.agentType, a.messages]), [['a9f01', 'Explore', 1]], 'the plain subagent stays as it is');
    assert.is(d.messageCount, 8, 'the session holds its own, the plain subagent\'s and both runs\' messages');
    assert.is(d.messages.filter((m) => m.subagent).length, 6, 'every run\'s message is a subagent message');
    assert.is(index.queries.overview(allTime).totals.messages, 8);
    const stats = index.stats();
    assert.equal([stats.files, stats.lines, stats.malformed, stats.unreadable], [6, 13, 0, 0], 'six transcripts, the 0-byte one included, no journal');
    index.close();

    const db = new Database(file, { readonly: true });
    const paths = (db.prepare('SELECT path FROM files ORDER BY path').pluck().all() as string[]).map((p) => path.relative(path.join(FIXTURE, SESSION_DIR), p));
    db.close();
    assert.equal(paths, [
      '../' + SID + '.jsonl',
      'subagents/agent-a9f01.jsonl',
      'subagents/workflows/wf_7c1e4a/agent-b1.jsonl',
      'subagents/workflows/wf_7c1e4a/agent-b2.jsonl',
      'subagents/workflows/wf_9d0422/agent-c1.jsonl',
      'subagents/workflows/wf_9d0422/agent-c2.jsonl',
    ]);
  } finally {
    cleanup();
  }
});

Runs('live: a new run\'s files and a 0-byte agent that starts writing are picked up by the watcher', async () => {
  const { dir, cleanup } = tempDir('cost-workflows-live-');
  try {
    const projects = path.join(dir, 'projects');
    fs.cpSync(FIXTURE, projects, { recursive: true });
    const running = await startIndexing(projects);
    try {
      assert.equal(detail(running.index).workflows.map((r) => r.runId), ['wf_7c1e4a', 'wf_9d0422']);
      const session = path.join(projects, SESSION_DIR);
      const line = (id: string, ts: string, output: number) =>
        usageLine({ sessionId: SID, messageId: `msg_${id}`, requestId: `req_${id}`, timestamp: ts, output, extra: { isSidechain: true } });
      // a new run: its folder, journal and an agent's prompt first, its response appended later
      const run = path.join(session, 'subagents/workflows/wf_live01');
      fs.mkdirSync(run, { recursive: true });
      writeJsonl(path.join(run, 'journal.jsonl'), [{ type: 'workflow_started', workflowId: 'wf_live01', timestamp: '2026-11-20T11:00:00.000Z' }]);
      const agent = writeJsonl(path.join(run, 'agent-d1.jsonl'), [userLine('Step 1: tag the release', { sessionId: SID, isSidechain: true, agentId: 'd1' })]);
      await waitFor(() => detail(running.index).workflows.some((r) => r.runId === 'wf_live01'), 'the new run');
      appendJsonl(agent, [line('live1', '2026-11-20T11:00:05.000Z', 40)]);
      // the 0-byte agent of the first run starts writing
      appendJsonl(path.join(session, 'subagents/workflows/wf_7c1e4a/agent-b2.jsonl'), [line('b2a', '2026-11-20T10:03:00.000Z', 25)]);
      const d = await waitFor(() => {
        const now = detail(running.index);
        return now.workflows.find((r) => r.runId === 'wf_live01')?.messages === 1 && now.workflows[0]!.messages === 3 ? now : null;
      }, 'the appended responses', 10_000);
      assert.equal(d.workflows.map((r) => [r.runId, r.agents, r.messages, r.outputTokens, r.lastActivity]), [
        ['wf_7c1e4a', 2, 3, 355, '2026-11-20T10:03:00.000Z'],
        ['wf_9d0422', 2, 3, 85, '2026-11-20T10:06:00.000Z'],
        ['wf_live01', 1, 1, 40, '2026-11-20T11:00:05.000Z'],
      ]);
      assert.is(d.messageCount, 10);
      const stats = running.index.stats();
      assert.equal([stats.files, stats.malformed], [7, 0], 'the new agent is a transcript, the new journal is not');
    } finally {
      await running.stop();
    }
  } finally {
    cleanup();
  }
});

Runs.run();
