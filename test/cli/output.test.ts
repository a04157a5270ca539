// The command line's pure parts: arguments, weeks and months, ccusage-shaped blocks with gaps, the
// statusline's text, and tables that fit a width.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Totals } from '../../src/shared/api-types.ts';
import type { DayUsage, ReportBlock } from '../../src/index-db/queries/reports.ts';
import { parseCliArgs } from '../../src/cli/args.ts';
import { blocksJson, blocksTable, periodsOf, weekOf } from '../../src/cli/report-output.ts';
import { statusLine } from '../../src/cli/statusline.ts';
import { displayWidth, renderTable, type Column } from '../../src/cli/table.ts';
import { ConfigError } from '../../src/config/config.ts';
import { tempDir } from '../helpers/jsonl.ts';

const totals = (cost: number, tokens: number): Totals => ({
  cost, messages: 1, inputTokens: tokens, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, totalTokens: tokens,
});

const Args = suite('arguments');
const { dir: home } = tempDir('cli-args-');

Args('long, short and = forms; project names that start with a dash', () => {
  const a = parseCliArgs(['daily', '-j', '-s', '20250101', '--until=2025-02-28', '--project', '-Users-me-repo', '-z', 'Asia/Kolkata'], { HOME: home });
  assert.equal([a.command, a.json, a.since, a.until, a.project, a.timezone], ['daily', true, '2025-01-01', '2025-02-28', '-Users-me-repo', 'Asia/Kolkata']);
  const b = parseCliArgs(['statusline', '--index', '/tmp/x.db', '--offline'], { HOME: home });
  assert.equal(b.serverFlags, ['--index=/tmp/x.db', '--offline']);
  assert.is(b.config.indexPath, '/tmp/x.db');
});

Args('the default index file is the server\'s for the same dirs', async () => {
  const { parseConfig } = await import('../../src/config/config.ts');
  const env = { HOME: home, XDG_CACHE_HOME: '' };
  assert.is(parseCliArgs(['daily'], env).config.indexPath, parseConfig([], env).indexPath);
  assert.is(parseCliArgs(['daily', '--offline'], { ...env, PORT: 'not-a-port' }).config.indexPath, parseConfig([], env).indexPath);
});

Args('bad input throws one ConfigError line', () => {
  for (const argv of [['daily', '--since', '2025-02-30'], ['daily', '--since', '2025-1-5'], ['blocks', '--json=yes'], ['session', '-x'], ['statusline', '--json'], ['nope']]) {
    try {
      parseCliArgs(argv, { HOME: home });
      assert.unreachable(argv.join(' '));
    } catch (err) {
      assert.instance(err, ConfigError, argv.join(' '));
      assert.not.match((err as Error).message, /\n/);
    }
  }
});

Args.run();

const Periods = suite('weeks and months');

Periods('weeks start on Monday; days merge by model name', () => {
  assert.is(weekOf('2025-09-07'), '2025-09-01'); // a Sunday
  assert.is(weekOf('2025-09-08'), '2025-09-08'); // a Monday
  assert.is(weekOf('2026-01-01'), '2025-12-29'); // across a year
  const day = (d: string, cost: number, models: [string, number][]): DayUsage => ({
    day: d, totals: totals(cost, 10), models: models.map(([model, c]) => ({ model, ...totals(c, 5) })),
  });
  const days = [day('2025-09-06', 3, [['a', 1], ['b', 2]]), day('2025-09-07', 4, [['a', 4]]), day('2025-09-08', 1, [['b', 1]])];
  const weeks = periodsOf(days, 'weekly');
  assert.equal(weeks.map((w) => [w.key, w.totals.cost, w.totals.totalTokens]), [['2025-09-01', 7, 20], ['2025-09-08', 1, 10]]);
  assert.equal(weeks[0]!.models.map((m) => [m.model, m.cost, m.totalTokens]), [['a', 5, 10], ['b', 2, 5]]);
  assert.is(days[0]!.models[0]!.cost, 1, 'the days themselves are left as they were');
  assert.equal(periodsOf(days, 'monthly').map((m) => m.key), ['2025-09']);
});

Periods.run();

const Blocks = suite('blocks as ccusage shapes them');

const block = (start: string, first: string, last: string, active = false): ReportBlock => ({
  start, end: new Date(Date.parse(start) + 5 * 3_600_000).toISOString(), firstActivity: first, lastActivity: last, cost: 2, totalTokens: 600,
  inputTokens: 100, outputTokens: 200, cacheCreationTokens: 100, cacheReadTokens: 200, messages: 3, models: ['m'], modelCosts: [{ model: 'm', cost: 2 }], active,
  burn: active ? { costPerHour: 1.5, tokensPerMinute: 10, projectedCost: 7.5, minutesLeft: 100.4 } : null, limitHit: null,
});

