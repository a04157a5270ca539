// Spec "Authentication" 2-5 against a real server: Host check, Origin check, Sec-Fetch-Site check,
// framing headers, nosniff everywhere; and the routes that start the agent CLI refuse cross-site requests.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createUsageProbe } from '../../src/usage-probe/probe.ts';
import { startServer, request, type TestServer } from '../helpers/server.ts';
import { skipTest } from '../helpers/skip.ts';

const HUB = 'http://localhost:47001';
let s: TestServer;
let hub: TestServer;

const host = suite('Host check');
host.before(async () => {
  s = await startServer({ argv: ['--allowed-hosts', 'box.lan,Other.Example'] });
});
host.after(() => s.close());

host('loopback names pass, with any port or none', async () => {
  for (const h of ['localhost', `localhost:${s.port}`, 'localhost:1', '127.0.0.1', `127.0.0.1:${s.port}`, '127.1.2.3', '[::1]', `[::1]:${s.port}`, 'app.localhost:9', 'LOCALHOST.']) {
    const r = await s.request('/api/pricing', { headers: { host: h } });
    assert.is(r.status, 200, h);
  }
});

host('names from --allowed-hosts pass (case-insensitive)', async () => {
  assert.is((await s.request('/api/pricing', { headers: { host: 'box.lan:3543' } })).status, 200);
  assert.is((await s.request('/api/pricing', { headers: { host: 'other.example' } })).status, 200);
});

host('other, malformed or missing hosts get a plain-text 403 saying why', async () => {
  for (const h of ['evil.example', 'evil.example:' + s.port, 'localhost.evil.example', '127.0.0.1.nip.io', '[::2]', 'a b', '[::1', 'localhost:99999', 'x:y']) {
    const r = await s.request('/', { headers: { host: h } });
    assert.is(r.status, 403, h);
    assert.match(String(r.headers['content-type']), 'text/plain');
    assert.match(r.text, /host/i);
  }
  // HTTP/1.1 with no Host: Node's parser answers 400 before any handler runs.
  const none = await s.request('/api/overview', { headers: { host: '' } });
  assert.ok([400, 403].includes(none.status), String(none.status));
});

host('the bound address is accepted', async () => {
  const wide = await startServer({ argv: ['--host', '0.0.0.0'] });
  try {
    assert.match(wide.logs.join('\n'), 'no authentication');
    assert.is((await wide.request('/api/pricing', { headers: { host: `0.0.0.0:${wide.port}` } })).status, 200);
    assert.is((await wide.request('/api/pricing', { headers: { host: '10.1.2.3' } })).status, 403);
  } finally {
    await wide.close();
  }
});

host.run();

const origin = suite('Origin and Sec-Fetch-Site checks');
origin.before(async () => {
  s = await startServer();
  hub = await startServer({ env: { AGENT_HUB: '1', HUB_URL: HUB } });
});
origin.after(async () => {
  await s.close();
  await hub.close();
});

const post = (t: TestServer, headers: Record<string, string>) => t.request('/api/refresh', { method: 'POST', headers });

origin('a POST with no Origin and no Sec-Fetch-Site passes (curl)', async () => {
  const r = await post(s, {});
  assert.is(r.status, 200);
  assert.equal(r.json(), { ok: true });
});

origin('loopback origins on the server port pass; other ports and sites get 403', async () => {
  for (const o of [`http://localhost:${s.port}`, `http://127.0.0.1:${s.port}`, `http://[::1]:${s.port}`, 'http://localhost']) {
    assert.is((await post(s, { origin: o })).status, 200, o);
  }
  for (const o of [`http://localhost:${s.port + 1}`, 'http://evil.example', `http://evil.example:${s.port}`, 'null', 'file://', HUB]) {
    const r = await post(s, { origin: o });
    assert.is(r.status, 403, o);
    assert.match(r.text, /origin/i);
  }
});

origin('an origin equal to the Host addressed is same-origin (the hub proxy, --allowed-hosts)', async () => {
  assert.is((await post(s, { host: 'localhost:45999', origin: 'http://localhost:45999' })).status, 200);
  assert.is((await post(s, { host: 'localhost:45999', origin: 'http://localhost:45998' })).status, 403);
});

origin('under a hub, the hub origin passes', async () => {
  assert.is((await post(hub, { origin: HUB })).status, 200);
  assert.is((await post(hub, { origin: 'http://localhost:47002' })).status, 403);
});

