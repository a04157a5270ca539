// The real Claude Code transcripts in ../shared/fixtures/transcripts/config, through the real pipeline:
// per-session totals, checked against the ccusage 20.0.24 cross-check in its PROVENANCE.md.
//
// Where our rules (decisions.md) could differ from ccusage's, and why they agree on this data:
// - Long context: we price every token of a request above 200k context at the >200k rates, ccusage does
//   not; no request here goes over 200k (asserted below), so the rule never fires.
// - Web search ($0.01 each): ccusage ignores it; no line here has web_search_requests (asserted below).
// - costUSD: none of these lines carries one, so 'auto' (ours) and ccusage's --mode calculate agree.
// - Dedup: both keep, per message.id + requestId, the copy with the most output tokens; the sample-project
//   sessions write one response as several lines whose output_tokens grow, so keeping the first copy
//   instead would give 52,976 output tokens, not 56,945 (asserted below via the stats).
// - Subagents: the prompt-suggestion agent of 967e501d repeats its parent's message.id + requestId;
//   it counts once, under the parent (global dedup, earliest file wins on the tie).
// - c04f363a has only a subagent file (its parent transcript is absent): it is still a session.
process.env.TZ = 'UTC';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { indexDir } from '../helpers/pipeline.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const projects = path.resolve(root, '../shared/fixtures/transcripts/config/projects');
const allTime: QueryScope = {
  range: { from: '1970-01-01', to: '2100-01-01', fromMs: 0, toMs: Date.UTC(2100, 0, 1), bucket: 'day', kind: 'all', days: null },
  project: null,
  now: Date.UTC(2026, 10, 22),
};

// ccusage 20.0.24 `claude session --json --offline --mode calculate --timezone UTC` on this dir (PROVENANCE.md).
const expected = [
  { id: '967e501d-aa48-4eab-a21f-b17058bd78f0', cost: 7.006809, input: 699, output: 396, cacheWrite: 954225, cacheRead: 7443566, subagents: 3 },
  { id: 'fe5e1c67-53e7-4862-81ae-d0e013e3270b', cost: 2.393215, input: 818, output: 51933, cacheWrite: 137976, cacheRead: 3647854, subagents: 0 },
  { id: '5c0375b4-57a5-4f26-b12d-d022ee4e51b7', cost: 0.331151, input: 129, output: 3629, cacheWrite: 47747, cacheRead: 324259, subagents: 0 },
  { id: 'c04f363a-5592-4c56-b4af-8d9533b5bca1', cost: 0.127125, input: 53, output: 34, cacheWrite: 52494, cacheRead: 612849, subagents: 1 },
  { id: '1af7fc5e-8455-4414-9ccd-011d40f70b2a', cost: 0.093157, input: 93, output: 953, cacheWrite: 12698, cacheRead: 103219, subagents: 0 },
];

const indexFixtures = (): Promise<IndexDb> => indexDir(projects);

const Fixtures = suite('real transcripts');

Fixtures('per-session totals match the ccusage cross-check to the cent and beyond', async () => {
  const index = await indexFixtures();
  try {
    let total = 0;
    for (const e of expected) {
      const s = index.queries.session(e.id, allTime);
      assert.ok(s, `session ${e.id} indexed`);
      assert.ok(Math.abs(s.cost - e.cost) < 5e-7, `${e.id} cost ${s.cost} vs ${e.cost}`);
      assert.is(s.inputTokens, e.input, `${e.id} input`);
      assert.is(s.outputTokens, e.output, `${e.id} output`);
      assert.is(s.cacheCreationTokens, e.cacheWrite, `${e.id} cache write`);
      assert.is(s.cacheReadTokens, e.cacheRead, `${e.id} cache read`);
      assert.is(s.subagents.length, e.subagents, `${e.id} subagents`);
      for (const m of s.messages) {
        const context = m.inputTokens + m.cacheCreationTokens + m.cacheReadTokens;
        assert.ok(context <= 200_000, `${e.id}: a request of ${context} context tokens would make the long-context rule differ from ccusage`);
        assert.is(m.webSearches, 0, 'no web search in the fixtures');
      }
      total += s.cost;
    }
    assert.ok(Math.abs(total - 9.951458) < 1e-6, `total ${total}`);
    const stats = index.stats();
    assert.is(stats.usageLines, 569, 'usage lines read');
    assert.is(stats.messages, 311, 'API responses after dedup');
    assert.is(stats.malformed, 0);
  } finally {
    index.close();
  }
});

Fixtures('titles, project names and subagent attribution', async () => {
  const index = await indexFixtures();
  try {
    const projectsList = index.queries.projects(allTime);
    const names = Object.fromEntries(projectsList.map((p) => [p.id, p.name]));
    assert.is(names['sample-project'], 'Demo', 'display name = last segment of the cwd');
    assert.is(names['-Users-randlee-Documents-github-claude-history'], 'claude-history');
    const fe = index.queries.session('fe5e1c67-53e7-4862-81ae-d0e013e3270b', allTime)!;
    assert.is(fe.title, '/orchestrator create TODO app by Next.js', 'first prompt of a slash command');
    const orphan = index.queries.session('c04f363a-5592-4c56-b4af-8d9533b5bca1', allTime)!;
    assert.ok(orphan.messages.every((m) => m.subagent?.agentId === 'a4d2f80'), 'every message of the orphan subagent is marked as subagent usage');
    const parent = index.queries.session('967e501d-aa48-4eab-a21f-b17058bd78f0', allTime)!;
    // Four subagent files: aprompt_suggestion-54c7bb has no usage line; aprompt_suggestion-aafb27 has two
    // responses, one repeating its parent's message.id + requestId, which stays the parent's.
    const agents = parent.subagents.map((s) => `${s.agentId}:${s.messages}`).sort();
    assert.equal(agents, ['aae161c:21', 'acompact-a94287:1', 'aprompt_suggestion-aafb27:1']);
    assert.ok(parent.subagents.every((s) => s.cost > 0), 'each listed subagent has usage of its own');
  } finally {
    index.close();
  }
});

Fixtures.run();
