// The plan usage probe against a fake `claude` executable (a real child process speaking stream-json, replying in
// the schema of the real CLI), and the reading of get_usage replies.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUsageProbe } from '../../src/usage-probe/probe.ts';
import { NOT_APPLICABLE_NOTE, driversOf, limitsOf } from '../../src/usage-probe/reply.ts';

const FAKE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/fake-claude/claude');
fs.chmodSync(FAKE, 0o755);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'probe-test-'));
const logFile = path.join(tmp, 'spawns.jsonl');
const configDir = path.join(tmp, 'config');
fs.mkdirSync(configDir);

function useMode(mode: string): void {
  process.env.FAKE_CLAUDE_MODE = mode;
  process.env.FAKE_CLAUDE_LOG = logFile;
  fs.rmSync(logFile, { force: true });
}
type LogLine =
  | { kind: 'spawn'; argv: string[]; agentConfigDir: string; claudeConfigDir: string; pid: number }
  | { kind: 'request'; request: Record<string, unknown> }
  | { kind: 'grandchild'; pid: number };
const logged = (): LogLine[] => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as LogLine) : []);
const spawns = () => logged().flatMap((l) => (l.kind === 'spawn' ? [l] : []));
const requests = () => logged().flatMap((l) => (l.kind === 'request' ? [l.request] : []));

const grandchildren = () => logged().flatMap((l) => (l.kind === 'grandchild' ? [l.pid] : []));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether `pid` is gone within `ms` (a killed process is reaped by its parent a moment later). */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

const probe = suite('usage probe');

