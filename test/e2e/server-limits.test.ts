// A real server and plan limits: with --poll-limits it keeps the probe's windows (the fake CLI: model-scoped weeks
// and the usage credits), takes in the statusline's readings, and crossing 75 % between two readings logs one alert
// line, not two, also after a restart (recorded in the index); GET /api/limits has the shape; a real
// Prometheus scrapes the limit gauges and the hit counter.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LimitsData } from '../../src/shared/api-types.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { cli } from '../helpers/cli.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { hitLine, throttleLine } from '../helpers/limit-lines.ts';
import { DIST_BIN, FAKE_CLAUDE, PRICES_FILE } from '../helpers/paths.ts';
import { skipTest } from '../helpers/skip.ts';
import { waitFor } from '../helpers/wait.ts';

const { dir, cleanup } = tempDir('server-limits-');
const H = 3_600_000;
const NOW = Date.now();
const SID = 'f1e2d3c4-b5a6-4789-8a7b-6c5d4e3f2a1b';
const root = path.join(dir, 'cfg');
const transcript = path.join(root, 'projects', '-home-u-proj', `${SID}.jsonl`);
const indexFile = path.join(dir, 'index.db');
fs.chmodSync(FAKE_CLAUDE, 0o755);
writeJsonl(transcript, [
  usageLine({ sessionId: SID, messageId: 'm1', requestId: 'r1', timestamp: new Date(NOW - 3 * H).toISOString() }),
  hitLine("You've hit your session limit · resets 9:50pm (Asia/Saigon)", NOW - 2 * H, { sessionId: SID }),
  hitLine("You've hit your weekly limit · resets Mar 13, 10am (Europe/Berlin)", NOW - 1.5 * H, { sessionId: SID }),
  throttleLine(NOW - H),
]);

/** The probe's answer: weeks that reset in 3 days, well within pace (no alert of their own). */
const PROBE_LIMITS = {
  seven_day: { utilization: 20, resets_at: new Date(NOW + 3 * 24 * H).toISOString() },
  model_scoped: [{ display_name: 'Fable', utilization: 10, resets_at: new Date(NOW + 3 * 24 * H).toISOString() }],
  extra_usage: { is_enabled: true, monthly_limit: 5000, used_credits: 1234, utilization: 24.68, currency: 'USD' },
};
const RESET_5H = Math.round((NOW + 30 * 60_000) / 1000);

const serverOpts = {
  dir: root, indexFile, args: ['--poll-limits', '30', '--machine', 'desk'],
  env: { AGENT_BIN: FAKE_CLAUDE, FAKE_CLAUDE_RATE_LIMITS: JSON.stringify(PROBE_LIMITS) },
};

async function render(used: number): Promise<void> {
  const input = JSON.stringify({
    session_id: SID, transcript_path: transcript, model: { id: 'claude-opus-4-5', display_name: 'Opus 4.5' }, version: '2.1.81',
    rate_limits: { five_hour: { used_percentage: used, resets_at: RESET_5H } },
  });
  const r = await cli(['statusline', '--dir', root, '--index', indexFile, '--prices', PRICES_FILE], { entry: DIST_BIN, input });
  assert.is(r.code, 0, r.stderr);
}

const alertLines = (s: AppServer, what: RegExp): number => s.output().split('\n').filter((l) => what.test(l)).length;
const fiveHour = async (s: AppServer) => (await getJson<LimitsData>(s, '/api/limits')).windows.find((w) => w.window === 'five_hour');

const t = suite('plan limits in a running server');
let server: AppServer | null = null;

t.after(async () => {
  await server?.close();
  cleanup();
});

