// The built command line's reports on the real fixture transcripts: every report's JSON against the
// dashboard's own API (a real server writing the index the commands read: the numbers must be the same)
// and against ccusage 20.0.24 in calculate mode (the same figures under ccusage's field names, documented
// differences aside), the filters, tables on narrow terminals, --help on every command, and exit codes.
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ensureCcusage } from '../../scripts/ensure-ccusage.mjs';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { DIST_BIN, DIST_MAIN, FIXTURE_CONFIG_DIR, PRICES_FILE, SHARED } from '../helpers/paths.ts';
import { displayWidth } from '../../src/cli/table.ts';
import { cli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { skipTest } from '../helpers/skip.ts';
import { waitFor } from '../helpers/wait.ts';

const { dir } = tempDir('cli-reports-');
const index = path.join(dir, 'index.db');
// Calculate mode on both sides (ccusage's `--mode calculate`); every day in UTC.
const base = ['--dir', FIXTURE_CONFIG_DIR, '--index', index, '--prices', PRICES_FILE, '--cost-mode', 'calculate', '--timezone', 'UTC'];
const env = { TZ: 'UTC' };

interface Breakdown { modelName: string; inputTokens: number; outputTokens: number; cacheCreationTokens: number; cacheReadTokens: number; cost: number }
interface Group {
  inputTokens: number; outputTokens: number; cacheCreationTokens: number; cacheReadTokens: number; totalTokens: number; totalCost: number;
  modelsUsed: string[]; modelBreakdowns: Breakdown[];
}
type Day = Group & { date: string };
type Session = Group & { sessionId: string; projectPath: string; firstActivity: string; lastActivity: string };
interface CcBlock {
  id: string; startTime: string; endTime: string; actualEndTime: string | null; isGap: boolean; isActive: boolean; entries: number; costUSD: number;
  totalTokens: number; tokenCounts: { inputTokens: number; outputTokens: number; cacheCreationInputTokens: number; cacheReadInputTokens: number }; models: string[];
}
type Totals = Omit<Group, 'modelsUsed' | 'modelBreakdowns'>;

const json = async <T>(...args: string[]): Promise<T> => {
  const r = await cli([...args, ...base, '--json'], { env });
  assert.is(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as T;
};
const close = (a: number, b: number, what: string): void =>
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b), 1e-9), `${what}: ${a} vs ${b}`);
const sortedModels = (g: Group) => [...g.modelBreakdowns].sort((a, b) => a.modelName.localeCompare(b.modelName));
/** Same tokens, cost within float rounding, same models with the same splits. */
function sameGroup(ours: Group, theirs: Group, what: string): void {
  for (const k of ['inputTokens', 'outputTokens', 'cacheCreationTokens', 'cacheReadTokens', 'totalTokens'] as const) assert.is(ours[k], theirs[k], `${what} ${k}`);
  close(ours.totalCost, theirs.totalCost, `${what} cost`);
  assert.equal([...ours.modelsUsed].sort(), [...theirs.modelsUsed].sort(), `${what} models`);
  const a = sortedModels(ours);
  const b = sortedModels(theirs);
  assert.is(a.length, b.length);
  a.forEach((m, i) => {
    assert.is(m.modelName, b[i]!.modelName);
    for (const k of ['inputTokens', 'outputTokens', 'cacheCreationTokens', 'cacheReadTokens'] as const) assert.is(m[k], b[i]![k], `${what} ${m.modelName} ${k}`);
    close(m.cost, b[i]!.cost, `${what} ${m.modelName} cost`);
  });
}

/** The overview's day points from `first` to `last`: a range over 90 days is answered by week, so ask 90 days at a time. */
async function dayPoints(server: AppServer, first: string, last: string): Promise<{ key: string; cost: number }[]> {
  const day = (key: string) => Date.parse(`${key}T00:00:00Z`);
  const key = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const out: { key: string; cost: number }[] = [];
  for (let from = day(first); from <= day(last); from += 90 * 86_400_000) {
    const to = key(Math.min(from + 89 * 86_400_000, day(last)));
    const ov = await getJson<{ costSeries: { bucket?: string; points: { key: string; cost: number }[] } }>(server, `/api/overview?from=${key(from)}&to=${to}`);
    assert.ok(ov.costSeries.bucket === undefined || ov.costSeries.bucket === 'day', `90 days are answered by day: ${ov.costSeries.bucket}`);
    out.push(...ov.costSeries.points);
  }
  return out;
}

