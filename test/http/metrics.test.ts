// GET /metrics against a real server over a real index filled through the real parser: the exposition
// text, counters equal to the overview's all-time totals, the gauges of now, and who may read it (Host,
// cross-site, the bearer token on a non-loopback bind).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Overview } from '../../src/shared/api-types.ts';
import { createServer } from '../../src/http/server.ts';
import { openIndex } from '../../src/index-db/index.ts';
import { PriceTable } from '../../src/pricing/table.ts';
import { parseConfig } from '../../src/config/config.ts';
import { createBudgetService } from '../../src/main/budgets.ts';
import { createLimitsService } from '../../src/main/limits.ts';
import { createUsageProbe } from '../../src/usage-probe/probe.ts';
import { tempDir, usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { ingestFile, INDEXING_DONE, request, sessionRole, startServer, type TestServer } from '../helpers/server.ts';

const NOW = Date.UTC(2026, 0, 10, 12);
let s: TestServer;

interface Sample { name: string; labels: Record<string, string>; value: number }

/** The samples of an exposition text (label values unescaped), failing on any line that is not one. */
function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const l of text.split('\n')) {
    if (l === '' || l.startsWith('# HELP ') || l.startsWith('# TYPE ')) continue;
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(l);
    assert.ok(m, `not a sample line: ${l}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of m[2]?.matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g) ?? []) labels[k!] = v!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

const sum = (xs: Sample[], name: string, where: (l: Record<string, string>) => boolean = () => true) =>
  xs.filter((x) => x.name === name && where(x.labels)).reduce((a, x) => a + x.value, 0);

function add(t: TestServer, project: string, session: string, lines: Record<string, unknown>[]): void {
  const file = writeJsonl(path.join(t.config.projectsDirs[0]!, project, `${session}.jsonl`), lines);
  ingestFile(t.index, file, sessionRole(project, session));
}

const at = (h: number) => new Date(NOW - h * 3_600_000).toISOString();

const m = suite('GET /metrics');
m.before(async () => {
  s = await startServer({ now: () => NOW, argv: ['--machine', 'work-box'] });
  // Two projects, two models, one entry a day ago and two in the active block; one entry written twice (counted once).
  const a = (id: string, h: number, model: string, output: number) =>
    usageLine({ sessionId: 'sa', messageId: id, requestId: `r-${id}`, timestamp: at(h), model, output, input: 1000, cacheRead: 5000, cacheCreate: 300, cwd: '/home/dev/alpha "a"' });
  add(s, '-home-dev-alpha', 'sa', [a('m1', 26, 'claude-sonnet-4-5-20250929', 200), a('m2', 1, 'claude-opus-4-5-20251101', 50), a('m2', 1, 'claude-opus-4-5-20251101', 50)]);
  add(s, '-home-dev-beta', 'sb', [usageLine({ sessionId: 'sb', messageId: 'm3', requestId: 'r-m3', timestamp: at(0.5), model: 'claude-sonnet-4-5-20250929', output: 70, input: 10, cwd: '/home/dev/beta' })]);
});
m.after(() => s.close());

m('counters equal the all-time totals, labelled by machine, project (with its name) and model', async () => {
  const r = await s.request('/metrics');
  assert.is(r.status, 200);
  assert.is(r.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  assert.match(r.text, /^# HELP cost_dashboard_cost_usd_total .+\n# TYPE cost_dashboard_cost_usd_total counter\n/);
  const xs = samples(r.text);
  const all = (await s.request('/api/overview?range=3650')).json<Overview>();
  assert.ok(all.totals.cost > 0);
  assert.ok(Math.abs(sum(xs, 'cost_dashboard_cost_usd_total') - all.totals.cost) < 1e-9);
  assert.is(sum(xs, 'cost_dashboard_messages_total'), 3);
  assert.is(sum(xs, 'cost_dashboard_tokens_total', (l) => l.type === 'input'), all.totals.inputTokens);
  assert.is(sum(xs, 'cost_dashboard_tokens_total', (l) => l.type === 'output'), all.totals.outputTokens);
  assert.is(sum(xs, 'cost_dashboard_tokens_total', (l) => l.type === 'cache_creation'), all.totals.cacheCreationTokens);
  assert.is(sum(xs, 'cost_dashboard_tokens_total', (l) => l.type === 'cache_read'), all.totals.cacheReadTokens);
  const costs = xs.filter((x) => x.name === 'cost_dashboard_cost_usd_total');
  assert.is(costs.length, 3, 'one series per project x model');
  for (const c of costs) assert.is(c.labels.machine, 'work-box');
  const alpha = costs.find((c) => c.labels.project === '-home-dev-alpha' && c.labels.model === 'claude-opus-4-5-20251101');
  assert.ok(alpha, 'alpha x opus');
  assert.is(alpha.labels.project_name, 'alpha "a"', 'the display name, quotes escaped and read back');
  const byProject = all.projects.find((p) => p.id === '-home-dev-alpha')!;
  assert.ok(Math.abs(sum(xs, 'cost_dashboard_cost_usd_total', (l) => l.project === '-home-dev-alpha') - byProject.cost) < 1e-9);
});

m('gauges: today, the active block, the newest entry, skipped lines', async () => {
  const xs = samples((await s.request('/metrics')).text);
  const today = (await s.request('/api/overview?range=today')).json<Overview>();
  const one = (name: string) => {
    const found = xs.filter((x) => x.name === name);
    assert.is(found.length, 1, name);
    return found[0]!.value;
  };
  assert.ok(Math.abs(one('cost_dashboard_today_cost_usd') - (today.today?.cost ?? 0)) < 1e-9);
  // The block started at the hour of the entry 1 h before NOW (11:00 UTC): it ends at 16:00, 4 h after NOW.
  assert.is(one('cost_dashboard_block_remaining_seconds'), 4 * 3600);
  const blockCost = sum(xs, 'cost_dashboard_cost_usd_total') - sum(xs, 'cost_dashboard_cost_usd_total', (l) => l.model === 'claude-sonnet-4-5-20250929' && l.project === '-home-dev-alpha');
  assert.ok(Math.abs(one('cost_dashboard_block_cost_usd') - blockCost) < 1e-9);
  assert.is(one('cost_dashboard_last_entry_timestamp_seconds'), (NOW - 0.5 * 3_600_000) / 1000);
  assert.is(one('cost_dashboard_skipped_lines'), 0);
});

m('the Host guard and the cross-site refusal apply', async () => {
  assert.is((await s.request('/metrics', { headers: { host: 'evil.example' } })).status, 403);
  assert.is((await s.request('/metrics', { headers: { host: `localhost:${s.port}`, 'sec-fetch-site': 'cross-site' } })).status, 403);
  assert.is((await s.request('/metrics', { headers: { host: `localhost:${s.port}`, origin: 'https://evil.example' } })).status, 403);
  assert.is((await s.request('/metrics', { headers: { host: `localhost:${s.port}`, 'sec-fetch-site': 'same-origin' } })).status, 200);
});

m('skipped lines follow the index: a malformed line read after a scrape counts in the next one', async () => {
  const skipped = async (): Promise<number> => sum(samples((await s.request('/metrics')).text), 'cost_dashboard_skipped_lines');
  const before = await skipped();
  assert.is(await skipped(), before, 'the index did not change: the same count');
  const file = path.join(s.config.projectsDirs[0]!, '-home-dev-beta', 'broken.jsonl');
  fs.writeFileSync(file, `{"type":"assistant","message":{"usage":{"input_tokens": 1\n${JSON.stringify(usageLine({ sessionId: 'broken', messageId: 'mb', requestId: 'r-mb', timestamp: at(2) }))}\n`);
  ingestFile(s.index, file, sessionRole('-home-dev-beta', 'broken'));
  assert.is(await skipped(), before + 1);
});

m('an empty index: counters without samples, no newest entry', async () => {
  const empty = await startServer({ now: () => NOW });
  try {
    const xs = samples((await empty.request('/metrics')).text);
    assert.is(xs.filter((x) => x.name.endsWith('_total')).length, 0);
    assert.is(xs.filter((x) => x.name === 'cost_dashboard_last_entry_timestamp_seconds').length, 0);
    assert.is(sum(xs, 'cost_dashboard_today_cost_usd'), 0);
  } finally {
    await empty.close();
  }
});

m.run();

/**
 * A server configured for a non-loopback --host, its handler served on 127.0.0.1 only (tests never
 * listen beyond loopback): what /metrics answers depends on the configured bind, not on the socket.
 */
async function boundElsewhere(argv: string[]): Promise<{ port: number; close(): Promise<void> }> {
  const { dir, cleanup } = tempDir('metrics-bind-');
  const config = parseConfig(['--port', '0', '--dir', dir, '--offline', '--host', '0.0.0.0', ...argv], { HOME: dir });
  const index = openIndex(':memory:');
  index.setPrices(PriceTable.builtin());
  const app = createServer({
    index, config, indexing: () => INDEXING_DONE, prices: () => PriceTable.builtin(),
    probe: createUsageProbe({ bin: path.join(dir, 'none'), configDir: dir }), uiDir: dir, log: () => {},
    budgets: createBudgetService({ index: { queries: index.queries, writable: () => index, otherWriter: () => '' }, log: () => {} }),
    limitSettings: createLimitsService({ index: { queries: index.queries, writable: () => index, otherWriter: () => '' }, indexPath: ':memory:', machine: 'test', pollMinutes: null, log: () => {} }),
  });
  const srv = http.createServer(app.handler);
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  return {
    port,
    close: () => new Promise<void>((resolve) => srv.close(() => { index.close(); cleanup(); resolve(); })),
  };
}

const bind = suite('GET /metrics on a non-loopback bind');
bind('without a configured token: 403 whatever is sent', async () => {
  const b = await boundElsewhere([]);
  try {
    const r = await request(b.port, '/metrics');
    assert.is(r.status, 403);
    assert.match(r.text, /--metrics-token/);
    assert.is((await request(b.port, '/metrics', { headers: { host: `localhost:${b.port}`, authorization: 'Bearer anything' } })).status, 403);
    assert.is((await request(b.port, '/api/projects')).status, 200, 'other routes are not affected');
  } finally {
    await b.close();
  }
});

bind('with --metrics-token (or METRICS_TOKEN): only the right bearer token reads it', async () => {
  const b = await boundElsewhere(['--metrics-token', 's3cret-token']);
  try {
    const host = `localhost:${b.port}`;
    assert.is((await request(b.port, '/metrics')).status, 403);
    assert.is((await request(b.port, '/metrics', { headers: { host, authorization: 'Bearer wrong-token1' } })).status, 403);
    assert.is((await request(b.port, '/metrics', { headers: { host, authorization: 'Basic s3cret-token' } })).status, 403);
    const ok = await request(b.port, '/metrics', { headers: { host, authorization: 'Bearer s3cret-token' } });
    assert.is(ok.status, 200);
    assert.match(ok.text, /# TYPE cost_dashboard_cost_usd_total counter/);
    assert.is((await request(b.port, '/metrics', { headers: { host, authorization: 'Bearer s3cret-token', 'sec-fetch-site': 'cross-site' } })).status, 403);
  } finally {
    await b.close();
  }
});
bind.run();