origin('GET, HEAD and OPTIONS are not origin-checked', async () => {
  assert.is((await s.request('/api/pricing', { headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' } })).status, 200);
  assert.is((await s.request('/api/pricing', { method: 'OPTIONS', headers: { origin: 'http://evil.example' } })).status, 404);
});

origin('with no Origin, only Sec-Fetch-Site same-origin or none pass', async () => {
  assert.is((await post(s, { 'sec-fetch-site': 'same-origin' })).status, 200);
  assert.is((await post(s, { 'sec-fetch-site': 'none' })).status, 200);
  for (const v of ['cross-site', 'same-site']) {
    const r = await post(s, { 'sec-fetch-site': v });
    assert.is(r.status, 403, v);
    assert.match(r.text, v);
  }
});

origin('a blocked POST never reaches the route: the cache is not cleared', async () => {
  let clock = 0;
  const t = await startServer({ now: () => clock });
  try {
    const a = await t.request('/api/projects');
    await post(t, { origin: 'http://evil.example' });
    const b = await t.request('/api/projects', { headers: { 'if-none-match': String(a.headers.etag) } });
    assert.is(b.status, 304);
  } finally {
    await t.close();
  }
});

origin.run();

const framing = suite('framing and nosniff');
framing.before(async () => {
  s = await startServer();
  hub = await startServer({ env: { AGENT_HUB: '1', HUB_URL: HUB } });
});
framing.after(async () => {
  await s.close();
  await hub.close();
});

framing('standalone: frame-ancestors none and X-Frame-Options DENY on every response', async () => {
  for (const [p, h] of [['/', 'localhost'], ['/api/pricing', 'localhost'], ['/api/nope', 'localhost'], ['/', 'evil.example']] as const) {
    const r = await s.request(p, { headers: { host: h } });
    assert.is(r.headers['content-security-policy'], "frame-ancestors 'none'", p);
    assert.is(r.headers['x-frame-options'], 'DENY');
    assert.is(r.headers['x-content-type-options'], 'nosniff');
  }
});

framing('under a hub: framing from loopback and the hub origin, no X-Frame-Options', async () => {
  for (const p of ['/', '/api/pricing', '/hub-config']) {
    const r = await hub.request(p);
    assert.is(r.headers['content-security-policy'], `frame-ancestors http://localhost:* http://127.0.0.1:* ${HUB}`);
    assert.is(r.headers['x-frame-options'], undefined);
    assert.is(r.headers['x-content-type-options'], 'nosniff');
  }
});

framing('guards also cover the second loopback family', async () => {
  // Only where this machine has ::1 at all (as listen.test.ts probes); there the server must be bound on it.
  const hasIpv6 = await new Promise<boolean>((resolve) => {
    const probe = net.createServer().once('error', () => resolve(false));
    probe.listen(0, '::1', () => probe.close(() => resolve(true)));
  });
  if (!hasIpv6) {
    skipTest('this machine has no ::1 (IPv6 loopback): the second loopback family');
    return;
  }
  const r = await request(s.port, '/api/pricing', { address: '::1', headers: { host: 'evil.example' } });
  assert.is(r.status, 403);
  const ok = await request(s.port, '/api/pricing', { address: '::1', headers: { host: `localhost:${s.port}` } });
  assert.is(ok.status, 200);
});

framing.run();

// Issue 10 item 9: a GET that starts the agent CLI (it runs the user's hooks) is refused cross-site.
const spawnGuard = suite('cross-site requests never start the CLI');
const FAKE = fileURLToPath(new URL('../fixtures/fake-claude/claude', import.meta.url));
const spawnLog = path.join(os.tmpdir(), `guards-spawns-${process.pid}.jsonl`);
const spawned = (): number => (fs.existsSync(spawnLog) ? fs.readFileSync(spawnLog, 'utf8').split('\n').filter((l) => l.includes('"spawn"')).length : 0);
spawnGuard.before(async () => {
  fs.chmodSync(FAKE, 0o755);
  process.env.FAKE_CLAUDE_MODE = 'success';
  process.env.FAKE_CLAUDE_LOG = spawnLog;
  fs.rmSync(spawnLog, { force: true });
  s = await startServer({ probe: createUsageProbe({ bin: FAKE, configDir: os.tmpdir() }) });
  hub = await startServer({ env: { AGENT_HUB: '1', HUB_URL: HUB }, probe: createUsageProbe({ bin: FAKE, configDir: os.tmpdir() }) });
});
spawnGuard.after(async () => {
  await s.close();
  await hub.close();
  fs.rmSync(spawnLog, { force: true });
});

const PROCESS_ROUTES = ['/api/usage-limits?refresh=1', '/api/usage-limits', '/API/Usage-Limits/?refresh=1', '/api/usage-drivers?refresh=1', '/api/usage-drivers'];

spawnGuard('a foreign Origin or Sec-Fetch-Site cross-site/same-site gets 403 on GET and HEAD, and nothing is spawned', async () => {
  const crossSite: Record<string, string>[] = [
    { origin: 'http://evil.example' },
    { origin: 'null' },
    { origin: `http://localhost:${s.port + 1}` },
    { origin: HUB },
    { 'sec-fetch-site': 'cross-site' },
    { 'sec-fetch-site': 'same-site' },
    { origin: 'http://evil.example', 'sec-fetch-site': 'same-origin' },
  ];
  for (const route of PROCESS_ROUTES) {
    for (const headers of crossSite) {
      for (const method of ['GET', 'HEAD']) {
        const r = await s.request(route, { method, headers });
        assert.is(r.status, 403, `${method} ${route} ${JSON.stringify(headers)}`);
        if (method === 'GET') assert.match(r.text, /Forbidden: (origin|cross-site)/);
      }
    }
  }
  assert.is(spawned(), 0, 'no CLI process was started');
});

spawnGuard('same-origin, a direct visit and curl still start it; under a hub the hub origin does too', async () => {
  assert.is((await s.request('/api/usage-limits?refresh=1', { headers: { 'sec-fetch-site': 'same-origin' } })).status, 200);
  assert.is((await s.request('/api/usage-limits?refresh=1', { headers: { origin: `http://localhost:${s.port}` } })).status, 200);
  assert.is((await s.request('/api/usage-limits?refresh=1', { headers: { 'sec-fetch-site': 'none' } })).status, 200);
  assert.is((await s.request('/api/usage-limits?refresh=1')).status, 200);
  assert.is(spawned(), 4);
  assert.is((await hub.request('/api/usage-limits?refresh=1', { headers: { origin: HUB } })).status, 200);
  assert.is(spawned(), 5);
  assert.is((await s.request('/api/usage-drivers', { headers: { 'sec-fetch-site': 'same-origin' } })).status, 200);
  assert.is(spawned(), 6);
});

spawnGuard('routes that start nothing still answer cross-site GETs', async () => {
  assert.is((await s.request('/api/pricing', { headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' } })).status, 200);
});

spawnGuard.run();
