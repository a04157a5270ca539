// Issue 32, "Done when": a generated late-2026 history (test/helpers/late-history.ts) indexed by the real command line
// and served by the real server, its figures per local day (and model within it), per model and per session (CLI
// daily/session --json, /api/overview, /api/sessions/:id) against an independent reckoning
// (test/helpers/expected-money.ts, which reads the transcripts and the catalogue itself and imports nothing from src/):
// cost to 1e-9, tokens exactly, in a whole-hour zone and in a :30 one. The legacy history (no field the late rules
// read) checks the reckoning itself against the index's older, long-tested rules. ccusage 20.0.24 over the same history
// must equal the reckoning under its rules (CCUSAGE_RULES), each of which differs from ours on this history and is
// listed in docs/counting-rules.md: the two tools differ there and nowhere else.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureCcusage } from '../../scripts/ensure-ccusage.mjs';
import { cli } from '../helpers/cli.ts';
import { CCUSAGE_RULES, expectedMoney, OUR_RULES, type Expected, type Figures, type Group, type Rules, type Run } from '../helpers/expected-money.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { writeLateCatalogue, writeLateHistory, type LateHistory } from '../helpers/late-history.ts';
import { PRICES_FILE, ROOT } from '../helpers/paths.ts';
import { spawnServer, standaloneEnv } from '../helpers/server-process.ts';
import { skipTest } from '../helpers/skip.ts';

interface Breakdown {
  modelName: string;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  cost: number;
}
interface Row {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalCost: number;
  modelBreakdowns: Breakdown[];
}
interface Daily {
  daily: (Row & { date: string })[];
  totals: Omit<Row, 'modelBreakdowns'>;
}
interface Sessions {
  sessions: (Row & { sessionId: string })[];
}

/** What the late history must carry for the comparison to cover every rule (late-history.ts names them). */
const LATE_FEATURES = [
  'geo "us"', 'geo "global"', 'geo "not_available"', 'geo ""', 'geo null', 'geo absent',
  'iteration message', 'iteration advisor_message claude-opus-4-8', 'iteration advisor_message claude-sonnet-4-5-20250929', 'iteration compaction',
  'writes only in the breakdown', 'writes above the breakdown', '1h writes', 'long context claude-sonnet-4-5-20250929', 'long context claude-sonnet-4-5[1m]',
  ...['claude-opus-4-6', 'claude-opus-4-7', 'claude-opus-4-8', 'claude-opus-5', 'claude-fable-5-2', 'claude-sonnet-4-5-20250929', 'claude-opus-4-6[1m]'].map((m) => `fast ${m}`),
  'web search', 'web fetch', 'fable served by opus', 'advisor replayed with more output', 'fast advisor',
];

const ZONES = ['America/Los_Angeles', 'Asia/Kolkata'];

const closeTo = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

function sameFigures(ours: { cost: number } & Omit<Figures, 'cost'>, want: Figures, where: string): void {
  assert.ok(closeTo(ours.cost, want.cost), `${where} cost: index ${ours.cost}, expected ${want.cost}`);
  assert.equal(
    [ours.inputTokens, ours.outputTokens, ours.cacheCreationTokens, ours.cacheReadTokens],
    [want.inputTokens, want.outputTokens, want.cacheCreationTokens, want.cacheReadTokens],
    `${where} tokens (input, output, cache write, cache read)`,
  );
}

const rowFigures = (r: Row): Figures & Omit<Figures, 'cost'> => ({ ...r, cost: r.totalCost });

/** A row with its model breakdown against an expected group, both ways (no model missing, none extra). */
function sameGroup(row: Row, want: Group, where: string): void {
  sameFigures(rowFigures(row), want, where);
  const models = new Map(row.modelBreakdowns.map((m) => [m.modelName, m]));
  assert.equal([...models.keys()].sort(), [...want.models.keys()].sort(), `${where}: models`);
  for (const [model, w] of want.models) sameFigures(models.get(model)!, w, `${where} ${model}`);
}