t('probe windows kept, statusline readings taken in, one alert line when 75 % is crossed', async () => {
  server = await startAppServer(serverOpts);
  await untilIndexed(server, 30_000);
  // --poll-limits probes at start: the fake CLI's windows, the model-scoped one and the usage credits included.
  const probed = await waitFor(async () => {
    const d = await getJson<LimitsData>(server!, '/api/limits');
    return d.windows.some((w) => w.window === 'seven_day_fable') ? d : null;
  }, 'the probe\'s readings', 15_000);
  assert.equal(probed.windows.map((w) => [w.window, w.usedPercent, w.source]), [['seven_day', 20, 'probe'], ['seven_day_fable', 10, 'probe'], ['extra_usage', 24.68, 'probe']]);
  assert.equal(probed.hitCounts, { five_hour: 1, seven_day: 1 });
  const h = probed.hits[0]!;
  assert.equal(Object.keys(h).sort(), ['at', 'resetsAt', 'text', 'window']);
  assert.is(typeof probed.readings[0]!.observedAt, 'string');
  assert.ok(probed.windows.every((w) => 'projectedPercent' in w && 'fullAt' in w && /T.*Z$/.test(w.observedAt)));

  await render(70);
  await waitFor(async () => (await fiveHour(server!))?.usedPercent === 70, 'the 70 % reading', 15_000);
  assert.is(alertLines(server, /limit alert: the five_hour window reached 75%/), 0);
  await render(80);
  await waitFor(async () => (await fiveHour(server!))?.usedPercent === 80, 'the 80 % reading', 15_000);
  await waitFor(() => alertLines(server!, /limit alert: the five_hour window reached 75%/) === 1, 'the alert line', 5000);
  await render(82);
  await waitFor(async () => (await fiveHour(server!))?.usedPercent === 82, 'the 82 % reading', 15_000);
  await new Promise((r) => setTimeout(r, 5500)); // one more check
  assert.is(alertLines(server, /limit alert: the five_hour window reached 75%/), 1, server.output());
  const data = await getJson<LimitsData>(server, '/api/limits');
  const alert = data.alerts.find((a) => a.window === 'five_hour' && a.kind === '75');
  assert.ok(alert?.logged, JSON.stringify(data.alerts));
  assert.not.ok(data.alerts.some((a) => a.kind === '90'));
  assert.equal(data.thresholds, [75, 90]);
});

t('after a restart the alert is not logged again', async () => {
  await server!.close();
  server = await startAppServer(serverOpts);
  await untilIndexed(server, 30_000);
  await waitFor(async () => (await fiveHour(server!))?.usedPercent === 82, 'the kept reading', 15_000);
  await new Promise((r) => setTimeout(r, 5500));
  assert.is(alertLines(server, /limit alert: the five_hour window reached 75%/), 0, server.output());
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

t('Prometheus scrapes the limit gauges and the hit counter', async () => {
  const which = spawnSync('sh', ['-c', 'command -v prometheus'], { encoding: 'utf8' });
  const bin = which.status === 0 ? which.stdout.trim() : '';
  if (!bin) return skipTest('prometheus is not installed (apt-get install prometheus)');
  const config = path.join(dir, 'prometheus.yml');
  fs.writeFileSync(config, `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: cost\n    static_configs:\n      - targets: ['127.0.0.1:${server!.port}']\n`);
  const promPort = await freePort();
  let prom: ChildProcess | null = null;
  let promLog = '';
  try {
    prom = spawn(bin, [`--config.file=${config}`, `--storage.tsdb.path=${path.join(dir, 'tsdb')}`, `--web.listen-address=127.0.0.1:${promPort}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    prom.stdout!.on('data', (c: Buffer) => (promLog += c));
    prom.stderr!.on('data', (c: Buffer) => (promLog += c));
    const query = async (q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> => {
      const res = await fetch(`http://127.0.0.1:${promPort}/api/v1/query?query=${encodeURIComponent(q)}`);
      return ((await res.json()) as { data: { result: { metric: Record<string, string>; value: [number, string] }[] } }).data.result;
    };
    const used = await waitFor(async () => {
      try {
        const r = await query('cost_dashboard_limit_used_ratio{window="five_hour"}');
        return r.length ? r : null;
      } catch {
        return null;
      }
    }, 'Prometheus to scrape the server', 30_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${promLog.slice(-2000)}`);
    });
    assert.is(Number(used[0]!.value[1]), 0.82);
    const resets = await query('cost_dashboard_limit_resets_at_seconds{window="five_hour"}');
    assert.is(Number(resets[0]!.value[1]), RESET_5H);
    const hits = await query('cost_dashboard_limit_hits_total');
    assert.equal(hits.map((v) => [v.metric.window, v.value[1]]).sort(), [['five_hour', '1'], ['seven_day', '1']]);
    const fable = await query('cost_dashboard_limit_used_ratio{window="seven_day_fable"}');
    assert.is(Number(fable[0]!.value[1]), 0.1);
  } finally {
    if (prom && prom.exitCode === null) {
      const exited = new Promise((r) => prom!.once('exit', r));
      prom.kill('SIGTERM');
      await exited;
    }
  }
});

t.run();
