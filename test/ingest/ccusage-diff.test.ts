// Differential tests against ccusage 20.0.24. On a generated corpus: total cost, total tokens, each day's
// cost (in UTC and in Asia/Kolkata, a +5:30 zone), each session's cost, and the 5-hour blocks (start,
// end, cost, tokens, entries, active) over the whole history and as selected by ranges agree, costs
// within 1e-6 relative. A crafted transcript adds an active block begun 2 h ago and entries exactly
// at a block's start + 5 h and a millisecond after. Both sides price from tokens (ccusage
// `--mode calculate`, our PriceTable in 'calculate' mode) because the generator writes random costUSD
// figures on some lines, which decisions.md (and ccusage's default mode) would honour.
// `--context-cap 190000` keeps every request under the long-context threshold, where the two tools'
// rules differ on purpose (decisions.md prices the whole request at the >200k rates).
process.env.TZ = 'UTC';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ensureCcusage } from '../../scripts/ensure-ccusage.mjs';
import type { Block } from '../../src/shared/api-types.ts';
import { parseRange, type Query } from '../../src/http/params.ts';
import type { IndexDb, QueryScope } from '../../src/index-db/types.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { FIXTURES, SHARED } from '../helpers/paths.ts';
import { indexDir } from '../helpers/pipeline.ts';
import { skipTest } from '../helpers/skip.ts';

interface CcDay {
  date: string;
  totalCost: number;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
}
interface CcSession {
  sessionId: string;
  totalCost: number;
  outputTokens: number;
}

interface CcBlock {
  startTime: string;
  endTime: string;
  isGap: boolean;
  isActive: boolean;
  entries: number;
  costUSD: number;
  totalTokens: number;
  tokenCounts: { inputTokens: number; outputTokens: number; cacheCreationInputTokens: number; cacheReadInputTokens: number };
}

const HOUR = 3_600_000;

/** Our blocks against ccusage's (gap blocks left out), both sorted by start. */
function sameBlocks(ours: Block[], theirs: CcBlock[], what: string): void {
  const a = [...ours].sort((x, y) => x.start.localeCompare(y.start));
  const b = theirs.filter((x) => !x.isGap).sort((x, y) => x.startTime.localeCompare(y.startTime));
  assert.equal(a.map((x) => x.start), b.map((x) => x.startTime), `${what}: block starts`);
  for (const [i, o] of a.entries()) {
    const t = b[i]!;
    const where = `${what}: block ${o.start}`;
    assert.is(o.end, t.endTime, `${where} end`);
    assert.is(o.messages, t.entries, `${where} entries`);
    assert.is(o.active, t.isActive, `${where} active`);
    assert.ok(close(o.cost, t.costUSD), `${where} cost: ours ${o.cost} ccusage ${t.costUSD}`);
    assert.equal([o.inputTokens, o.outputTokens, o.cacheCreationTokens, o.cacheReadTokens, o.totalTokens],
      [t.tokenCounts.inputTokens, t.tokenCounts.outputTokens, t.tokenCounts.cacheCreationInputTokens, t.tokenCounts.cacheReadInputTokens, t.totalTokens], `${where} tokens`);
  }
}

/** Every block of the history: the union of the blocks overlapping each week (a range lists at most 100). */
function allBlocks(index: IndexDb, first: string, now: number): Block[] {
  const byStart = new Map<string, Block>();
  for (let day = Date.parse(first); day < now; day += 7 * 86_400_000) {
    const from = new Date(day).toISOString().slice(0, 10);
    const to = new Date(day + 6 * 86_400_000).toISOString().slice(0, 10);
    const ins = index.queries.insights({ range: parseRange({ from, to }, 'days30', now), project: null, now });
    assert.ok(ins.blocks.length === ins.blocksInRange, `every block of ${from}..${to} listed`);
    for (const b of ins.blocks) byStart.set(b.start, b);
  }
  return [...byStart.values()];
}

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b), 1e-9);

/** ccusage's binary; where it cannot be installed the test is skipped (counted as such), or fails under CI. */
function ccusageOrSkip(): string | null {
  try {
    return ensureCcusage();
  } catch (err) {
    const message = `CCUSAGE NOT INSTALLABLE: the differential test did not run (${err instanceof Error ? err.message : String(err)})`;
    if (process.env.CI) throw new Error(message);
    skipTest(message);
    return null;
  }
}

/** Several parse workers, so files finish out of order as in the server. */
const THREADS = 2;

const Diff = suite('ccusage 20.0.24 differential');