/** The index's daily and session reports through the built command line, in `zone`. */
async function reports(h: LateHistory, index: string, prices: string, zone: string): Promise<{ daily: Daily; sessions: Sessions }> {
  const common = ['--json', '--dir', h.dir, '--index', index, '--prices', prices, '--offline', '--timezone', zone, '--since', h.since, '--until', h.until];
  const run = async (report: string): Promise<unknown> => {
    const r = await cli([report, ...common], { timeoutMs: 120_000 });
    assert.is(r.code, 0, `${report}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };
  return { daily: (await run('daily')) as Daily, sessions: (await run('session')) as Sessions };
}

/** Every day, model and session of the reports against the expected figures. */
function compare(got: { daily: Daily; sessions: Sessions }, want: Expected, zone: string): void {
  const days = new Map(got.daily.daily.map((d) => [d.date, d]));
  assert.equal([...days.keys()].sort(), [...want.days.keys()].sort(), `${zone}: the days with usage`);
  for (const [day, w] of want.days) sameGroup(days.get(day)!, w, `${zone} ${day}`);
  sameFigures(rowFigures({ ...got.daily.totals, modelBreakdowns: [] }), want.totals, `${zone} totals`);

  // Per model over the whole history: the days' breakdowns added up.
  const byModel = new Map<string, Figures>();
  for (const d of got.daily.daily) {
    for (const m of d.modelBreakdowns) {
      const f = byModel.get(m.modelName) ?? { cost: 0, inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0 };
      f.cost += m.cost;
      f.inputTokens += m.inputTokens;
      f.outputTokens += m.outputTokens;
      f.cacheCreationTokens += m.cacheCreationTokens;
      f.cacheReadTokens += m.cacheReadTokens;
      byModel.set(m.modelName, f);
    }
  }
  assert.equal([...byModel.keys()].sort(), [...want.totals.models.keys()].sort(), `${zone}: models`);
  for (const [model, w] of want.totals.models) sameFigures(byModel.get(model)!, w, `${zone} model ${model}`);

  const sessions = new Map(got.sessions.sessions.map((s) => [s.sessionId, s]));
  assert.equal([...sessions.keys()].sort(), [...want.sessions.keys()].sort(), `${zone}: sessions`);
  for (const [id, w] of want.sessions) sameGroup(sessions.get(id)!, w, `${zone} session ${id}`);
}

interface Overview {
  indexing: { done: boolean };
  totals: Figures;
  costByModel: (Figures & { model: string })[];
  costSeries: { bucket: string; points: { key: string; cost: number }[] };
}

/**
 * The real server on the same index, in `zone`: /api/overview's days and models and /api/sessions/:id of each
 * expected session against the expectation.
 */
async function compareServer(h: LateHistory, index: string, prices: string, zone: string, want: Expected): Promise<void> {
  const server = await spawnServer({
    args: ['--dir', h.dir, '--port', '0', '--index', index, '--offline', '--prices', prices],
    cwd: ROOT,
    env: standaloneEnv({ TZ: zone }),
  });
  try {
    const get = async <T>(route: string): Promise<T> => {
      const res = await fetch(`http://localhost:${server.port}${route}`);
      assert.ok(res.ok, `${route}: ${res.status}`);
      return (await res.json()) as T;
    };
    const range = `from=${h.since}&to=${h.until}`;
    let o = await get<Overview>(`/api/overview?${range}`);
    for (const deadline = Date.now() + 60_000; !o.indexing.done && Date.now() < deadline; o = await get<Overview>(`/api/overview?${range}`)) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(o.indexing.done, 'the server is up to date within 60 s');
    assert.is(o.costSeries.bucket, 'day');
    sameFigures(o.totals, want.totals, `${zone} /api/overview totals`);
    const days = new Map(o.costSeries.points.filter((p) => p.cost !== 0).map((p) => [p.key, p.cost]));
    assert.equal([...days.keys()].sort(), [...want.days.keys()].sort(), `${zone} /api/overview days`);
    for (const [day, w] of want.days) assert.ok(closeTo(days.get(day)!, w.cost), `${zone} /api/overview ${day}: ${days.get(day)} expected ${w.cost}`);
    const models = new Map(o.costByModel.map((m) => [m.model, m]));
    assert.equal([...models.keys()].sort(), [...want.totals.models.keys()].sort(), `${zone} /api/overview models`);
    for (const [model, w] of want.totals.models) sameFigures(models.get(model)!, w, `${zone} /api/overview ${model}`);
    for (const [id, w] of want.sessions) {
      const detail = await get<Figures & { workflows: (Figures & { runId: string; agents: number })[] }>(`/api/sessions/${encodeURIComponent(id)}?${range}`);
      sameFigures(detail, w, `${zone} /api/sessions/${id}`);
      // Workflow runs: each run's agents (the 0-byte one too) and figures.
      const runs = want.workflows.get(id) ?? new Map<string, Run>();
      assert.equal(detail.workflows.map((r) => r.runId).sort(), [...runs.keys()].sort(), `${zone} ${id} workflow runs`);
      for (const r of detail.workflows) {
        assert.is(r.agents, runs.get(r.runId)!.agents, `${zone} ${id} ${r.runId} agents`);
        sameFigures(r, runs.get(r.runId)!, `${zone} ${id} ${r.runId}`);
      }
    }
    assert.ok([...want.workflows.values()].reduce((n, m) => n + m.size, 0) >= 2, 'the history has workflow runs');
  } finally {
    await server.stop('SIGTERM', 5000);
  }
}

