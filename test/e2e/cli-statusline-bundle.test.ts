// What a statusline render loads and reads (issue 13's latency): the installed executable (dist/cost-dashboard.cjs)
// and dist/main.js run it from dist/statusline.cjs alone, whose requires are Node's built-ins and better-sqlite3's
// addon, so it renders with no other file of dist/ present (no chunk: no writer, worker pool, watcher or server
// module), and loads no Node module beyond what Node's own start does but os and signal handling. Today's cost is exact in a :30 zone without the
// index's daily rollup: the UTC hours that straddle local midnight are read entry by entry, in the zone of the
// process or of --timezone, and it is the dashboard's figure for today. Every other command runs the same way from
// dist/commands.cjs alone (no chunk of the server build).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import module, { isBuiltin } from 'node:module';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Overview } from '../../src/shared/api-types.ts';
import { getJson, startAppServer, untilIndexed } from '../helpers/app-server.ts';
import { DIST_BIN, PRICES_FILE, ROOT } from '../helpers/paths.ts';
import { cli } from '../helpers/cli.ts';
import { tempDir, writeJsonl } from '../helpers/jsonl.ts';
import { skipTest } from '../helpers/skip.ts';

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

/** The Node modules a process loaded (process.moduleLoadList at exit, written by a --require'd probe). */
function loadedModules(args: string[], input: string, env: Record<string, string>): { list: string[]; stdout: string } {
  const out = path.join(lone, `modules-${process.hrtime.bigint()}.json`);
  // A real pipe on stdin (a shell's), as a statusline command gets its JSON.
  const r = spawnSync('/bin/sh', ['-c', 'printf "%s" "$INPUT" | "$NODE" --require "$PROBE" "$@"', 'sh', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env, INPUT: input, NODE: process.execPath, PROBE: probe, PROBE_OUT: out },
  });
  assert.is(r.status, 0, r.stderr);
  return { list: JSON.parse(fs.readFileSync(out, 'utf8')) as string[], stdout: r.stdout };
}

// A dist/ copy to run alone (under the repository, so node_modules resolves as from dist/).
fs.mkdirSync(path.join(ROOT, 'test-artifacts'), { recursive: true });
const lone = fs.mkdtempSync(path.join(ROOT, 'test-artifacts', 'statusline-'));
process.once('exit', () => fs.rmSync(lone, { recursive: true, force: true }));
const probe = path.join(lone, 'probe.cjs');
fs.writeFileSync(probe, "process.on('exit', () => require('node:fs').writeFileSync(process.env.PROBE_OUT, JSON.stringify(process.moduleLoadList)));\n");

