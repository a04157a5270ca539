// A real Prometheus (Debian's package) scraping two real servers on loopback, each over its own generated
// history with its own --machine and a metrics token, with the scrape config of docs/machines-and-metrics.md:
// PromQL's sums over its HTTP API equal the servers' all-time totals to 1e-6.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ProjectRow } from '../../src/shared/api-types.ts';
import { getJson, startAppServer, untilIndexed, type AppServer } from '../helpers/app-server.ts';
import { ROOT, SHARED } from '../helpers/paths.ts';
import { tempDir } from '../helpers/jsonl.ts';
import { skipTest } from '../helpers/skip.ts';
import { waitFor } from '../helpers/wait.ts';

const TOKEN = 'team-metrics-token-1';

function prometheusBin(): string | null {
  const r = spawnSync('sh', ['-c', 'command -v prometheus'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : null;
}

/** The scrape config of docs/machines-and-metrics.md, with this test's targets, token file and a 1 s interval. */
function scrapeConfig(targets: string[], tokenFile: string): string {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/machines-and-metrics.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## A team\'s monitoring'));
  const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(yaml, 'docs/machines-and-metrics.md has a yaml scrape config under "A team\'s monitoring"');
  const out = yaml
    .replace(/scrape_interval: \S+/, 'scrape_interval: 1s')
    .replace(/credentials_file: \S+/, `credentials_file: ${tokenFile}`)
    .replace(/targets: \[.*\]/, `targets: [${targets.map((t) => `'${t}'`).join(', ')}]`);
  assert.ok(out.includes('scrape_interval: 1s') && out.includes(tokenFile) && out.includes(targets[0]!), 'the config kept its shape');
  return out;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

interface Vector { metric: Record<string, string>; value: [number, string] }

async function query(promPort: number, promql: string): Promise<Vector[]> {
  const res = await fetch(`http://127.0.0.1:${promPort}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await res.json()) as { status: string; data: { result: Vector[] } };
  assert.is(body.status, 'success', promql);
  return body.data.result;
}

const allTimeCost = async (s: AppServer) => (await getJson<ProjectRow[]>(s, '/api/projects')).reduce((a, p) => a + p.cost, 0);

const t = suite('Prometheus scrapes two machines');
t('sum and sum by (machine) of cost_dashboard_cost_usd_total equal the servers\' all-time totals', async () => {
  const bin = prometheusBin();
  if (!bin) return skipTest('prometheus is not installed (apt-get install prometheus; .ci/run installs it)');
  const { dir, cleanup } = tempDir('prometheus-');
  const servers: AppServer[] = [];
  let prom: ChildProcess | null = null;
  let promLog = '';
  try {
    const machines = ['laptop', 'workstation'];
    for (const [i, machine] of machines.entries()) {
      const corpus = path.join(dir, machine);
      const r = spawnSync(process.execPath, [path.join(SHARED, 'tools/gen-corpus.mjs'), '--out', corpus, '--mb', '2', '--days', '20', '--projects', '3', '--seed', String(21 + i)], { encoding: 'utf8', timeout: 60_000 });
      assert.is(r.status, 0, r.stderr);
      servers.push(await startAppServer({ dir: corpus, args: ['--machine', machine, '--metrics-token', TOKEN] }));
    }
    for (const s of servers) await untilIndexed(s, 60_000);
    const totals = await Promise.all(servers.map(allTimeCost));
    assert.ok(totals.every((c) => c > 0), 'both histories cost something');

    const tokenFile = path.join(dir, 'token');
    fs.writeFileSync(tokenFile, TOKEN);
    const config = path.join(dir, 'prometheus.yml');
    fs.writeFileSync(config, scrapeConfig(servers.map((s) => `127.0.0.1:${s.port}`), tokenFile));
    const promPort = await freePort();
    prom = spawn(bin, [`--config.file=${config}`, `--storage.tsdb.path=${path.join(dir, 'tsdb')}`, `--web.listen-address=127.0.0.1:${promPort}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    prom.stdout!.on('data', (c: Buffer) => (promLog += c));
    prom.stderr!.on('data', (c: Buffer) => (promLog += c));

    // Both targets up and scraped (a failed scrape, e.g. a refused token, leaves up at 0).
    await waitFor(async () => {
      try {
        return (await query(promPort, 'sum(up)'))[0]?.value[1] === '2' && (await query(promPort, 'count(count by (machine) (cost_dashboard_cost_usd_total))'))[0]?.value[1] === '2';
      } catch {
        return false; // not listening yet
      }
    }, 'Prometheus to scrape both servers', 30_000).catch((err: Error) => {
      throw new Error(`${err.message}\n--- prometheus ---\n${promLog.slice(-3000)}`);
    });

    const sum = Number((await query(promPort, 'sum(cost_dashboard_cost_usd_total)'))[0]!.value[1]);
    assert.ok(Math.abs(sum - (totals[0]! + totals[1]!)) < 1e-6, `PromQL sum ${sum} vs servers ${totals[0]! + totals[1]!}`);
    const byMachine = await query(promPort, 'sum by (machine) (cost_dashboard_cost_usd_total)');
    assert.equal(byMachine.map((v) => v.metric.machine).sort(), machines);
    for (const [i, machine] of machines.entries()) {
      const got = Number(byMachine.find((v) => v.metric.machine === machine)!.value[1]);
      assert.ok(Math.abs(got - totals[i]!) < 1e-6, `${machine}: PromQL ${got} vs server ${totals[i]}`);
    }
  } finally {
    if (prom && prom.exitCode === null) {
      const exited = new Promise((r) => prom!.once('exit', r));
      prom.kill('SIGTERM');
      await exited;
    }
    await Promise.all(servers.map((s) => s.close()));
    cleanup();
  }
});
t.run();
