// The plan usage probe against a fake `claude` executable (a real child process speaking stream-json).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUsageProbe, normalizeUsage } from '../../src/main/usage-probe.ts';

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
const spawns = (): { argv: string[]; agentConfigDir: string; claudeConfigDir: string }[] =>
  fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

const probe = suite('usage probe');

probe('success: spawns print mode with stream-json, sets both config-dir variables, normalises the reply', async () => {
  useMode('success');
  const limits = await createUsageProbe({ bin: FAKE, configDir }).get(false);
  const [run] = spawns();
  assert.equal(run?.argv, ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose']);
  assert.is(run?.agentConfigDir, configDir);
  assert.is(run?.claudeConfigDir, configDir);
  assert.is(limits.cached, false);
  assert.is(limits.subscription, 'max');
  assert.equal(
    limits.windows.map((w) => [w.label, w.percent, w.severity, w.binding]),
    [
      ['Session (5h)', 42, 'ok', false],
      ['Week (all models)', 75, 'warn', false],
      ['Week (Opus)', 93, 'critical', true],
    ],
  );
  assert.is(limits.windows[0]?.resetsAt, '2030-01-01T05:00:00.000Z');
  assert.is(limits.windows[1]?.resetsAt, new Date(1893456000 * 1000).toISOString());
  assert.is(limits.windows[2]?.resetsAt, null);
  assert.equal(limits.spend, { used: 12.34, limit: 50, currency: 'USD' });
});

probe('fractions 0..1 are read as percentages', async () => {
  useMode('fraction');
  const limits = await createUsageProbe({ bin: FAKE, configDir }).get(false);
  assert.equal(limits.windows.map((w) => w.percent), [42, 75, 93]);
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

const norm = suite('normalizeUsage');

norm('camelCase keys, nested usage object, plan object, spend in currency units', () => {
  const u = normalizeUsage(
    { usage: { fiveHour: { percent: 10, resetsAt: 1893456000000 } }, plan: { name: 'pro' }, spend: { used: 3, limit: null, currency: 'EUR' } },
    new Date(0),
  );
  assert.equal(u.windows, [{ label: 'Session (5h)', percent: 10, resetsAt: new Date(1893456000000).toISOString(), severity: 'ok', binding: true }]);
  assert.is(u.subscription, 'pro');
  assert.equal(u.spend, { used: 3, limit: null, currency: 'EUR' });
  assert.is(u.fetchedAt, '1970-01-01T00:00:00.000Z');
});

norm('a windows array, clamping, disabled extra usage, junk', () => {
  const u = normalizeUsage({ windows: [{ name: 'daily', used_percent: 140 }, { label: 'x' }, 5], extra_usage: { is_enabled: false, used_credits: 1 } }, new Date(0));
  assert.equal(u.windows.map((w) => [w.label, w.percent, w.severity]), [['Daily', 100, 'critical']]);
  assert.is(u.spend, null);
  assert.equal(normalizeUsage('nonsense', new Date(0)).windows, []);
});

norm.run();