t('dist/statusline.cjs requires only built-ins and the addon, and imports nothing (no ES module loader)', () => {
  const bundle = fs.readFileSync(path.join(ROOT, 'dist/statusline.cjs'), 'utf8');
  assert.not.match(bundle, /\bimport\(/, 'an import() starts the ES module loader');
  const required = [...bundle.matchAll(/\b__require\(["']([^"']+)["']\)|\brequire\(["']([^"']+)["']\)/g)].map((m) => m[1] ?? m[2]!);
  assert.ok(required.length > 0);
  for (const spec of required) assert.ok(isBuiltin(spec) || spec === 'better-sqlite3/build/Release/better_sqlite3.node', `statusline.cjs requires ${spec}`);
});

t('the installed executable renders from dist/cost-dashboard.cjs and dist/statusline.cjs alone, loading no Node module that `node -e 0` does not but os and signals', () => {
  for (const f of ['cost-dashboard.cjs', 'statusline.cjs']) fs.copyFileSync(path.join(ROOT, 'dist', f), path.join(lone, f));
  const render = loadedModules([path.join(lone, 'cost-dashboard.cjs'), 'statusline', ...c.flags], status(c.transcript), { TZ: ZONE });
  assert.match(render.stdout, /^🤖 Sonnet 4\.5 \| 💰 \$[\d.]+ session \/ \$[\d.]+ today/);
  const floor = new Set(loadedModules(['-e', '0'], '', {}).list);
  // No stream or socket (stdin, stdout), crypto (the index file's name), ES module loader or child_process; vm
  // compiles the bundle with V8's code cache (src/code-cache.cts).
  const allowed = new Set(['NativeModule os', 'Internal Binding os', 'Internal Binding signal_wrap', 'NativeModule vm']);
  assert.equal(render.list.filter((m) => !floor.has(m) && !allowed.has(m)), []);
});

t('the bundle is compiled through a V8 code cache beside it, named for this build: written by the first render, read by the next, a damaged one replaced', () => {
  if (typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function') return skipTest('Node >= 22.1 caches compiled code itself');
  const run = () => spawnSync(process.execPath, [path.join(lone, 'cost-dashboard.cjs'), 'statusline', ...c.flags], { input: status(c.transcript), encoding: 'utf8', env: { ...process.env, TZ: ZONE } });
  const bundle = path.join(lone, 'statusline.cjs');
  const caches = () => fs.readdirSync(lone).filter((f) => f.endsWith('.v8cache'));
  for (const f of caches()) fs.rmSync(path.join(lone, f));
  // The session's and today's cost (the block's time left moves with the clock).
  const figures = (r: { stdout: string }): string => /💰 \$[\d.]+ session \/ \$[\d.]+ today/.exec(r.stdout)?.[0] ?? r.stdout;
  const first = run();
  assert.is(first.status, 0, first.stderr);
  assert.match(figures(first), /session/);
  const st = fs.statSync(bundle);
  assert.equal(caches(), [`statusline.cjs.${process.version}-${st.size}-${Math.trunc(st.mtimeMs)}.v8cache`]);
  const cache = path.join(lone, caches()[0]!);
  const written = fs.statSync(cache).mtimeMs;
  const second = run();
  assert.is(figures(second), figures(first));
  assert.is(fs.statSync(cache).mtimeMs, written, 'an accepted cache is not written again');
  fs.writeFileSync(cache, 'not V8 code');
  const third = run();
  assert.is(figures(third), figures(first));
  assert.ok(fs.statSync(cache).size > 1000, 'a rejected cache is written anew');
  // Another build of the bundle (its mtime moves): another cache, so the old code is never run for it.
  fs.utimesSync(bundle, new Date(), new Date(st.mtimeMs + 5000));
  assert.is(figures(run()), figures(first));
  assert.is(caches().length, 2);
});

t('dist/main.js renders from dist/statusline.cjs too (no chunk of the server or the command line)', () => {
  fs.copyFileSync(path.join(ROOT, 'dist/main.js'), path.join(lone, 'main.js'));
  const r = spawnSync(process.execPath, [path.join(lone, 'main.js'), 'statusline', ...c.flags], { input: status(c.transcript), encoding: 'utf8', env: { ...process.env, TZ: ZONE } });
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /^🤖 Sonnet 4\.5 \| 💰 \$[\d.]+ session \/ \$[\d.]+ today/);
});

t('every other command runs from dist/commands.cjs alone (built-ins, the addon, Piscina for a big catch-up), from the installed executable and from dist/main.js', async () => {
  const bundle = fs.readFileSync(path.join(ROOT, 'dist/commands.cjs'), 'utf8');
  assert.not.match(bundle, /\bimport\(/, 'an import() starts the ES module loader');
  const required = [...bundle.matchAll(/\b__require\(["']([^"']+)["']\)|\brequire\(["']([^"']+)["']\)/g)].map((m) => m[1] ?? m[2]!);
  for (const spec of required) assert.ok(isBuiltin(spec) || spec === 'piscina' || spec === 'better-sqlite3/build/Release/better_sqlite3.node', `commands.cjs requires ${spec}`);
  // No chunk of the server build beside them: a report must not need one.
  for (const f of ['cost-dashboard.cjs', 'commands.cjs', 'main.js']) fs.copyFileSync(path.join(ROOT, 'dist', f), path.join(lone, f));
  for (const entry of ['cost-dashboard.cjs', 'main.js']) {
    const daily = await cli(['daily', '--json', ...c.flags], { entry: path.join(lone, entry), env: { TZ: ZONE } });
    assert.is(daily.code, 0, `${entry}: ${daily.stderr}`);
    assert.ok((JSON.parse(daily.stdout) as { daily: unknown[] }).daily.length >= 2);
    const unknown = await cli(['bogus'], { entry: path.join(lone, entry) });
    assert.is(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown command: bogus/);
  }
  // A flag first is the server's: --version from the real dist/.
  const version = await cli(['--version'], { entry: DIST_BIN });
  assert.is(version.stdout.trim(), (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
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