Blocks('a gap entry only after more than 5 h without usage, ending at the next entry', () => {
  const out = blocksJson([
    block('2025-01-01T00:00:00.000Z', '2025-01-01T00:10:00.000Z', '2025-01-01T01:00:00.000Z'),
    // 4 h 59 m later: no gap
    block('2025-01-01T05:00:00.000Z', '2025-01-01T05:59:00.000Z', '2025-01-01T06:30:00.000Z'),
    block('2025-01-02T09:00:00.000Z', '2025-01-02T09:20:00.000Z', '2025-01-02T09:40:00.000Z', true),
  ]) as { blocks: Record<string, unknown>[] };
  assert.equal(out.blocks.map((b) => [b.id, b.isGap]), [
    ['2025-01-01T00:00:00.000Z', false], ['2025-01-01T05:00:00.000Z', false],
    ['gap-2025-01-01T11:30:00.000Z', true], ['2025-01-02T09:00:00.000Z', false],
  ]);
  assert.is(out.blocks[2]!.endTime, '2025-01-02T09:20:00.000Z');
  assert.equal(out.blocks[0]!.tokenCounts, { inputTokens: 100, outputTokens: 200, cacheCreationInputTokens: 100, cacheReadInputTokens: 200 });
  assert.equal(out.blocks[3]!.burnRate, { costPerHour: 1.5, tokensPerMinute: 10 });
  assert.equal(out.blocks[3]!.projection, { totalTokens: 3000, totalCost: 7.5, remainingMinutes: 100 });
  assert.is(out.blocks[0]!.projection, null);
});

Blocks('the table: a finished block\'s duration and the active one\'s time left, under one header that says both', () => {
  const text = blocksTable([
    block('2025-01-01T00:00:00.000Z', '2025-01-01T00:10:00.000Z', '2025-01-01T04:53:00.000Z'),
    block('2025-01-02T09:00:00.000Z', '2025-01-02T09:20:00.000Z', '2025-01-02T09:40:00.000Z', true),
  ], 200);
  const [header, , finished, active] = text.split('\n');
  assert.match(header!, /Duration \/ Status/);
  assert.match(finished!, /4h 53m/);
  assert.match(active!, /ACTIVE, 1h 40m left/);
});

Blocks.run();

const Line = suite('statusline text');

Line('model, session, today, block with time left and burn rate; no block; an unknown session', () => {
  const active = block('2025-01-02T09:00:00.000Z', '2025-01-02T09:20:00.000Z', '2025-01-02T09:40:00.000Z', true);
  assert.is(statusLine('Opus 4.5', { sessionCost: 1.234, todayCost: 10.5, block: active, todayFinal: true }),
    '🤖 Opus 4.5 | 💰 $1.23 session / $10.50 today / $2.00 block (1h 40m left) | 🔥 $1.50/hr');
  assert.is(statusLine('Sonnet', { sessionCost: null, todayCost: 0, block: null, todayFinal: true }), '🤖 Sonnet | 💰 $0.00 session / $0.00 today / no active block');
});

Line('today "so far" while a first index may still add to it', () => {
  assert.is(statusLine('Sonnet', { sessionCost: 2, todayCost: 3, block: null, todayFinal: false }), '🤖 Sonnet | 💰 $2.00 session / $3.00 today so far / no active block');
});

Line.run();

const Table = suite('tables');

Table('columns are left out least important first, a flexible one shortened first, until the width fits', () => {
  type R = { k: string; name: string; a: string; b: string };
  const columns: Column<R>[] = [
    { header: 'Key', keep: Infinity, cell: (r) => r.k },
    { header: 'Name', keep: 5, flex: true, cell: (r) => r.name },
    { header: 'A', keep: 1, right: true, cell: (r) => r.a },
    { header: 'Bee', keep: Infinity, right: true, cell: (r) => r.b },
  ];
  const rows = [{ k: '2025-01-01', name: 'a rather long model list, and more', a: '1,234', b: '$1.00' }];
  const wide = renderTable(columns, rows, { k: 'Total', name: '', a: '1,234', b: '$1.00' }, 200);
  assert.is(wide.split('\n')[0], 'Key         Name                                    A    Bee');
  assert.ok(wide.includes('a rather long model list, and more'));
  const mid = renderTable(columns, rows, null, 45);
  assert.ok(mid.split('\n').every((l) => l.length <= 45), mid);
  assert.ok(mid.includes('…') && mid.includes('1,234'), 'the model list shortened before a column goes');
  const narrow = renderTable(columns, rows, null, 20);
  assert.is(narrow.split('\n')[0], 'Key           Bee');
  assert.ok(narrow.split('\n').every((l) => l.length <= 20), narrow);
});

Table('wide (CJK) characters count two columns, so rows stay aligned', () => {
  assert.is(displayWidth('最新の状態'), 10);
  type R = { t: string; c: string };
  const columns: Column<R>[] = [
    { header: 'Title', keep: Infinity, flex: true, cell: (r) => r.t },
    { header: 'Cost', keep: Infinity, right: true, cell: (r) => r.c },
  ];
  const out = renderTable(columns, [{ t: '/init', c: '$1.00' }, { t: '@CLAUDE.md を最新の状態に', c: '$2.00' }], null, 80).trimEnd().split('\n');
  assert.is(new Set(out.map(displayWidth)).size, 1, out.join('\n'));
  const cut = renderTable(columns, [{ t: '@CLAUDE.md を最新の状態にアップデートして', c: '$2.00' }], null, 24).trimEnd().split('\n');
  assert.ok(cut.every((l) => displayWidth(l) <= 24) && cut[2]!.includes('…'), cut.join('\n'));
});

Table.run();