/** A model is reported under the name that served it, without a bracketed suffix such as `[1m]` (a context setting). */
const servedModel = (model: string): string => model.replace(/\[[^\]]*\]$/, '');

/** Generates a history, indexes it once and compares it in each zone. */
async function check(opts: { legacy: boolean }): Promise<{ want: Expected }> {
  const { dir: work, cleanup } = tempDir('cost-late-');
  try {
    const h = writeLateHistory(path.join(work, 'config'), { seed: 32, legacy: opts.legacy });
    const prices = path.join(work, 'catalogue.json');
    writeLateCatalogue(PRICES_FILE, prices);
    const catalogue = JSON.parse(fs.readFileSync(prices, 'utf8')) as Record<string, unknown>;
    const index = path.join(work, 'index.db');
    let want: Expected | null = null;
    for (const zone of ZONES) {
      want = expectedMoney(h.dir, catalogue, { timeZone: zone, modelName: servedModel });
      compare(await reports(h, index, prices, zone), want, zone);
      await compareServer(h, index, prices, zone, want);
    }
    return { want: want! };
  } finally {
    cleanup();
  }
}

const Late = suite('late-2026 history: the index against an independent reckoning');

Late('the late history carries every field of issue 32; the legacy one none of the late rules', () => {
  const { dir, cleanup } = tempDir('cost-late-f-');
  try {
    const late = writeLateHistory(path.join(dir, 'late'), { seed: 32 }).features;
    for (const f of LATE_FEATURES) assert.ok(late.has(f), `the history carries ${f}`);
    const legacy = writeLateHistory(path.join(dir, 'legacy'), { seed: 32, legacy: true }).features;
    const late2026 = [...legacy].filter((f) => /^(geo|iteration|writes (only|above)|web fetch)|^fast (?!claude-opus)|\[1m\]/.test(f));
    assert.equal(late2026, [], 'the legacy history holds no late-2026 field');
  } finally {
    cleanup();
  }
});

Late('legacy history (no late-2026 field): every day, model and session to 1e-9', async () => {
  const { want } = await check({ legacy: true });
  assert.ok(want.entries > 300, `${want.entries} entries`);
  assert.ok(want.sessions.size >= 15, `${want.sessions.size} sessions`);
  assert.ok(want.days.size >= 6, `${want.days.size} days`);
});

Late('late-2026 history (geo, advisor, fast, [1m], cache breakdown, workflows…): every day, model and session to 1e-9', async () => {
  const { want } = await check({ legacy: false });
  assert.ok(want.entries > 300, `${want.entries} entries`);
  assert.ok(want.totals.models.size >= 9, `${want.totals.models.size} models`);
});

/** Each rule where ccusage differs, by the bold label of its bullet in docs/counting-rules.md. */
const LISTED: Record<keyof Rules | 'catalogue', string> = {
  usOnly: 'US-only inference.',
  webSearch: 'Web search.',
  fastEstimate: 'Fast mode without a known multiplier',
  longContext: 'Long context.',
  cacheWrites: 'Cache writes above their breakdown.',
  progress: 'Progress lines.',
  tie: 'Equal copies in several files.',
  sessions: 'Sessions of workflows and old root agent files.',
  catalogue: 'Models ccusage\'s offline prices lack',
};

/** ccusage's binary; where it cannot be installed the test is skipped (counted as such), or fails under CI. */
function ccusageOrSkip(): string | null {
  try {
    return ensureCcusage();
  } catch (err) {
    const message = `CCUSAGE NOT INSTALLABLE: the late-2026 comparison did not run (${err instanceof Error ? err.message : String(err)})`;
    if (process.env.CI) throw new Error(message);
    skipTest(message);
    return null;
  }
}