probe('success: print mode with stream-json, both config-dir variables, skip_behaviors true; every window read', async () => {
  useMode('success');
  const limits = await createUsageProbe({ bin: FAKE, configDir }).get(false);
  const [run] = spawns();
  assert.equal(run?.argv, ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose']);
  assert.is(run?.agentConfigDir, configDir);
  assert.is(run?.claudeConfigDir, configDir);
  assert.equal(requests(), [{ subtype: 'get_usage', skip_behaviors: true }], 'the meters never ask for the week-long transcript scan');
  assert.is(limits.cached, false);
  assert.is(limits.limitsApply, true);
  assert.is(limits.note, null);
  assert.is(limits.subscription, 'max');
  // seven_day_oauth_apps is null and seven_day_sonnet has no utilization: both left out, as the CLI's own dialog does.
  assert.equal(
    limits.windows.map((w) => [w.id, w.label, w.percent, w.severity, w.binding]),
    [
      ['five_hour', 'Session (5h)', 42, 'ok', false],
      ['seven_day', 'Week (all models)', 75, 'warn', false],
      ['seven_day_opus', 'Week (Opus)', 93, 'critical', true],
      ['model:Fable', 'Week (Fable)', 61.5, 'ok', false],
    ],
  );
  assert.equal(limits.windows.map((w) => w.resetsAt), ['2030-01-01T05:00:00.000Z', '2030-01-06T09:00:00.000Z', null, '2030-01-06T09:00:00.000Z']);
  assert.equal(limits.spend, { used: 12.34, limit: 50, percent: 24.68, currency: 'EUR' });
});

probe('an API-key login: limits do not apply, said in a note, no windows', async () => {
  useMode('api-key');
  const limits = await createUsageProbe({ bin: FAKE, configDir }).get(false);
  assert.is(limits.limitsApply, false);
  assert.is(limits.note, NOT_APPLICABLE_NOTE);
  assert.match(limits.note ?? '', /do not apply to this login.*API key or a cloud provider/);
  assert.equal(limits.windows, []);
  assert.is(limits.subscription, null);
  assert.is(limits.spend, null);
});

probe('limits that apply but could not be read are a failure, not an empty list', async () => {
  useMode('unavailable');
  const err = await rejection(createUsageProbe({ bin: FAKE, configDir }).get(false));
  assert.match(err.message, 'could not read the plan usage');
});

probe('drivers: asked with skip_behaviors false, cached apart from the meters', async () => {
  useMode('success');
  const p = createUsageProbe({ bin: FAKE, configDir });
  const d = await p.drivers(false);
  assert.equal(requests(), [{ subtype: 'get_usage', skip_behaviors: false }]);
  assert.is(d.available, true);
  assert.is(d.week?.requests, 1080);
  assert.is(d.week?.sessions, 24);
  assert.equal(d.day?.behaviors.map((b) => [b.key, b.label, b.percent, b.count]), [
    ['cache_miss', 'Cache misses', 38, 41],
    ['long_context', 'Long context', 22, 17],
    ['subagent_heavy', 'Subagent-heavy sessions', 15, 1],
    ['high_parallel', 'Many sessions at once', 9, 12],
  ]);
  assert.equal(d.day?.recommendations[2], { key: 'high_parallel', percent: 9, title: 'Run fewer sessions at once', detail: 'up to 5 at once' });
  assert.is(d.day?.recommendations[0]?.detail, null);
  assert.equal(d.day?.mcpServers, [{ name: 'github', percent: 7 }]);
  assert.equal(d.day?.plugins, []);
  assert.is((await p.drivers(false)).cached, true);
  await p.get(false);
  assert.is(spawns().length, 2, 'the meters have their own cache');
  assert.is((await p.drivers(true)).cached, false);
  assert.is(spawns().length, 3);
});

probe('drivers are kept 15 minutes, past the 5 of the meters', async () => {
  useMode('success');
  let now = 1_000_000;
  const p = createUsageProbe({ bin: FAKE, configDir, now: () => now });
  await p.drivers(false);
  now += 899_000;
  assert.is((await p.drivers(false)).cached, true);
  assert.is(spawns().length, 1);
  now += 2_000;
  assert.is((await p.drivers(false)).cached, false);
  assert.is(spawns().length, 2, 'expired after 15 minutes');
});

probe('drivers of an API-key login: not available, with the reason', async () => {
  useMode('api-key');
  const d = await createUsageProbe({ bin: FAKE, configDir }).drivers(false);
  assert.is(d.available, false);
  assert.match(d.note ?? '', 'only for claude.ai subscriptions');
  assert.is(d.week, null);
});

probe('an error reply rejects with its text', async () => {
  useMode('error');
  const err = await rejection(createUsageProbe({ bin: FAKE, configDir }).get(false));
  assert.match(err.message, 'Usage is only available for subscription plans');
});

probe('a hanging CLI is killed after the time-out', async () => {
  useMode('hang');
  const started = Date.now();
  const err = await rejection(createUsageProbe({ bin: FAKE, configDir, timeoutMs: 400 }).get(false));
  assert.match(err.message, 'timed out after 0.4 s');
  assert.ok(Date.now() - started < 3000);
});

probe('a hanging CLI\'s own children are killed with it (its process group)', async () => {
  useMode('grandchild');
  // Long enough for the fake CLI (a Node process) to start its grandchild on a loaded machine.
  const err = await rejection(createUsageProbe({ bin: FAKE, configDir, timeoutMs: 4000 }).get(false));
  assert.match(err.message, 'timed out after 4 s');
  const [grandchild] = grandchildren();
  const [run] = spawns();
  assert.ok(grandchild && run, 'the fake CLI started a grandchild');
  try {
    assert.ok(await goneWithin(run.pid, 3000), 'the CLI is gone');
    // The grandchild's parent is gone too, so init reaps it: gone means killed, not left as a zombie.
    assert.ok(await goneWithin(grandchild, 3000), 'the CLI\'s child is gone with it');
  } finally {
    if (alive(grandchild)) process.kill(grandchild, 'SIGKILL');
  }
});

probe('a CLI that prints without a newline is stopped at the line limit, not read until memory runs out', async () => {
  useMode('flood');
  const started = Date.now();
  const err = await rejection(createUsageProbe({ bin: FAKE, configDir, timeoutMs: 20_000 }).get(false));
  assert.match(err.message, 'printed a line over 4 MiB without answering');
  assert.ok(Date.now() - started < 10_000, 'it fails as the line passes the limit, not at the time-out');
  const [run] = spawns();
  assert.ok(run && (await goneWithin(run.pid, 3000)), 'the CLI is killed');
});

probe('COST_PROBE_TIMEOUT_MS overrides the time-out', async () => {
  useMode('hang');
  process.env.COST_PROBE_TIMEOUT_MS = '300';
  try {
    const err = await rejection(createUsageProbe({ bin: FAKE, configDir, timeoutMs: 60_000 }).get(false));
    assert.match(err.message, 'timed out after 0.3 s');
  } finally {
    delete process.env.COST_PROBE_TIMEOUT_MS;
  }
});

probe('exit before answering reports the code and the end of stderr', async () => {
  useMode('exit3');
  const err = await rejection(createUsageProbe({ bin: FAKE, configDir }).get(false));
  assert.match(err.message, 'exited with code 3 before answering');
  assert.match(err.message, 'not logged in');
  assert.ok(err.message.length < 700, 'only the last ~500 chars of stderr');
});

probe('a clean exit with no answer is a failure too', async () => {
  useMode('silent-exit');
  const err = await rejection(createUsageProbe({ bin: FAKE, configDir }).get(false));
  assert.match(err.message, 'exited with code 0 before answering');
});

probe('a missing binary says it is not installed', async () => {
  const err = await rejection(createUsageProbe({ bin: path.join(tmp, 'no-such-claude'), configDir }).get(false));
  assert.match(err.message, 'not installed');
});

probe('result cached 5 minutes; refresh skips the cache; concurrent callers share one spawn', async () => {
  useMode('success');
  let now = 1_000_000;
  const p = createUsageProbe({ bin: FAKE, configDir, now: () => now });
  const [a, b] = await Promise.all([p.get(false), p.get(false)]);
  assert.is(spawns().length, 1, 'one probe in flight');
  assert.is(a, b);
  now += 299_000;
  const c = await p.get(false);
  assert.is(c.cached, true);
  assert.is(spawns().length, 1);
  const d = await p.get(true);
  assert.is(d.cached, false);
  assert.is(spawns().length, 2, 'refresh spawns');
  now += 300_001;
  await p.get(false);
  assert.is(spawns().length, 3, 'expired after 5 minutes');
});

probe('failures are not cached', async () => {
  useMode('exit3');
  const p = createUsageProbe({ bin: FAKE, configDir });
  await rejection(p.get(false));
  useMode('success');
  assert.is((await p.get(false)).subscription, 'max');
});

probe.after(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});
probe.run();

