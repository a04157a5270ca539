// The built command line and plan limits: `cost-dashboard statusline` fed Claude Code's status JSON with
// `rate_limits` keeps each changed reading and shows the windows; bad readings are skipped and counted while the line
// still prints; `--wrap` prints the wrapped command's output (same stdin, its exit status, killed past its time
// limit) and still keeps the readings; `cost-dashboard limits` shows them with the transcripts' hits (table, --json).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LimitsData } from '../../src/shared/api-types.ts';
import { cli, type CliOptions, type CliResult } from '../helpers/cli.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { hitLine, throttleLine } from '../helpers/limit-lines.ts';
import { DIST_BIN, PRICES_FILE } from '../helpers/paths.ts';

const { dir } = tempDir('cli-limits-');
const SID = '7d2c1a9e-3b1f-4c8e-9a55-0e6f1d2c3b4a';
const H = 3_600_000;
let n = 0;

const run = (args: string[], opts: CliOptions = {}): Promise<CliResult> => cli(args, { entry: DIST_BIN, ...opts });

function setup() {
  const root = path.join(dir, `cfg${++n}`);
  const transcript = path.join(root, 'projects', '-home-u-proj', `${SID}.jsonl`);
  const now = Date.now();
  writeJsonl(transcript, [
    usageLine({ sessionId: SID, messageId: `m${n}`, requestId: `r${n}`, timestamp: new Date(now - 2 * H).toISOString() }),
    hitLine("You've hit your session limit · resets 9:50pm (Asia/Saigon)", now - 90 * 60_000, { sessionId: SID }),
    throttleLine(now - 80 * 60_000),
  ]);
  const index = path.join(dir, `index${n}.db`);
  return { root, transcript, index, flags: ['--dir', root, '--index', index, '--prices', PRICES_FILE] };
}

/** Claude Code's status JSON, with `rate_limits` as 2.1.80+ sends it to a subscriber. */
const status = (transcript: string, rateLimits: unknown) =>
  JSON.stringify({
    session_id: SID, transcript_path: transcript, cwd: '/home/u/proj', hook_event_name: 'Status',
    model: { id: 'claude-opus-4-5', display_name: 'Opus 4.5' }, workspace: { current_dir: '/home/u/proj', project_dir: '/home/u/proj' },
    version: '2.1.81', output_style: { name: 'default' }, cost: { total_cost_usd: 0.42 },
    ...(rateLimits === undefined ? {} : { rate_limits: rateLimits }),
  });

/** Resets as Claude Code sends them: fixed for the window, whatever the render. */
const NOW = Date.now();
const windows = (used5: number, used7: number, now = NOW) => ({
  five_hour: { used_percentage: used5, resets_at: Math.round((now + 2 * H) / 1000) },
  seven_day: { used_percentage: used7, resets_at: Math.round((now + 3 * 24 * H) / 1000) },
});

const sideLines = (index: string): string[] => (fs.existsSync(`${index}.limits`) ? fs.readFileSync(`${index}.limits`, 'utf8').trim().split('\n') : []);

const t = suite('plan limits on the command line');

t('a statusline line that cannot give the costs yet (no index so far) still shows the windows, from its input', async () => {
  const c = setup();
  const first = await run(['statusline', ...c.flags], { input: status(c.transcript, windows(42, 63)) });
  assert.is(first.code, 0, first.stderr);
  assert.match(first.stdout, /^🤖 Opus 4\.5 \| ⏳ 5h 42% → \d+% @\d\d:\d\d · 7d 63%[^|]* \| 💰 building the cost index/, first.stdout);
  // The background update it started builds the index; wait for it so the folder can go.
  const started = Date.now();
  while (!fs.existsSync(c.index) && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 100));
});

