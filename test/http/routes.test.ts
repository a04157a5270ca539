// The API routes against a real server over a real index filled through the real parser:
// shapes, parameters, errors, the 30 s cache (ETag / 304 / expiry / refresh), usage limits, pricing, UI.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Insights, Monthly, Overview, Pricing, ProjectRow, ProjectSessions, RepositoryDetail, SessionDetail, UsageDrivers, UsageLimits } from '../../src/shared/api-types.ts';
import { createUsageProbe } from '../../src/usage-probe/probe.ts';
import { usageLine, writeJsonl } from '../helpers/jsonl.ts';
import { ingestFile, INDEXING_DONE, sessionRole, startServer, type TestServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

const NOW = Date.UTC(2026, 0, 10, 12);
const PROJECT = '-home-dev-proj';
let clock = NOW;
let s: TestServer;

function addSession(t: TestServer, session: string, lines: Record<string, unknown>[]): void {
  const file = writeJsonl(path.join(t.config.projectsDirs[0]!, PROJECT, `${session}.jsonl`), lines);
  ingestFile(t.index, file, sessionRole(PROJECT, session));
}
const line = (session: string, id: string, day: number, output = 100) =>
  usageLine({ sessionId: session, messageId: id, requestId: `r-${id}`, timestamp: new Date(Date.UTC(2026, 0, day, 10)).toISOString(), output });

const data = suite('data routes');
data.before(async () => {
  s = await startServer({ now: () => clock, cacheClock: () => clock });
  addSession(s, 'sess-1', [line('sess-1', 'm1', 9), line('sess-1', 'm2', 9)]);
});
data.after(() => s.close());
data.before.each(() => {
  clock = NOW;
  s.server.clearCache();
});

data('overview: 30 days by default, totals, the indexing state and the dirs', async () => {
  const r = await s.request('/api/overview');
  assert.is(r.status, 200);
  assert.match(String(r.headers['content-type']), 'application/json');
  const o = r.json<Overview>();
  assert.equal([o.range.kind, o.range.days, o.range.bucket], ['days', 30, 'day']);
  assert.is(o.totals.messages, 2);
  assert.is(o.totals.outputTokens, 200);
  assert.equal(o.indexing, INDEXING_DONE);
  assert.equal(o.dirs, s.config.dirs);
  assert.is(o.project, null);
});

data('overview: a range without data is empty; project scope applies', async () => {
  const o = (await s.request('/api/overview?from=2025-01-01&to=2025-01-02')).json<Overview>();
  assert.is(o.totals.messages, 0);
  assert.equal([o.range.from, o.range.to, o.range.kind], ['2025-01-01', '2025-01-02', 'custom']);
  const p = (await s.request(`/api/overview?project=${PROJECT}`)).json<Overview>();
  assert.is(p.project, PROJECT);
  assert.is(p.totals.messages, 2);
  assert.is((await s.request('/api/overview?project=other-project')).json<Overview>().totals.messages, 0);
});

data('insights carries the indexing state', async () => {
  const i = (await s.request('/api/insights?range=today')).json<Insights>();
  assert.equal(i.indexing, INDEXING_DONE);
  assert.is(i.range.kind, 'today');
  assert.is(i.heatmap.length, 7);
});

data('projects: all time by default', async () => {
  const rows = (await s.request('/api/projects')).json<ProjectRow[]>();
  assert.equal(rows.map((r) => [r.id, r.sessions, r.messages]), [[PROJECT, 1, 2]]);
});

data('project sessions; an unknown project is 404; ?project is ignored here', async () => {
  const r = await s.request(`/api/projects/${PROJECT}/sessions?project=not/valid`);
  assert.is(r.status, 200);
  const ps = r.json<ProjectSessions>();
  assert.is(ps.project.id, PROJECT);
  assert.equal(ps.sessions.map((x) => x.id), ['sess-1']);
  assert.is(ps.range.kind, 'all');
  const missing = await s.request('/api/projects/nope/sessions');
  assert.is(missing.status, 404);
  assert.equal(missing.json(), { error: 'Project not found' });
  assert.is((await s.request('/api/projects/..%2Fetc/sessions')).status, 404);
});

data('repository: its folders summed, by the main checkout path as ?id=; unknown is 404 Repository not found', async () => {
  const rows = (await s.request('/api/projects')).json<ProjectRow[]>();
  assert.equal(rows[0]!.repository, { id: '/home/dev/proj', name: 'proj' }, 'a folder that is no worktree is its own repository');
  const r = await s.request(`/api/repository?id=${encodeURIComponent('/home/dev/proj')}`);
  assert.is(r.status, 200);
  const d = r.json<RepositoryDetail>();
  assert.equal(d.repository, { id: '/home/dev/proj', name: 'proj' });
  assert.equal(d.projects.map((p) => p.id), [PROJECT]);
  assert.is(d.totals.messages, 2);
  assert.is(d.totals.sessions, 1);
  for (const q of ['?id=%2Fnowhere', '', '?id=']) {
    const miss = await s.request(`/api/repository${q}`);
    assert.is(miss.status, 404, q);
    assert.equal(miss.json(), { error: 'Repository not found' });
  }
});

data('session detail; unknown session is 404 Session not found', async () => {
  const d = (await s.request('/api/sessions/sess-1?range=today')).json<SessionDetail>();
  assert.is(d.id, 'sess-1');
  assert.is(d.messageCount, 2);
  assert.is(d.inRange, null, 'no usage today');
  assert.is(d.range.kind, 'today');
  const r = await s.request('/api/sessions/does-not-exist');
  assert.is(r.status, 404);
  assert.equal(r.json(), { error: 'Session not found' });
  assert.is((await s.request(`/api/sessions/${'x'.repeat(300)}`)).status, 404);
});

data('every data route wraps its query in the envelope: what it resolved (range, project, repository) and the server state', async () => {
  const repo = encodeURIComponent('/home/dev/proj');
  const o = (await s.request(`/api/overview?range=7&project=${PROJECT}&repository=${repo}`)).json<Overview>();
  assert.equal([o.range.kind, o.range.days, o.project, o.repository, o.indexing, o.dirs], ['days', 7, PROJECT, '/home/dev/proj', INDEXING_DONE, s.config.dirs]);
  assert.is(o.totals.messages, 2, 'and the figures beside it');
  const i = (await s.request(`/api/insights?range=week&project=${PROJECT}&repository=${repo}`)).json<Insights>();
  assert.equal([i.range.kind, i.project, i.repository, i.indexing], ['week', PROJECT, '/home/dev/proj', INDEXING_DONE]);
  const m = (await s.request(`/api/monthly?project=${PROJECT}`)).json<Monthly>();
  assert.equal([m.project, m.months.map((x) => x.messages)], [PROJECT, [2]]);
  assert.is((await s.request('/api/monthly')).json<Monthly>().project, null);
  const ps = (await s.request(`/api/projects/${PROJECT}/sessions?range=today`)).json<ProjectSessions>();
  assert.equal([ps.range.kind, ps.project.id], ['today', PROJECT]);
  const d = (await s.request(`/api/repository?id=${repo}&range=month`)).json<RepositoryDetail>();
  assert.equal([d.range.kind, d.repository.id], ['month', '/home/dev/proj']);
  const sd = (await s.request('/api/sessions/sess-1?from=2025-01-01&to=2025-01-02')).json<SessionDetail>();
  assert.equal([sd.range.kind, sd.range.from, sd.id], ['custom', '2025-01-01', 'sess-1']);
});

data('400s with the spec texts; project only validated where it applies', async () => {
  for (const route of ['/api/overview', '/api/insights', '/api/projects', `/api/projects/${PROJECT}/sessions`, '/api/sessions/sess-1']) {
    const r = await s.request(`${route}?from=2026-01-01`);
    assert.is(r.status, 400, route);
    assert.equal(r.json(), { error: 'Invalid date range' });
    assert.is((await s.request(`${route}?from=2026-01-01&to=2026-02-31`)).status, 400);
  }
  for (const route of ['/api/overview', '/api/insights', '/api/projects']) {
    const r = await s.request(`${route}?project=a%2Fb`);
    assert.is(r.status, 400, route);
    assert.equal(r.json(), { error: 'Invalid project' });
  }
  assert.is((await s.request('/api/sessions/sess-1?project=a%2Fb')).status, 200);
});

data('unknown API paths and methods are JSON 404s; a request body is not needed to answer', async () => {
  for (const [method, p] of [['GET', '/api/nope'], ['GET', '/api/refresh'], ['POST', '/api/overview'], ['DELETE', '/api/projects']] as const) {
    const r = await s.request(p, { method, body: method === 'GET' ? undefined : 'x'.repeat(100_000) });
    assert.is(r.status, 404, `${method} ${p}`);
    assert.equal(r.json(), { error: 'Not found' });
  }
});

data.run();

const cache = suite('result cache over HTTP');
cache.before(async () => {
  s = await startServer({ now: () => clock, cacheClock: () => clock });
  addSession(s, 'sess-1', [line('sess-1', 'm1', 9)]);
});
cache.after(() => s.close());
cache.before.each(() => {
  clock = NOW;
  s.server.clearCache();
});

const messages = async (t: TestServer) => (await t.request('/api/overview')).json<Overview>().totals.messages;

cache('ETag and If-None-Match -> 304 with no body', async () => {
  const a = await s.request('/api/overview');
  const etag = String(a.headers.etag);
  assert.match(etag, /^W\/"/);
  const b = await s.request('/api/overview', { headers: { 'if-none-match': etag } });
  assert.is(b.status, 304);
  assert.is(b.text, '');
  assert.is((await s.request('/api/overview', { headers: { 'if-none-match': 'W/"other"' } })).status, 200);
  assert.is((await s.request('/api/overview?range=7', { headers: { 'if-none-match': etag } })).status, 200, 'another key');
});

// Issue 36: the cache is keyed by the index's generation, so a write no longer waits out the 30 s (the TTL itself is
// test/http/cache.test.ts's).
cache('a write to the index shows at once, without waiting out the 30 s', async () => {
  assert.is(await messages(s), 1);
  addSession(s, 'sess-2', [line('sess-2', 'm9', 9)]);
  assert.is(await messages(s), 2, 'the older generation is not served');
  clock += 29_000;
  assert.is(await messages(s), 2);
});

cache('POST /api/refresh clears the cache', async () => {
  assert.is(await messages(s), 2);
  addSession(s, 'sess-3', [line('sess-3', 'm10', 9)]);
  const r = await s.request('/api/refresh', { method: 'POST' });
  assert.equal([r.status, r.json()], [200, { ok: true }]);
  assert.is(await messages(s), 3);
});

cache('while the first build runs, results live 2 s and the key changes when it ends', async () => {
  let state = { done: false, filesTotal: 5, filesDone: 1, bytesTotal: 50, bytesDone: 10, finalSince: null as string | null };
  const t = await startServer({ now: () => clock, cacheClock: () => clock, indexing: () => state });
  try {
    assert.equal((await t.request('/api/overview')).json<Overview>().indexing, state);
    state = { ...state, filesDone: 2 };
    assert.is((await t.request('/api/overview')).json<Overview>().indexing.filesDone, 1, 'cached');
    clock += 2000;
    assert.is((await t.request('/api/overview')).json<Overview>().indexing.filesDone, 2);
    state = { ...state, done: true, filesDone: 5 };
    assert.is((await t.request('/api/overview')).json<Overview>().indexing.done, true, 'no in-progress result after the build');
  } finally {
    await t.close();
  }
});

cache('concurrent identical requests all get the same answer', async () => {
  const all = await Promise.all(Array.from({ length: 8 }, () => s.request('/api/insights')));
  assert.ok(all.every((r) => r.status === 200 && r.headers.etag === all[0]!.headers.etag));
});

cache.run();

const meta = suite('usage limits, pricing, UI, port fallback');
const FAKE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/fake-claude/claude');
fs.chmodSync(FAKE, 0o755);

meta('usage limits and drivers: 200 from the probe, cached, refresh=1 reprobes; 503 {error} on failure', async () => {
  process.env.FAKE_CLAUDE_MODE = 'success';
  const t = await startServer({ probe: createUsageProbe({ bin: FAKE, configDir: '/tmp' }) });
  const bad = await startServer();
  try {
    const a = (await t.request('/api/usage-limits')).json<UsageLimits>();
    assert.is(a.cached, false);
    assert.is(a.windows.find((w) => w.binding)?.label, 'Week (Opus)');
    assert.is((await t.request('/api/usage-limits')).json<UsageLimits>().cached, true);
    assert.is((await t.request('/api/usage-limits?refresh=1')).json<UsageLimits>().cached, false);
    const r = await bad.request('/api/usage-limits');
    assert.is(r.status, 503);
    assert.match(r.json<{ error: string }>().error, 'not installed');
    const d = (await t.request('/api/usage-drivers')).json<UsageDrivers>();
    assert.is(d.available, true);
    assert.is(d.week?.behaviors[0]?.label, 'Cache misses');
    assert.is((await t.request('/api/usage-drivers')).json<UsageDrivers>().cached, true);
    assert.is((await t.request('/api/usage-drivers?refresh=1')).json<UsageDrivers>().cached, false);
    assert.is((await bad.request('/api/usage-drivers')).status, 503);
  } finally {
    await t.close();
    await bad.close();
  }
});

meta('usage-limits/recent: null until the probe answers, then its answer for 5 minutes; never starts the CLI; cross-site refused', async () => {
  process.env.FAKE_CLAUDE_MODE = 'success';
  let clock = Date.now();
  const t = await startServer({ probe: createUsageProbe({ bin: FAKE, configDir: '/tmp', now: () => clock }) });
  try {
    const recent = async () => (await t.request('/api/usage-limits/recent')).json<{ limits: UsageLimits | null }>().limits;
    assert.is(await recent(), null, 'asking for the recent answer did not probe');
    assert.is(await recent(), null);
    const probed = (await t.request('/api/usage-limits')).json<UsageLimits>();
    const r = await recent();
    assert.ok(r, 'the probe answered');
    assert.equal(r!.windows, probed.windows);
    assert.is(r!.cached, true);
    clock += 300_001;
    assert.is(await recent(), null, 'older than 5 minutes');
    const cross = await t.request('/api/usage-limits/recent', { headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' } });
    assert.is(cross.status, 403);
  } finally {
    await t.close();
  }
});

meta('each request is told to the background\'s turns when it comes and when it is answered, a refused or static one too', async () => {
  const seen: number[] = [];
  const t = await startServer({ requestSeen: () => seen.push(performance.now()) });
  try {
    await t.request('/api/pricing');
    await waitFor(() => seen.length === 2, 'one API answer told at its start and its end');
    await t.request('/');
    await t.request('/api/pricing', { headers: { host: 'evil.example' } });
    await waitFor(() => seen.length === 6, 'the page and a request the host guard refused, each told twice');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.is(seen.length, 6, 'no request told more than twice');
  } finally {
    await t.close();
  }
});

meta('pricing: the loaded table with source and load time', async () => {
  const t = await startServer();
  try {
    const p = (await t.request('/api/pricing')).json<Pricing>();
    assert.ok(p.source.length > 0);
    assert.ok(!Number.isNaN(Date.parse(p.loadedAt)));
    assert.ok(p.models.length > 0);
    assert.ok(p.models.every((m) => m.model.startsWith('anthropic/') || m.model.startsWith('claude')));
  } finally {
    await t.close();
  }
});

meta('the UI: index.html revalidated, assets with ETag, other paths 404 text', async () => {
  const t = await startServer();
  try {
    const page = await t.request('/');
    assert.is(page.status, 200);
    assert.match(page.text, '<cost-app>');
    assert.is(page.headers['cache-control'], 'no-cache');
    const js = await t.request('/app.js');
    assert.is(js.status, 200);
    assert.ok(js.headers.etag);
    assert.is((await t.request('/app.js', { headers: { 'if-none-match': String(js.headers.etag) } })).status, 304);
    const stub = await t.request('/vendor/agent-hub-sdk.js');
    assert.is(stub.status, 200);
    assert.is(stub.headers['cache-control'], 'no-cache', 'the SDK stub is revalidated: a hub serves its own client on the same origin');
    const missing = await t.request('/missing.css');
    assert.is(missing.status, 404);
    assert.match(String(missing.headers['content-type']), 'text/plain');
  } finally {
    await t.close();
  }
});

meta('a port in use: the message, and the server answers on the random port', async () => {
  const busy = http.createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
  const port = (busy.address() as { port: number }).port;
  const t = await startServer({ argv: ['--port', String(port)] });
  try {
    assert.ok(t.logs.includes(`Port ${port} in use, trying random port...`));
    assert.is.not(t.port, port);
    assert.is((await t.request('/api/pricing')).status, 200);
  } finally {
    await t.close();
    busy.close();
  }
});

meta.run();