const reply = suite('get_usage replies');
const at = new Date(0);
const base = { session: {}, subscription_type: 'pro', rate_limits_available: true, behaviors: null };

reply('a reply of another shape is an error that shows it', () => {
  for (const bad of ['nonsense', null, [], { five_hour: { utilization: 1 } }]) {
    assert.throws(() => limitsOf(bad, at), /unknown shape/);
    assert.throws(() => driversOf(bad, at), /unknown shape/);
  }
});

reply('windows: 0-100 clamped, bad resets dropped, unknown window keys kept, a model window with a fixed label dropped', () => {
  const u = limitsOf({
    ...base,
    rate_limits: {
      five_hour: { utilization: 140, resets_at: 'soon' },
      seven_day: { utilization: 0.5, resets_at: '2030-01-01T00:00:00Z' },
      seven_day_cowork: { utilization: 12, resets_at: null },
      limits: [{ group: 'x' }],
      seven_day_opus: { utilization: 3, resets_at: null },
      model_scoped: [{ display_name: 'Opus', utilization: 5, resets_at: null }, { display_name: '', utilization: 9 }, 'junk', { display_name: 'Fable', utilization: null, resets_at: null }],
      extra_usage: { is_enabled: false, monthly_limit: 100, used_credits: 1, utilization: 1, currency: 'USD' },
    },
  }, at);
  assert.equal(u.windows.map((w) => [w.label, w.percent, w.resetsAt]), [
    ['Session (5h)', 100, null],
    ['Week (all models)', 0.5, '2030-01-01T00:00:00.000Z'],
    ['Week (Opus)', 3, null],
    ['Seven day cowork', 12, null],
  ]);
  assert.is(u.windows[0]?.binding, true);
  assert.is(u.windows[1]?.severity, 'ok', 'a half percent is a half percent, not 50%');
  assert.is(u.spend, null, 'extra usage turned off');
  assert.is(u.subscription, 'pro');
});

reply('extra usage: cents to units; a bad currency is USD; percent from the limit when the CLI gives none', () => {
  const spend = (extra: unknown) => limitsOf({ ...base, rate_limits: { extra_usage: extra } }, at).spend;
  assert.equal(spend({ is_enabled: true, monthly_limit: 2000, used_credits: 500, utilization: null, currency: 'x1' }), { used: 5, limit: 20, percent: 25, currency: 'USD' });
  assert.equal(spend({ is_enabled: true, monthly_limit: null, used_credits: 250, utilization: null, currency: 'gbp' }), { used: 2.5, limit: null, percent: null, currency: 'GBP' });
  assert.is(spend({ is_enabled: true, monthly_limit: 10, used_credits: null, utilization: null }), null);
});

reply('limits that apply with no window used say so', () => {
  const u = limitsOf({ ...base, rate_limits: { five_hour: null, seven_day: { utilization: null, resets_at: null } } }, at);
  assert.equal(u.windows, []);
  assert.is(u.limitsApply, true);
  assert.match(u.note ?? '', 'no usage');
});

reply('drivers: a subscriber with no analysis; unknown behavior keys get a readable label; junk rows dropped', () => {
  assert.match(driversOf({ ...base, behaviors: null }, at).note ?? '', 'made no analysis');
  const d = driversOf({ ...base, behaviors: { day: null, week: { request_count: 3, behaviors: [{ key: 'new_thing', pct: 7, count: 2 }, { key: 'cron' }, 4], recommendations: [{ pct: 1 }], agents: [{ name: 'a', pct: 120 }] } } }, at);
  assert.is(d.available, true);
  assert.is(d.day, null);
  assert.equal(d.week?.behaviors, [{ key: 'new_thing', label: 'New thing', percent: 7, count: 2 }]);
  assert.equal(d.week?.recommendations, []);
  assert.equal(d.week?.agents, [{ name: 'a', percent: 100 }]);
  assert.is(d.week?.sessions, 0);
});

reply.run();
