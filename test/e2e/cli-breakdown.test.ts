// `--breakdown` on the built command line's reports (issue 32, as ccusage's flag): a row per model under each row of
// the daily, weekly, monthly and session tables, whose costs add up to the row's, and the same per-model figures as
// the JSON's modelBreakdowns; blocks refuses it.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { PRICES_FILE } from '../helpers/paths.ts';
import { writeReceiptHistory } from '../helpers/receipt-history.ts';

const { dir } = tempDir('cli-breakdown-');
writeReceiptHistory(path.join(dir, 'config', 'projects'), Date.now());
const base = ['--dir', path.join(dir, 'config'), '--index', path.join(dir, 'index.db'), '--prices', PRICES_FILE, '--offline', '--timezone', 'UTC'];
const env = { TZ: 'UTC', COLUMNS: '200' };

interface Breakdown { modelName: string; inputTokens: number; outputTokens: number; cacheCreationTokens: number; cacheReadTokens: number; cost: number }
interface Row { totalCost: number; modelBreakdowns: Breakdown[]; date?: string; month?: string; week?: string; sessionId?: string }

async function run(...args: string[]): Promise<string> {
  const r = await cli([...args, ...base], { env });
  assert.is(r.code, 0, r.stderr);
  return r.stdout;
}

const usd = (n: number): string => `$${n.toFixed(2)}`;
const short = (name: string): string => name.replace(/^claude-/, '').replace(/-\d{8}$/, '');

const t = suite('--breakdown');

for (const [command, field] of [['daily', 'daily'], ['weekly', 'weekly'], ['monthly', 'monthly'], ['session', 'sessions']] as const) {
  t(`${command}: a row per model under each row, as the JSON's modelBreakdowns`, async () => {
    const rows = (JSON.parse(await run(command, '--json', '--breakdown')) as Record<string, Row[]>)[field]!;
    assert.equal(JSON.parse(await run(command, '--json')), JSON.parse(await run(command, '--json', '-b')), 'the JSON always has the breakdown');
    assert.ok(rows.length >= 2, `${command}: ${rows.length} rows`);
    const plain = (await run(command)).split('\n');
    const table = (await run(command, '--breakdown')).split('\n');
    const sub = table.filter((l) => l.trimStart().startsWith('└'));
    assert.is(plain.filter((l) => l.includes('└')).length, 0, 'no model rows without the flag');
    assert.is(sub.length, rows.reduce((n, r) => n + r.modelBreakdowns.length, 0), `${command}: one line per model of each row`);
    let at = 0;
    for (const r of rows) {
      // The model rows follow their row, in the JSON's order, each with its own cost; together they are the row's.
      const own = table.slice(table.findIndex((l, i) => i >= at && l.includes(usd(r.totalCost))) + 1);
      let sum = 0;
      r.modelBreakdowns.forEach((m, i) => {
        const line = own[i]!;
        assert.ok(line.includes(`└ ${short(m.modelName)}`), `${command}: ${line} for ${m.modelName}`);
        assert.ok(line.trimEnd().endsWith(usd(m.cost)), `${command}: ${line} ends with ${usd(m.cost)}`);
        assert.ok(line.includes(m.outputTokens.toLocaleString('en-US')), `${command}: ${line} has ${m.outputTokens} output tokens`);
        sum += m.cost;
      });
      assert.ok(Math.abs(sum - r.totalCost) < 1e-9, `${command}: the models add up to the row`);
      at = table.indexOf(own[r.modelBreakdowns.length - 1]!) + 1;
    }
  });
}

t('blocks has no per-model figures: --breakdown is refused, and --help says which reports take it', async () => {
  const r = await cli(['blocks', '--breakdown', ...base], { env });
  assert.is(r.code, 2);
  assert.match(r.stderr, /Unknown option for blocks: --breakdown/);
  assert.match((await cli(['daily', '--help'])).stdout, /-b, --breakdown/);
  assert.not.match((await cli(['blocks', '--help'])).stdout, /--breakdown/);
});

t.run();