const Dashboard = suite('reports equal the dashboard API');

Dashboard('daily, weekly, monthly, session and blocks', async () => {
  // The server writes the index the commands read: the same rows, so the same sums to the last bit.
  const server = await startAppServer({ args: ['--cost-mode', 'calculate', '--index', index], env });
  try {
    await untilIndexed(server, 30_000);
    const all = await getJson<{ totals: { totalTokens: number } }>(server, '/api/overview?range=3650');
    // The server commits within a second of its last write; a command reads commits.
    const daily = await waitFor(async () => {
      const d = await json<{ daily: Day[]; totals: Totals }>('daily');
      return d.totals.totalTokens === all.totals.totalTokens ? d : null;
    }, 'the server\'s commit', 10_000);
    assert.ok(daily.daily.length >= 4, 'the fixtures span several days');
    const first = daily.daily[0]!.date;
    const last = daily.daily.at(-1)!.date;
    type Point = { key: string; cost: number };
    const ov = await getJson<{ totals: { cost: number; inputTokens: number; outputTokens: number; cacheCreationTokens: number; cacheReadTokens: number; totalTokens: number }; costSeries: { points: Point[] } }>(
      server, `/api/overview?from=${first}&to=${last}`,
    );
    // The same rollups and folds: equal to the last bit, not just close.
    assert.is(daily.totals.totalCost, ov.totals.cost, 'total cost');
    for (const k of ['inputTokens', 'outputTokens', 'cacheCreationTokens', 'cacheReadTokens', 'totalTokens'] as const) assert.is(daily.totals[k], ov.totals[k], k);
    const days = new Map((await dayPoints(server, first, last)).filter((p) => p.cost > 0).map((p) => [p.key, p.cost]));
    assert.equal(daily.daily.map((d) => d.date), [...days.keys()]);
    for (const d of daily.daily) assert.is(d.totalCost, days.get(d.date), `day ${d.date}`);

    const monthly = await json<{ monthly: (Group & { month: string })[]; totals: Totals }>('monthly');
    assert.equal(monthly.totals, daily.totals);
    for (const m of monthly.monthly) {
      const inMonth = daily.daily.filter((d) => d.date.startsWith(m.month));
      assert.is(m.totalTokens, inMonth.reduce((n, d) => n + d.totalTokens, 0));
      close(m.totalCost, inMonth.reduce((n, d) => n + d.totalCost, 0), m.month);
    }
    const weekly = await json<{ weekly: (Group & { week: string })[] }>('weekly');
    const ins = await getJson<{ weeklyCost: { weekStart: string; cost: number }[]; blocks: { start: string; cost: number; messages: number; totalTokens: number }[] }>(
      server, `/api/insights?from=${first}&to=${last}`,
    );
    const weeks = new Map(ins.weeklyCost.filter((w) => w.cost > 0).map((w) => [w.weekStart, w.cost]));
    assert.equal(weekly.weekly.map((w) => w.week), [...weeks.keys()], 'weeks start on Monday, as on the dashboard');
    for (const w of weekly.weekly) close(w.totalCost, weeks.get(w.week)!, `week ${w.week}`);

    const sessions = await json<{ sessions: Session[]; totals: Totals }>('session');
    assert.equal(sessions.totals, daily.totals);
    for (const project of new Set(sessions.sessions.map((s) => s.projectPath))) {
      const api = await getJson<{ sessions: { id: string; cost: number; totalTokens: number; lastActivity: string }[] }>(server, `/api/projects/${project}/sessions`);
      const ours = sessions.sessions.filter((s) => s.projectPath === project);
      assert.equal(ours.map((s) => s.sessionId).sort(), api.sessions.map((s) => s.id).sort(), project);
      for (const s of api.sessions) {
        const o = ours.find((x) => x.sessionId === s.id)!;
        close(o.totalCost, s.cost, s.id);
        assert.is(o.totalTokens, s.totalTokens);
        assert.is(o.lastActivity, s.lastActivity);
      }
    }
    const blocks = await json<{ blocks: CcBlock[] }>('blocks');
    const real = blocks.blocks.filter((b) => !b.isGap);
    assert.equal(real.map((b) => b.startTime), [...ins.blocks].reverse().map((b) => b.start));
    for (const b of ins.blocks) {
      const o = real.find((x) => x.startTime === b.start)!;
      assert.is(o.costUSD, b.cost);
      assert.is(o.entries, b.messages);
      assert.is(o.totalTokens, b.totalTokens);
    }
  } finally {
    await server.close();
  }
});

