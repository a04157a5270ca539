// What a statusline render loads and reads (issue 13's latency): dist/main.js runs it from dist/statusline.js alone,
// whose imports are Node's built-ins and better-sqlite3's addon, so it renders with no other file of dist/ present
// (no chunk: no writer, worker pool, watcher or server module). Today's cost is exact in a :30 zone without the
// index's daily rollup: the UTC hours that straddle local midnight are read entry by entry, in the zone of the
// process or of --timezone, and it is the dashboard's figure for today.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Overview } from '../../src/shared/api-types.ts';
import { getJson, startAppServer, untilIndexed } from '../helpers/app-server.ts';
import { PRICES_FILE, ROOT } from '../helpers/paths.ts';
import { cli } from '../helpers/cli.ts';
import { tempDir, writeJsonl } from '../helpers/jsonl.ts';

const { dir } = tempDir('cli-statusline-bundle-');
const SID = '7d2f4c11-9a0e-4b7e-8f31-0c5d2e6a4b10';
const ZONE = 'Asia/Kolkata'; // UTC+5:30: local midnight is 18:30 UTC
const usd = (n: number): string => `$${n.toFixed(2)}`;

const line = (id: string, ts: number, output: number) => ({
  type: 'assistant', timestamp: new Date(ts).toISOString(), sessionId: SID, requestId: `req-${id}`, cwd: '/home/u/proj',
  message: { id: `msg-${id}`, model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 1000, output_tokens: output } },
});
const status = (transcript: string) => JSON.stringify({ session_id: SID, transcript_path: transcript, model: { id: 'claude-sonnet-4-5-20250929', display_name: 'Sonnet 4.5' } });
const todayOf = (text: string): string => /\/ (\$[\d.]+) today/.exec(text)?.[1] ?? text;

/** Local midnight of today in ZONE, as epoch ms (ZONE has no DST). */
function zoneMidnight(now: number): number {
  const ist = new Date(now + 5.5 * 3_600_000);
  return Date.UTC(ist.getUTCFullYear(), ist.getUTCMonth(), ist.getUTCDate()) - 5.5 * 3_600_000;
}

/** A session with entries 20 min before today's local midnight, after it, before the next and after the next. */
function corpus() {
  const root = path.join(dir, 'cfg');
  const transcript = path.join(root, 'projects', '-home-u-proj', `${SID}.jsonl`);
  const m = zoneMidnight(Date.now());
  const MIN = 60_000;
  writeJsonl(transcript, [
    line('yesterday', m - 20 * MIN, 200_000),
    line('early', m + 10 * MIN, 100_000),
    line('later', m + 50 * MIN, 40_000),
    line('late', m + 24 * 60 * MIN - 10 * MIN, 20_000),
    line('tomorrow', m + 24 * 60 * MIN + 10 * MIN, 300_000),
  ]);
  return { root, transcript, flags: ['--dir', root, '--index', path.join(dir, 'index.db'), '--offline', '--prices', PRICES_FILE] };
}

const c = corpus();
const t = suite('statusline bundle');

t.before(async () => {
  const update = await cli(['update', ...c.flags], { env: { TZ: ZONE } });
  assert.is(update.code, 0, update.stderr);
});

t('dist/statusline.js imports only built-ins and the addon, and renders with no other file of dist/', async () => {
  const bundle = fs.readFileSync(path.join(ROOT, 'dist/statusline.js'), 'utf8');
  const imports = [...bundle.matchAll(/^import .* from ["']([^"']+)["']/gm), ...bundle.matchAll(/\bimport\(["']([^"']+)["']\)/g)].map((m) => m[1]!);
  assert.ok(imports.length > 0);
  for (const spec of imports) assert.ok(spec.startsWith('node:'), `statusline.js imports ${spec}`);
  const required = [...bundle.matchAll(/\b__require\(["']([^"']+)["']\)|\brequire\(["']([^"']+)["']\)/g)].map((m) => m[1] ?? m[2]!);
  for (const spec of required) assert.ok(spec.startsWith('node:') || !spec.includes('/') || spec === 'better-sqlite3/build/Release/better_sqlite3.node', `statusline.js requires ${spec}`);
  for (const dep of ['piscina', 'chokidar', 'polka', 'sirv']) assert.not.ok(required.includes(dep), `statusline.js requires ${dep}`);

  // A dist/ with main.js and statusline.js only (under the repository, so node_modules resolves as from dist/).
  fs.mkdirSync(path.join(ROOT, 'test-artifacts'), { recursive: true });
  const lone = fs.mkdtempSync(path.join(ROOT, 'test-artifacts', 'statusline-'));
  process.once('exit', () => fs.rmSync(lone, { recursive: true, force: true }));
  for (const f of ['main.js', 'statusline.js']) fs.copyFileSync(path.join(ROOT, 'dist', f), path.join(lone, f));
  const r = spawnSync(process.execPath, [path.join(lone, 'main.js'), 'statusline', ...c.flags], { input: status(c.transcript), encoding: 'utf8', env: { ...process.env, TZ: ZONE } });
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /^🤖 Sonnet 4\.5 \| 💰 \$[\d.]+ session \/ \$[\d.]+ today/);
});

t(`today in a :30 zone (${ZONE}) is the dashboard's today, from TZ or --timezone`, async () => {
  const server = await startAppServer({ dir: c.root, env: { TZ: ZONE } });
  try {
    await untilIndexed(server, 20_000);
    const o = await getJson<Overview>(server, '/api/overview?range=today');
    assert.ok(o.today && o.today.messages === 3, `today holds the three entries of the local day: ${JSON.stringify(o.today)}`);
    const session = await cli(['session', '--json', ...c.flags], { env: { TZ: ZONE } });
    const total = (JSON.parse(session.stdout) as { totals: { totalCost: number } }).totals.totalCost;
    assert.ok(total - o.today.cost > 1, 'the entries outside the day cost something');
    for (const [env, extra] of [[{ TZ: ZONE }, []], [{ TZ: 'UTC' }, ['--timezone', ZONE]]] as const) {
      const r = await cli(['statusline', ...c.flags, ...extra], { input: status(c.transcript), env });
      assert.is(r.code, 0, r.stderr);
      assert.is(todayOf(r.stdout), usd(o.today.cost), `${JSON.stringify(env)} ${extra.join(' ')}: ${r.stdout}`);
    }
  } finally {
    await server.close();
  }
});

t.run();
