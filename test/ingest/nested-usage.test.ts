// Usage that a `progress` line records (a Task subagent's responses streamed into its parent), through the real
// pipeline: counted as subagent usage of the line's session, once, whether the subagent's own file exists or not.
process.env.TZ = 'UTC';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import type { IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { tempDir, usageLine, userLine, writeJsonl } from '../helpers/jsonl.ts';
import { indexDir } from '../helpers/pipeline.ts';

const allTime: QueryScope = {
  range: { from: '1970-01-01', to: '2100-01-01', fromMs: 0, toMs: Date.UTC(2100, 0, 1), bucket: 'day', kind: 'all', days: null },
  project: null,
  now: Date.UTC(2026, 0, 3),
};
const SESSION = 'sess-parent';
const HAIKU = 'claude-haiku-4-5-20251001';

/** A subagent response as its own file writes it. */
const subagentLine = (id: string, output: number, time: string) =>
  usageLine({ sessionId: SESSION, messageId: `msg_${id}`, requestId: `req_${id}`, model: HAIKU, input: 5, output, cacheRead: 1000, timestamp: time, extra: { isSidechain: true, agentId: 'a1b2c3d' } });

/** The same response streamed into the parent: a progress line a little later than the response itself. */
const progressLine = (id: string, output: number, time: string) => {
  const { message, requestId, timestamp } = subagentLine(id, output, time);
  return {
    type: 'progress', sessionId: SESSION, cwd: '/home/dev/proj', parentToolUseID: 'toolu_task', toolUseID: 'agent_msg_x',
    timestamp: new Date(Date.parse(time) + 1).toISOString(),
    data: { type: 'agent_progress', agentId: 'a1b2c3d', prompt: 'look around', message: { type: 'assistant', message, requestId, timestamp } },
  };
};

const parentLines = [
  userLine('find the bug', { sessionId: SESSION }),
  usageLine({ sessionId: SESSION, messageId: 'msg_main', requestId: 'req_main', output: 40, timestamp: '2026-01-02T03:00:01.000Z' }),
  progressLine('s1', 2, '2026-01-02T03:00:02.000Z'),
  progressLine('s1', 2, '2026-01-02T03:00:02.100Z'), // a second content block of the same response
  progressLine('s2', 9, '2026-01-02T03:00:03.000Z'),
  { type: 'progress', sessionId: SESSION, timestamp: '2026-01-02T03:00:04.000Z', data: { type: 'agent_progress', agentId: 'a1b2c3d', message: { type: 'user', message: { role: 'user', content: 'usage is in this text' } } } },
];

const indexOf = (dir: string): Promise<IndexDb> => indexDir(path.join(dir, 'projects'), { mode: 'calculate' });

const Nested = suite('usage nested in progress lines');

Nested('without the subagent file: the streamed responses are subagent usage of the parent session', async () => {
  const { dir, cleanup } = tempDir();
  try {
    writeJsonl(path.join(dir, 'projects/-home-dev-proj', `${SESSION}.jsonl`), parentLines);
    const index = await indexOf(dir);
    const s = index.queries.session(SESSION, allTime)!;
    assert.is(s.messageCount, 3, 'the main response and two streamed ones (one of them in two lines)');
    assert.is(s.outputTokens, 40 + 2 + 9);
    const streamed = s.messages.filter((m) => m.subagent);
    assert.equal(streamed.map((m) => [m.timestamp, m.model, m.outputTokens, m.subagent!.agentId]), [
      ['2026-01-02T03:00:02.000Z', HAIKU, 2, 'a1b2c3d'],
      ['2026-01-02T03:00:03.000Z', HAIKU, 9, 'a1b2c3d'],
    ], 'times are the nested responses\' own');
    assert.equal(s.subagents.map((a) => [a.agentId, a.messages]), [['a1b2c3d', 2]]);
    const insights = index.queries.insights(allTime);
    assert.ok(Math.abs(insights.subagentShare.subagentCost - streamed.reduce((a, m) => a + m.cost, 0)) < 1e-12);
    assert.is(index.stats().usageLines, 4, 'the text that mentions usage is no usage line');
    assert.is(index.stats().malformed, 0);
    index.close();
  } finally {
    cleanup();
  }
});

Nested('with the subagent file too: each response counts once, under the same subagent', async () => {
  const { dir, cleanup } = tempDir();
  try {
    const project = path.join(dir, 'projects/-home-dev-proj');
    writeJsonl(path.join(project, `${SESSION}.jsonl`), parentLines);
    writeJsonl(path.join(project, SESSION, 'subagents/agent-a1b2c3d.jsonl'), [
      subagentLine('s1', 2, '2026-01-02T03:00:02.000Z'),
      subagentLine('s2', 9, '2026-01-02T03:00:03.000Z'),
      subagentLine('s3', 7, '2026-01-02T03:00:05.000Z'), // never streamed
    ]);
    const index = await indexOf(dir);
    const s = index.queries.session(SESSION, allTime)!;
    assert.is(s.messageCount, 4);
    assert.is(s.outputTokens, 40 + 2 + 9 + 7);
    assert.equal(s.subagents.map((a) => [a.agentId, a.messages]), [['a1b2c3d', 3]]);
    const overview = index.queries.overview(allTime);
    assert.is(overview.totals.messages, 4);
    assert.is(index.stats().duplicates, 3, 'three streamed lines, copies of two responses of the subagent\'s file');
    index.close();
  } finally {
    cleanup();
  }
});

Nested.run();