Dashboard('--timezone other than the zone the index was built in: the days of that zone, as a server there shows them', async () => {
  // The index above was built in UTC; Los Angeles (-8/-7) moves the fixture's entries across midnight (Kolkata's +5:30
  // moves none of them: its days equalled UTC's but for the last bits of the sums, which this check used to rest on).
  const zone = 'America/Los_Angeles';
  const server = await startAppServer({ args: ['--cost-mode', 'calculate'], env: { TZ: zone } });
  try {
    await untilIndexed(server, 30_000);
    const r = await cli(['daily', '--json', ...base.slice(0, -2), '--timezone', zone], { env });
    assert.is(r.code, 0, r.stderr);
    const daily = JSON.parse(r.stdout) as { daily: Day[]; totals: Totals };
    const utc = await json<{ daily: Day[] }>('daily');
    assert.not.equal(daily.daily.map((d) => d.date), utc.daily.map((d) => d.date), 'the zone moves some usage to another day');
    const first = daily.daily[0]!.date;
    const last = daily.daily.at(-1)!.date;
    const ov = await getJson<{ totals: { cost: number } }>(server, `/api/overview?from=${first}&to=${last}`);
    const days = (await dayPoints(server, first, last)).filter((p) => p.cost > 0);
    assert.equal(daily.daily.map((d) => d.date), days.map((p) => p.key));
    daily.daily.forEach((d, i) => close(d.totalCost, days[i]!.cost, d.date));
    close(daily.totals.totalCost, ov.totals.cost, 'total');
  } finally {
    await server.close();
  }
});

Dashboard.run();

const Ccusage = suite('reports against ccusage 20.0.24 (calculate mode)');