interface CcRow {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalCost: number;
}

/** Where ccusage's rows and an expectation differ (keys, tokens, cost beyond 1e-9), as readable lines. */
function mismatches(rows: Map<string, CcRow>, want: Map<string, Figures>, what: string): string[] {
  const out: string[] = [];
  for (const key of new Set([...rows.keys(), ...want.keys()])) {
    const r = rows.get(key);
    const w = want.get(key);
    if (!r || !w) out.push(`${what} ${key}: only in ${r ? 'ccusage' : 'the expectation'}`);
    else if (!closeTo(r.totalCost, w.cost)) out.push(`${what} ${key} cost: ccusage ${r.totalCost}, expected ${w.cost}`);
    else if ([r.inputTokens - w.inputTokens, r.outputTokens - w.outputTokens, r.cacheCreationTokens - w.cacheCreationTokens, r.cacheReadTokens - w.cacheReadTokens].some((d) => d !== 0)) {
      out.push(`${what} ${key} tokens differ`);
    }
  }
  return out;
}

Late('ccusage 20.0.24 differs from us on the late history exactly where docs/counting-rules.md says', async () => {
  const bin = ccusageOrSkip();
  if (bin === null) return;
  const { dir: work, cleanup } = tempDir('cost-late-cc-');
  try {
    const h = writeLateHistory(path.join(work, 'config'), { seed: 32 });
    const cc = <T>(report: string): T =>
      JSON.parse(execFileSync(bin, ['claude', report, '--json', '--offline', '--timezone', 'UTC'], {
        env: { ...process.env, CLAUDE_CONFIG_DIR: h.dir, TZ: 'UTC' }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024,
      })) as T;
    const days = new Map(cc<{ daily: (CcRow & { date: string })[] }>('daily').daily.map((d) => [d.date, d]));
    const sessions = new Map(cc<{ sessions: (CcRow & { sessionId: string })[] }>('session').sessions.map((s) => [s.sessionId, s]));
    const fixture = JSON.parse(fs.readFileSync(PRICES_FILE, 'utf8')) as Record<string, unknown>;
    const lateFile = path.join(work, 'catalogue.json');
    writeLateCatalogue(PRICES_FILE, lateFile);
    const late = JSON.parse(fs.readFileSync(lateFile, 'utf8')) as Record<string, unknown>;
    // ccusage's daily and session reports read progress lines differently (CCUSAGE_RULES.progress is the daily's).
    const diff = (rules: Rules, catalogue: Record<string, unknown>): string[] => [
      ...mismatches(days, expectedMoney(h.dir, catalogue, { timeZone: 'UTC', rules }).days, 'day'),
      ...mismatches(sessions, expectedMoney(h.dir, catalogue, { timeZone: 'UTC', rules: { ...rules, progress: rules.progress === 'preferred' ? 'none' : rules.progress } }).sessions, 'session'),
    ];

    assert.ok(days.size >= 6 && sessions.size >= 15, `${days.size} days, ${sessions.size} sessions`);
    assert.equal(diff(CCUSAGE_RULES, fixture), [], 'ccusage = the reckoning under its rules');
    // Each listed rule alone, set to ours, makes the reckoning leave ccusage's figures: every listed difference is real.
    for (const rule of Object.keys(OUR_RULES) as (keyof Rules)[]) {
      assert.ok(diff({ ...CCUSAGE_RULES, [rule]: OUR_RULES[rule] }, fixture).length > 0, `${rule} makes no difference on this history`);
    }
    assert.ok(diff(CCUSAGE_RULES, late).length > 0, 'the late catalogue makes no difference');

    const doc = fs.readFileSync(path.join(ROOT, 'docs/counting-rules.md'), 'utf8');
    const section = /## Where ccusage's figures differ\n([\s\S]*?)\n## /.exec(doc)?.[1] ?? '';
    const labels = [...section.matchAll(/^- \*\*([^*]+)\*\*/gm)].map((m) => m[1]);
    assert.equal(labels.sort(), Object.values(LISTED).sort(), 'the documented differences are the reckoned ones');
  } finally {
    cleanup();
  }
});

Late.run();
