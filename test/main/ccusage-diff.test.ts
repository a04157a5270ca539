// Differential tests against ccusage 20.0.24. On a generated corpus: total cost, total tokens, each day's
// cost and each session's cost agree within 1e-6 relative. Both sides price from tokens (ccusage
// `--mode calculate`, our PriceTable in 'calculate' mode) because the generator writes random costUSD
// figures on some lines, which decisions.md (and ccusage's default mode) would honour.
// `--context-cap 190000` keeps every request under the long-context threshold, where the two tools'
// rules differ on purpose (decisions.md prices the whole request at the >200k rates).
process.env.TZ = 'UTC';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCcusage } from '../../scripts/ensure-ccusage.mjs';
import { openIndex } from '../../src/index-db/index.ts';
import { PriceTable } from '../../src/index-db/pricing/table.ts';
import type { QueryScope } from '../../src/index-db/types.ts';
import { startPipeline } from '../../src/main/pipeline.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const catalogue = JSON.parse(fs.readFileSync(path.resolve(root, '../shared/fixtures/prices/catalogue.json'), 'utf8')) as unknown;

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

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(a), Math.abs(b), 1e-9);

const Diff = suite('ccusage 20.0.24 differential');

Diff('daily and session costs agree on a generated corpus', async () => {
  let bin: string;
  try {
    bin = ensureCcusage();
  } catch (err) {
    const message = `CCUSAGE NOT INSTALLABLE: the differential test did not run (${err instanceof Error ? err.message : String(err)})`;
    console.error(`\n!!! ${message}\n`);
    if (process.env.CI) throw new Error(message);
    return;
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cost-diff-'));
  try {
    const dir = path.join(work, 'config');
    execFileSync(process.execPath, [path.resolve(root, '../shared/tools/gen-corpus.mjs'), '--out', dir, '--mb', '24', '--days', '60', '--seed', '7', '--projects', '6', '--context-cap', '190000'], {
      stdio: 'ignore',
    });
    const cc = (report: string): string =>
      execFileSync(bin, ['claude', report, '--json', '--offline', '--mode', 'calculate', '--timezone', 'UTC'], {
        env: { ...process.env, CLAUDE_CONFIG_DIR: dir, TZ: 'UTC' },
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      });
    const daily = JSON.parse(cc('daily')) as { daily: CcDay[]; totals: CcDay };
    const sessions = JSON.parse(cc('session')) as { sessions: CcSession[] };

    const index = openIndex(path.join(work, 'index.db'));
    index.setPrices(PriceTable.fromCatalogue(catalogue, 'fixture', 'calculate'));
    const pipeline = await startPipeline({ projectsDirs: [path.join(dir, 'projects')], index, log: () => undefined });
    await pipeline.ingest.idle();
    await pipeline.close();

    const first = daily.daily[0]!.date;
    const last = daily.daily.at(-1)!.date;
    const scope: QueryScope = {
      range: { from: first, to: last, fromMs: Date.parse(first), toMs: Date.parse(last) + 86_400_000, bucket: 'day', kind: 'custom', days: null },
      project: null,
      now: Date.parse(last) + 86_400_000,
    };
    const ours = index.queries.overview(scope, { done: true, filesTotal: 0, filesDone: 0, bytesTotal: 0, bytesDone: 0 }, [dir]);

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
    index.close();
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});

// The real worktrees fixture (PROVENANCE.md) against ccusage's `daily`, exactly: its six worktree sessions stream
// their Explore subagents into `progress` lines beside the subagents' own files (counted once), and the main
// checkout's subagent.jsonl holds five responses that exist only there. ccusage's `session` report leaves those five
// out (its parser reads no progress line), so there the only difference is that session, by exactly their cost.
Diff('the worktrees fixture matches ccusage daily exactly; session differs only by the progress-only responses', async () => {
  let bin: string;
  try {
    bin = ensureCcusage();
  } catch (err) {
    const message = `CCUSAGE NOT INSTALLABLE: the differential test did not run (${err instanceof Error ? err.message : String(err)})`;
    console.error(`\n!!! ${message}\n`);
    if (process.env.CI) throw new Error(message);
    return;
  }
  const dir = path.resolve(root, '../shared/fixtures/transcripts/worktrees');
  const cc = (report: string): string =>
    execFileSync(bin, ['claude', report, '--json', '--offline', '--mode', 'calculate', '--timezone', 'UTC'], {
      env: { ...process.env, CLAUDE_CONFIG_DIR: dir, TZ: 'UTC' },
      encoding: 'utf8',
    });
  const daily = JSON.parse(cc('daily')) as { daily: CcDay[]; totals: CcDay };
  const sessions = JSON.parse(cc('session')) as { sessions: CcSession[] };

  const index = openIndex(':memory:');
  index.setPrices(PriceTable.fromCatalogue(catalogue, 'fixture', 'calculate'));
  const pipeline = await startPipeline({ projectsDirs: [path.join(dir, 'projects')], index, log: () => undefined });
  await pipeline.ingest.idle();
  await pipeline.close();
  const first = daily.daily[0]!.date;
  const last = daily.daily.at(-1)!.date;
  const scope: QueryScope = {
    range: { from: first, to: last, fromMs: Date.parse(first), toMs: Date.parse(last) + 86_400_000, bucket: 'day', kind: 'custom', days: null },
    project: null,
    now: Date.parse(last) + 86_400_000,
  };
  const ours = index.queries.overview(scope, { done: true, filesTotal: 0, filesDone: 0, bytesTotal: 0, bytesDone: 0 }, [dir]);
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