Ccusage('the same days, weeks, months, sessions and blocks under the same field names', async () => {
  let bin: string;
  try {
    bin = ensureCcusage();
  } catch (err) {
    const message = `CCUSAGE NOT INSTALLABLE: the comparison with ccusage did not run (${err instanceof Error ? err.message : String(err)})`;
    if (process.env.CI) throw new Error(message);
    skipTest(message);
    return;
  }
  const cc = <T>(...args: string[]): T =>
    JSON.parse(execFileSync(bin, ['claude', ...args, '--json', '--offline', '--mode', 'calculate', '--timezone', 'UTC'], {
      env: { ...process.env, CLAUDE_CONFIG_DIR: FIXTURE_CONFIG_DIR, TZ: 'UTC' }, encoding: 'utf8',
    })) as T;

  const theirsDaily = cc<{ daily: Day[]; totals: Totals }>('daily');
  const oursDaily = await json<{ daily: Day[]; totals: Totals }>('daily');
  assert.equal(oursDaily.daily.map((d) => d.date), theirsDaily.daily.map((d) => d.date));
  oursDaily.daily.forEach((d, i) => sameGroup(d, theirsDaily.daily[i]!, d.date));
  for (const k of ['inputTokens', 'outputTokens', 'cacheCreationTokens', 'cacheReadTokens', 'totalTokens'] as const) assert.is(oursDaily.totals[k], theirsDaily.totals[k]);
  close(oursDaily.totals.totalCost, theirsDaily.totals.totalCost, 'total');

  const theirsMonthly = cc<{ monthly: (Group & { month: string })[] }>('monthly');
  const oursMonthly = await json<{ monthly: (Group & { month: string })[] }>('monthly');
  assert.equal(oursMonthly.monthly.map((m) => m.month), theirsMonthly.monthly.map((m) => m.month));
  oursMonthly.monthly.forEach((m, i) => sameGroup(m, theirsMonthly.monthly[i]!, m.month));

  // ccusage starts weeks on Sunday by default; the dashboard (and so this command) on Monday.
  const theirsWeekly = cc<{ weekly: (Group & { week: string })[] }>('weekly', '--start-of-week', 'monday');
  const oursWeekly = await json<{ weekly: (Group & { week: string })[] }>('weekly');
  assert.equal(oursWeekly.weekly.map((w) => w.week), theirsWeekly.weekly.map((w) => w.week));
  oursWeekly.weekly.forEach((w, i) => sameGroup(w, theirsWeekly.weekly[i]!, w.week));

  const theirsSessions = cc<{ sessions: Session[] }>('session');
  const oursSessions = await json<{ sessions: Session[] }>('session');
  assert.equal(oursSessions.sessions.map((s) => s.sessionId), theirsSessions.sessions.map((s) => s.sessionId), 'most expensive first');
  oursSessions.sessions.forEach((s, i) => {
    const t = theirsSessions.sessions[i]!;
    sameGroup(s, t, s.sessionId);
    assert.is(s.projectPath, t.projectPath);
    assert.is(s.firstActivity, t.firstActivity);
    assert.is(s.lastActivity, t.lastActivity);
  });

  const theirsBlocks = cc<{ blocks: CcBlock[] }>('blocks');
  const oursBlocks = await json<{ blocks: CcBlock[] }>('blocks');
  assert.equal(oursBlocks.blocks.map((b) => [b.id, b.startTime, b.endTime, b.actualEndTime, b.isGap, b.isActive, b.entries]),
    theirsBlocks.blocks.map((b) => [b.id, b.startTime, b.endTime, b.actualEndTime, b.isGap, b.isActive, b.entries]));
  oursBlocks.blocks.forEach((b, i) => {
    const t = theirsBlocks.blocks[i]!;
    assert.equal(b.tokenCounts, t.tokenCounts);
    assert.is(b.totalTokens, t.totalTokens);
    assert.equal([...b.models].sort(), [...t.models].sort());
    close(b.costUSD, t.costUSD, b.id);
  });
});

Ccusage.run();

const Filters = suite('filters, tables and exit codes');

Filters('--since/--until (both date forms) and --project narrow the report', async () => {
  const all = await json<{ daily: Day[] }>('daily');
  const some = await json<{ daily: Day[] }>('daily', '--since', '20250905', '--until', '2026-02-02');
  assert.equal(some.daily.map((d) => d.date), all.daily.map((d) => d.date).filter((d) => d >= '2025-09-05' && d <= '2026-02-02'));
  assert.ok(some.daily.length >= 1 && some.daily.length < all.daily.length);
  const sessions = await json<{ sessions: Session[]; totals: Totals }>('session', '--project', 'sample-project');
  assert.ok(sessions.sessions.length >= 1);
  assert.ok(sessions.sessions.every((s) => s.projectPath === 'sample-project'));
  close(sessions.totals.totalCost, sessions.sessions.reduce((n, s) => n + s.totalCost, 0), 'project total');
  const none = await json<{ daily: Day[]; totals: Totals }>('daily', '--project', 'no-such-project');
  assert.equal(none.daily, []);
  assert.is(none.totals.totalCost, 0);
});