Diff('daily (UTC and Asia/Kolkata), session and block figures agree on a generated corpus', async () => {
  const bin = ccusageOrSkip();
  if (bin === null) return;
  const { dir: work, cleanup } = tempDir('cost-diff-');
  try {
    const dir = path.join(work, 'config');
    execFileSync(process.execPath, [path.join(SHARED, 'tools/gen-corpus.mjs'), '--out', dir, '--mb', '24', '--days', '60', '--seed', '7', '--projects', '6', '--context-cap', '190000',
      '--end', new Date(Date.now() - 3_600_000).toISOString()], {
      stdio: 'ignore',
    });
    const start = Date.now();
    const t0 = Math.floor((start - 30 * HOUR) / HOUR) * HOUR;
    const crafted: [number, number][] = [[t0 + 600_000, 500], [t0 + 5 * HOUR, 700], [t0 + 5 * HOUR + 1, 900], [start - 2 * HOUR, 1100], [start - 600_000, 1300]];
    writeJsonl(path.join(dir, 'projects', '-home-dev-crafted', 'crafted.jsonl'), crafted.map(([ts, output], i) => usageLine({
      sessionId: 'crafted', timestamp: new Date(ts).toISOString(), messageId: `crafted-${i}`, requestId: `crafted-r${i}`, input: 100, output, cwd: '/home/dev/crafted',
    })));
    const cc = (report: string, zone = 'UTC'): string =>
      execFileSync(bin, ['claude', report, '--json', '--offline', '--mode', 'calculate', '--timezone', zone], {
        env: { ...process.env, CLAUDE_CONFIG_DIR: dir, TZ: zone },
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      });
    const daily = JSON.parse(cc('daily')) as { daily: CcDay[]; totals: CcDay };
    const sessions = JSON.parse(cc('session')) as { sessions: CcSession[] };
    const kolkata = JSON.parse(cc('daily', 'Asia/Kolkata')) as { daily: CcDay[]; totals: CcDay };
    // ccusage decides the active block with its own clock: ours uses the same instant (seconds apart).
    const now = Date.now();
    const blocks = JSON.parse(cc('blocks')) as { blocks: CcBlock[] };

    const index = await indexDir(path.join(dir, 'projects'), { file: path.join(work, 'index.db'), mode: 'calculate', threads: THREADS });

    const first = daily.daily[0]!.date;
    const last = daily.daily.at(-1)!.date;
    const scope: QueryScope = {
      range: { from: first, to: last, fromMs: Date.parse(first), toMs: Date.parse(last) + 86_400_000, bucket: 'day', kind: 'custom', days: null },
      project: null,
      now: Date.parse(last) + 86_400_000,
    };
    const ours = index.queries.overview(scope);

    const t = daily.totals;
    assert.ok(close(ours.totals.cost, t.totalCost), `total cost: ours ${ours.totals.cost} ccusage ${t.totalCost}`);
    assert.is(ours.totals.inputTokens, t.inputTokens, 'input tokens');
    assert.is(ours.totals.outputTokens, t.outputTokens, 'output tokens');
    assert.is(ours.totals.cacheCreationTokens, t.cacheCreationTokens, 'cache write tokens');
    assert.is(ours.totals.cacheReadTokens, t.cacheReadTokens, 'cache read tokens');

    const byDay = new Map(ours.costSeries.points.map((p) => [p.key, p.cost]));
    for (const d of daily.daily) {
      const mine = byDay.get(d.date) ?? 0;
      assert.ok(close(mine, d.totalCost), `cost on ${d.date}: ours ${mine} ccusage ${d.totalCost}`);
    }
    const ccDays = new Set(daily.daily.map((d) => d.date));
    for (const p of ours.costSeries.points) if (!ccDays.has(p.key)) assert.is(p.cost, 0, `ccusage has no ${p.key}, we have cost there`);

    let compared = 0;
    for (const s of sessions.sessions) {
      const mine = index.queries.session(s.sessionId, scope);
      assert.ok(mine, `session ${s.sessionId} is indexed`);
      assert.ok(close(mine.cost, s.totalCost), `session ${s.sessionId}: ours ${mine.cost} ccusage ${s.totalCost}`);
      compared++;
    }
    assert.ok(compared > 10, `compared ${compared} sessions`);

    // Blocks over the whole history, then as the ranges select them: those overlapping the range, whole.
    assert.ok(blocks.blocks.some((b) => b.isActive), 'ccusage sees the crafted active block');
    assert.ok([t0, t0 + 5 * HOUR].every((t) => blocks.blocks.some((b) => b.startTime === new Date(t).toISOString())), 'the crafted +5 h boundary');
    const history = allBlocks(index, first, now);
    assert.ok(history.length > 10, `${history.length} blocks`);
    sameBlocks(history, blocks.blocks, 'whole history');
    const n = daily.daily.length;
    for (const q of [{ range: 'today' }, { range: '7' }, { from: daily.daily[Math.floor(n / 3)]!.date, to: daily.daily[Math.floor(n / 2)]!.date }] as Query[]) {
      const range = parseRange(q, 'days30', now);
      const ins = index.queries.insights({ range, project: null, now });
      const theirs = blocks.blocks.filter((b) => !b.isGap && Date.parse(b.startTime) < range.toMs && Date.parse(b.endTime) > range.fromMs);
      assert.ok(theirs.length > 0, `${JSON.stringify(q)} has blocks`);
      assert.is(ins.blocksInRange, theirs.length, `${JSON.stringify(q)}: blocks in range`);
      sameBlocks(ins.blocks, theirs, JSON.stringify(q));
      const active = blocks.blocks.find((b) => b.isActive);
      assert.is(ins.activeBlock?.start ?? null, active?.startTime ?? null, `${JSON.stringify(q)}: active block`);
    }

    // Days in a +5:30 zone: each entry on the local day of its own timestamp.
    process.env.TZ = 'Asia/Kolkata';
    const kFirst = kolkata.daily[0]!.date;
    const kLast = kolkata.daily.at(-1)!.date;
    const inKolkata = index.queries.overview({ range: parseRange({ from: kFirst, to: kLast }, 'days30', now), project: null, now });
    assert.ok(close(inKolkata.totals.cost, kolkata.totals.totalCost), `Kolkata total: ours ${inKolkata.totals.cost} ccusage ${kolkata.totals.totalCost}`);
    const kDays = new Map(inKolkata.costSeries.points.map((p) => [p.key, p.cost]));
    for (const d of kolkata.daily) {
      const mine = kDays.get(d.date) ?? 0;
      assert.ok(close(mine, d.totalCost), `Kolkata cost on ${d.date}: ours ${mine} ccusage ${d.totalCost}`);
    }
    const kSet = new Set(kolkata.daily.map((d) => d.date));
    for (const p of inKolkata.costSeries.points) if (!kSet.has(p.key)) assert.is(p.cost, 0, `ccusage has no ${p.key} in Kolkata, we have cost there`);
    process.env.TZ = 'UTC';
    index.close();
  } finally {
    cleanup();
  }
});

