// The real transcripts of one repository worked in parallel git worktrees (../shared/fixtures/transcripts/worktrees,
// PROVENANCE.md), through the real pipeline: totals against the ccusage 20.0.24 cross-check written there.
process.env.TZ = 'UTC';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { indexDir } from '../helpers/pipeline.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const projects = path.resolve(root, '../shared/fixtures/transcripts/worktrees/projects');
const allTime: QueryScope = {
  range: { from: '2026-02-10', to: '2026-02-12', fromMs: Date.UTC(2026, 1, 10), toMs: Date.UTC(2026, 1, 13), bucket: 'day', kind: 'custom', days: null },
  project: null,
  now: Date.UTC(2026, 1, 13),
};

const indexFixture = (): Promise<IndexDb> => indexDir(projects, { mode: 'calculate' });

const index = await indexFixture();
const Worktrees = suite('worktrees fixture');

Worktrees('each day and the total match ccusage daily (nested progress usage included)', () => {
  const o = index.queries.overview(allTime);
  // PROVENANCE.md: ccusage daily $58.118722 (02-10 $1.053870, 02-11 $23.890094, 02-12 $33.174758)
  assert.ok(Math.abs(o.totals.cost - 58.11872185) < 1e-9, `total ${o.totals.cost}`);
  const days = Object.fromEntries(o.costSeries.points.map((p) => [p.key, p.cost]));
  assert.ok(Math.abs(days['2026-02-10']! - 1.0538701) < 1e-9, `02-10 ${days['2026-02-10']}`);
  assert.ok(Math.abs(days['2026-02-11']! - 23.8900939) < 1e-9, `02-11 ${days['2026-02-11']}`);
  assert.ok(Math.abs(days['2026-02-12']! - 33.17475785) < 1e-9, `02-12 ${days['2026-02-12']}`);
  assert.equal(
    [o.totals.inputTokens, o.totals.outputTokens, o.totals.cacheCreationTokens, o.totals.cacheReadTokens],
    [9284, 213146, 2291209, 86667107],
  );
});

Worktrees('the progress-only responses are subagent usage of their session: ccusage session\'s gap', () => {
  // ccusage session reports "subagent" at $0.519593: it leaves out the five haiku responses that exist only in the
  // progress lines ($0.038163, PROVENANCE.md); we count them, as its daily report does.
  const s = index.queries.session('subagent', allTime)!;
  const streamed = s.messages.filter((m) => m.subagent?.agentId === 'afb92ff');
  assert.is(streamed.length, 5);
  assert.ok(streamed.every((m) => m.model === 'claude-haiku-4-5-20251001'));
  const gap = streamed.reduce((a, m) => a + m.cost, 0);
  assert.ok(Math.abs(gap - 0.038163) < 5e-7, `gap ${gap}`);
  assert.ok(Math.abs(s.cost - gap - 0.519593) < 5e-7, `session ${s.cost}`);
});

Worktrees.run();
