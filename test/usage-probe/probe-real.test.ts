// The plan usage probe against the real Claude Code CLI (the pinned npm release, installed once into .cache/claude-code
// by scripts/ensure-claude-code.mjs), signed in to nothing, in empty temp HOME and config dirs so it touches nothing
// real. Without a claude.ai login the CLI answers get_usage with rate_limits_available false; this is the reply an
// API-key or cloud-provider user gets. Skipped, with the reason, where the CLI cannot be installed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CLAUDE_CODE_VERSION, ensureClaudeCode } from '../../scripts/ensure-claude-code.mjs';
import type { UsageDrivers, UsageLimits } from '../../src/shared/api-types.ts';
import { createUsageProbe, runProbe } from '../../src/usage-probe/probe.ts';
import { NOT_APPLICABLE_NOTE } from '../../src/usage-probe/reply.ts';
import { getJson, startAppServer } from '../helpers/app-server.ts';
import { skipTest } from '../helpers/skip.ts';

let bin: string | null = null;
let why = '';
try {
  bin = ensureClaudeCode();
} catch (err) {
  why = `Claude Code ${CLAUDE_CODE_VERSION} cannot be installed here, the real-CLI probe tests did not run (${err instanceof Error ? err.message : String(err)})`;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'probe-real-'));
const home = path.join(tmp, 'home');
const configDir = path.join(tmp, 'config');
fs.mkdirSync(home);
fs.mkdirSync(path.join(configDir, 'projects'), { recursive: true });
// The CLI (and the server that spawns it) inherit this: no login, no auto-update, no telemetry, nothing of the user's.
for (const k of ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN', 'CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX']) delete process.env[k];
Object.assign(process.env, { HOME: home, DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' });

const real = suite(`real Claude Code CLI ${CLAUDE_CODE_VERSION}`);

real('it is the pinned version', () => {
  if (!bin) return skipTest(why);
  const out = execFileSync(bin, ['--version'], { encoding: 'utf8', env: { ...process.env, CLAUDE_CONFIG_DIR: configDir }, timeout: 60_000 });
  assert.match(out, CLAUDE_CODE_VERSION);
});

real('get_usage with skip_behaviors true: the schema the reader expects, and what a login without claude.ai answers', async () => {
  if (!bin) return skipTest(why);
  const reply = (await runProbe(bin, configDir, 60_000, true)) as Record<string, unknown>;
  assert.equal(Object.keys(reply).sort(), ['behaviors', 'rate_limits', 'rate_limits_available', 'session', 'subscription_type']);
  assert.is(reply.rate_limits_available, false);
  assert.is(reply.rate_limits, null);
  assert.is(reply.subscription_type, null);
  assert.is(reply.behaviors, null);
  assert.is(typeof (reply.session as { total_cost_usd?: unknown }).total_cost_usd, 'number');
});

real('the CLI rejects a skip_behaviors that is not a boolean, as the reader of its schema assumes', async () => {
  if (!bin) return skipTest(why);
  // runProbe always sends a boolean; a raw request shows the CLI validates the field the probe relies on.
  const out = execFileSync(bin, ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'], {
    input: `${JSON.stringify({ type: 'control_request', request_id: 'r1', request: { subtype: 'get_usage', skip_behaviors: 'yes' } })}\n`,
    env: { ...process.env, CLAUDE_CONFIG_DIR: configDir },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.match(out, 'skip_behaviors must be a boolean');
});

real('the probe: plan limits do not apply (a note, no windows); no usage drivers either, with the reason', async () => {
  if (!bin) return skipTest(why);
  const probe = createUsageProbe({ bin, configDir });
  const limits = await probe.get(false);
  assert.is(limits.limitsApply, false);
  assert.is(limits.note, NOT_APPLICABLE_NOTE);
  assert.equal(limits.windows, []);
  const drivers = await probe.drivers(false);
  assert.is(drivers.available, false);
  assert.match(drivers.note ?? '', 'only for claude.ai subscriptions');
});

real('the built server over HTTP runs the real CLI for /api/usage-limits and /api/usage-drivers', async () => {
  if (!bin) return skipTest(why);
  const server = await startAppServer({ dir: configDir, env: { AGENT_BIN: bin } });
  try {
    const limits = await getJson<UsageLimits>(server, '/api/usage-limits?refresh=1');
    assert.is(limits.limitsApply, false);
    assert.match(limits.note ?? '', 'do not apply to this login');
    const drivers = await getJson<UsageDrivers>(server, '/api/usage-drivers');
    assert.is(drivers.available, false);
  } finally {
    await server.close();
  }
});

real.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
real.run();