// The real worktrees fixture (PROVENANCE.md) against ccusage's `daily`, exactly: its six worktree sessions stream
// their Explore subagents into `progress` lines beside the subagents' own files (counted once), and the main
// checkout's subagent.jsonl holds five responses that exist only there. ccusage's `session` report leaves those five
// out (its parser reads no progress line), so there the only difference is that session, by exactly their cost.
Diff('the worktrees fixture matches ccusage daily exactly; session differs only by the progress-only responses', async () => {
  const bin = ccusageOrSkip();
  if (bin === null) return;
  const dir = path.join(FIXTURES, 'transcripts/worktrees');
  const cc = (report: string): string =>
    execFileSync(bin, ['claude', report, '--json', '--offline', '--mode', 'calculate', '--timezone', 'UTC'], {
      env: { ...process.env, CLAUDE_CONFIG_DIR: dir, TZ: 'UTC' },
      encoding: 'utf8',
    });
  const daily = JSON.parse(cc('daily')) as { daily: CcDay[]; totals: CcDay };
  const sessions = JSON.parse(cc('session')) as { sessions: CcSession[] };

  const index = await indexDir(path.join(dir, 'projects'), { mode: 'calculate', threads: THREADS });
  const first = daily.daily[0]!.date;
  const last = daily.daily.at(-1)!.date;
  const scope: QueryScope = {
    range: { from: first, to: last, fromMs: Date.parse(first), toMs: Date.parse(last) + 86_400_000, bucket: 'day', kind: 'custom', days: null },
    project: null,
    now: Date.parse(last) + 86_400_000,
  };
  const ours = index.queries.overview(scope);
  const exact = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));
  const t = daily.totals;
  assert.ok(exact(ours.totals.cost, t.totalCost), `total cost: ours ${ours.totals.cost} ccusage ${t.totalCost}`);
  assert.equal(
    [ours.totals.inputTokens, ours.totals.outputTokens, ours.totals.cacheCreationTokens, ours.totals.cacheReadTokens],
    [t.inputTokens, t.outputTokens, t.cacheCreationTokens, t.cacheReadTokens],
  );
  const byDay = new Map(ours.costSeries.points.map((p) => [p.key, p.cost]));
  assert.is(byDay.size, daily.daily.length);
  for (const d of daily.daily) assert.ok(exact(byDay.get(d.date) ?? 0, d.totalCost), `cost on ${d.date}: ours ${byDay.get(d.date)} ccusage ${d.totalCost}`);

  let gap = 0;
  for (const s of sessions.sessions) {
    const mine = index.queries.session(s.sessionId, scope)!;
    if (s.sessionId === 'subagent') {
      const streamedOnly = mine.messages.filter((m) => m.subagent?.agentId === 'afb92ff');
      gap = streamedOnly.reduce((a, m) => a + m.cost, 0);
      assert.ok(close(mine.cost - gap, s.totalCost), `subagent.jsonl without its progress-only responses: ours ${mine.cost - gap} ccusage ${s.totalCost}`);
    } else {
      assert.ok(close(mine.cost, s.totalCost), `session ${s.sessionId}: ours ${mine.cost} ccusage ${s.totalCost}`);
    }
  }
  const ccSessions = sessions.sessions.reduce((a, s) => a + s.totalCost, 0);
  assert.ok(Math.abs(t.totalCost - ccSessions - gap) < 1e-9, `daily - session = ${t.totalCost - ccSessions}, the progress-only responses ${gap}`);
  assert.ok(Math.abs(gap - 0.038163) < 5e-7, `gap ${gap}`);
  index.close();
});

Diff.run();
