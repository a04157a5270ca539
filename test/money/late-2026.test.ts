// Issue 32, "Done when": a generated late-2026 history (test/helpers/late-history.ts) indexed by the real command line,
// its figures per local day (and model within it), per model and per session against an independent reckoning
// (test/helpers/expected-money.ts, which reads the transcripts and the catalogue itself and imports nothing from src/):
// cost to 1e-9, tokens exactly, in a whole-hour zone and in a :30 one. The legacy history (no field the late rules
// read) checks the reckoning itself against the index's older, long-tested rules.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { cli } from '../helpers/cli.ts';
import { expectedMoney, type Expected, type Figures, type Group } from '../helpers/expected-money.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { writeLateCatalogue, writeLateHistory, type LateHistory } from '../helpers/late-history.ts';
import { PRICES_FILE } from '../helpers/paths.ts';

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

/** Generates a history, indexes it once and compares it in each zone. */
async function check(opts: { legacy: boolean }): Promise<Expected> {
  const { dir: work, cleanup } = tempDir('cost-late-');
  try {
    const h = writeLateHistory(path.join(work, 'config'), { seed: 32, legacy: opts.legacy });
    const prices = path.join(work, 'catalogue.json');
    writeLateCatalogue(PRICES_FILE, prices);
    const catalogue = JSON.parse(fs.readFileSync(prices, 'utf8')) as Record<string, unknown>;
    const index = path.join(work, 'index.db');
    let want: Expected | null = null;
    for (const zone of ZONES) {
      want = expectedMoney(h.dir, catalogue, { timeZone: zone });
      compare(await reports(h, index, prices, zone), want, zone);
    }
    return want!;
  } finally {
    cleanup();
  }
}

const Late = suite('late-2026 history: the index against an independent reckoning');

Late('legacy history (no late-2026 field): every day, model and session to 1e-9', async () => {
  const want = await check({ legacy: true });
  assert.ok(want.entries > 300, `${want.entries} entries`);
  assert.ok(want.sessions.size >= 15, `${want.sessions.size} sessions`);
  assert.ok(want.days.size >= 6, `${want.days.size} days`);
});

Late.run();