Filters('tables fit the terminal: all columns when wide, the date and cost kept when narrow', async () => {
  const wide = await cli(['daily', ...base], { env: { ...env, COLUMNS: '200' } });
  assert.is(wide.code, 0);
  for (const h of ['Date', 'Models', 'Input', 'Output', 'Cache Create', 'Cache Read', 'Total Tokens', 'Cost (USD)']) assert.ok(wide.stdout.includes(h), h);
  const all = await json<{ daily: Day[]; totals: Totals }>('daily');
  assert.ok(wide.stdout.includes(`$${all.totals.totalCost.toFixed(2)}`));
  for (const report of ['daily', 'weekly', 'monthly', 'session', 'blocks']) {
    const narrow = await cli([report, ...base], { env: { ...env, COLUMNS: '40' } });
    assert.is(narrow.code, 0, narrow.stderr);
    const lines = narrow.stdout.trimEnd().split('\n');
    assert.ok(lines.every((l) => displayWidth(l) <= 40), `${report} fits 40 columns:\n${narrow.stdout}`);
    assert.ok(lines[0]!.includes('Cost (USD)'), report);
  }
});

Filters('--help on every command; bad input is one line and exit code 2', async () => {
  for (const command of ['daily', 'weekly', 'monthly', 'session', 'blocks', 'statusline', 'update']) {
    const r = await cli([command, '--help']);
    assert.is(r.code, 0);
    assert.ok(r.stdout.startsWith(`Usage: cost-dashboard ${command}`), r.stdout);
  }
  const server = await cli(['--help']);
  assert.ok(/cost-dashboard <command>/.test(server.stdout), 'the server help names the commands');
  const bad: [string[], RegExp][] = [
    [['dialy'], /Unknown command: dialy/],
    [['daily', '--since', '2025-02-30'], /Invalid --since "2025-02-30"/],
    [['daily', '--until', 'yesterday'], /Invalid --until/],
    [['weekly', '--timezone', 'Mars/Olympus'], /Invalid --timezone/],
    [['session', '--project', '../etc'], /Invalid --project/],
    [['monthly', '--port', '1'], /Unknown option for monthly: --port/],
    [['blocks', '--since'], /--since needs a value/],
    [['daily', '--dir', path.join(dir, 'missing')], /Config dir not found/],
    [['daily', 'extra'], /Unexpected argument: extra/],
  ];
  for (const [args, message] of bad) {
    const r = await cli(args);
    assert.is(r.code, 2, args.join(' '));
    assert.is(r.stdout, '');
    assert.is(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.ok(message.test(r.stderr), r.stderr);
  }
});

Filters('a reader that stops early (`| head`): exit code 0, nothing on stderr, from either entry', async () => {
  for (const entry of [DIST_BIN, DIST_MAIN]) {
    for (const args of [['daily', '--json'], ['session']]) {
      // The read end closed before the report is written: its write fails with EPIPE.
      const child = spawn(process.execPath, [entry, ...args, ...base], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.is(code, 0, `${path.basename(entry)} ${args.join(' ')}: ${stderr}`);
      assert.is(stderr, '', `${path.basename(entry)} ${args.join(' ')}`);
    }
  }
});

Filters('a first index of a big history: a progress line on stderr, the report alone on stdout; the next run is quiet', async () => {
  const big = path.join(dir, 'big');
  execFileSync(process.execPath, [path.join(SHARED, 'tools/gen-corpus.mjs'), '--out', big, '--mb', '66', '--days', '30', '--seed', '3', '--projects', '4'], {
    stdio: 'ignore',
  });
  const flags = ['--dir', big, '--index', path.join(dir, 'big.db'), '--offline'];
  const first = await cli(['daily', '--json', ...flags], { env });
  assert.is(first.code, 0, first.stderr);
  assert.match(first.stderr, /^cost-dashboard: indexing \d+ transcripts \(66 MiB\); later runs read only what changed\ncost-dashboard: indexed in [\d.]+ s\n$/);
  const days = (JSON.parse(first.stdout) as { daily: Day[] }).daily;
  assert.ok(days.length >= 20, `${days.length} days`);
  const again = await cli(['daily', '--json', ...flags], { env });
  assert.is(again.stderr, '');
  assert.is(again.stdout, first.stdout);
});

Filters.run();