t('the statusline keeps each changed reading and shows the windows; `limits` lists them with the hits', async () => {
  const c = setup();
  assert.is((await run(['update', ...c.flags])).code, 0);
  const first = await run(['statusline', ...c.flags], { input: status(c.transcript, windows(42, 63)) });
  assert.is(first.code, 0, first.stderr);
  assert.match(first.stdout, /⏳ 5h 42% → \d+% @\d\d:\d\d · 7d 63%/);
  assert.match(first.stdout, /💰 \$[\d.]+ session/);
  assert.is(sideLines(c.index).length, 2);
  // The same figures again add nothing; a new 5-hour figure adds one reading.
  await run(['statusline', ...c.flags], { input: status(c.transcript, windows(42, 63)) });
  assert.is(sideLines(c.index).length, 2);
  await run(['statusline', ...c.flags], { input: status(c.transcript, windows(47.5, 63)) });
  assert.is(sideLines(c.index).length, 3);
  // Before the first response (or with an API key) there is no rate_limits: the line has no windows.
  const none = await run(['statusline', ...c.flags], { input: status(c.transcript, undefined) });
  assert.not.match(none.stdout, /⏳/);

  const json = await run(['limits', ...c.flags, '--json']);
  assert.is(json.code, 0, json.stderr);
  const data = JSON.parse(json.stdout) as LimitsData;
  assert.equal(data.windows.map((w) => [w.window, w.usedPercent, w.source]), [['five_hour', 47.5, 'statusline'], ['seven_day', 63, 'statusline']]);
  assert.is(data.readings.length, 3);
  assert.ok(data.windows[0]!.projectedPercent! > 47.5);
  assert.equal(data.hitCounts, { five_hour: 1 });
  assert.is(data.hits.length, 1);
  const table = await run(['limits', ...c.flags], { env: { COLUMNS: '120' } });
  assert.is(table.code, 0, table.stderr);
  assert.match(table.stdout, /^Window\s+Used\s+Resets/m);
  assert.match(table.stdout, /^5h\s+48%/m);
  assert.match(table.stdout, /Limit hits: 5h 1/);
});

t('bad readings are skipped and counted; the statusline still prints its line', async () => {
  const c = setup();
  assert.is((await run(['update', ...c.flags])).code, 0);
  const now = Date.now();
  for (const bad of [
    'not an object',
    { five_hour: { used_percentage: 1500, resets_at: Math.round((now + H) / 1000) }, seven_day: { used_percentage: 20, resets_at: Math.round((now + 100 * 24 * H) / 1000) } },
    { five_hour: { used_percentage: 'high', resets_at: 'soon' } },
  ]) {
    const r = await run(['statusline', ...c.flags], { input: status(c.transcript, bad) });
    assert.is(r.code, 0);
    assert.match(r.stdout, /^🤖 Opus 4\.5 \| 💰/);
    assert.match(r.stderr, /skipped \d rate_limits reading/);
  }
  const data = JSON.parse((await run(['limits', ...c.flags, '--json'])).stdout) as LimitsData;
  assert.equal(data.windows, []);
  assert.is(data.skipped, 4);
});

t('--wrap prints the wrapped command\'s output with the same stdin and its exit status, and keeps the readings', async () => {
  const c = setup();
  const input = status(c.transcript, windows(10, 20));
  const seen = path.join(dir, `seen${n}.json`);
  const r = await run(['statusline', ...c.flags, '--wrap', `cat > ${seen}; printf 'their line\\n'; exit 3`], { input });
  assert.is(r.stdout, 'their line\n');
  assert.is(r.code, 3);
  assert.is(fs.readFileSync(seen, 'utf8'), input);
  assert.is(sideLines(c.index).length, 2);
  // Garbage on stdin still reaches the wrapped command.
  const raw = await run(['statusline', ...c.flags, '--wrap', 'cat'], { input: 'plain text' });
  assert.is(raw.stdout, 'plain text');
  // A command past its time limit is killed.
  const slow = await run(['statusline', ...c.flags, '--wrap', 'echo partial; sleep 30'], { input });
  assert.is(slow.stdout, 'partial\n');
  assert.ok(slow.ms < 15_000, `${slow.ms} ms`);
  assert.match(slow.stderr, /killed after 5000 ms/);
});

t('a render stopped by Claude Code (SIGTERM) ends the wrapped command with it and prints none of our line', async () => {
  const c = setup();
  const marker = path.join(dir, `late${n}`);
  const child = spawn(process.execPath, [DIST_BIN, 'statusline', ...c.flags, '--wrap', `sleep 3; touch ${marker}`], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stdin.end(status(c.transcript, windows(11, 21)));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  await new Promise((r) => setTimeout(r, 1000));
  child.kill('SIGTERM');
  assert.is(await exited, 0);
  assert.is(out, '');
  await new Promise((r) => setTimeout(r, 3500));
  assert.not.ok(fs.existsSync(marker), 'the wrapped command was ended');
});

t.run();
