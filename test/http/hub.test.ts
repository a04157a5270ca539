// mountHub over a real Polka server with real sirv static files behind it, and real SDK files
// (the conformance server SDK, named as the public hub names it; a spec-named one; a throwing one;
// a missing one).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import polka from 'polka';
import sirv from 'sirv';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mountHub } from '../../src/http/hub.ts';
import { parseConfig } from '../../src/config/config.ts';
import { FIXTURES, ROOT } from '../helpers/paths.ts';
import { CLIENT_BUNDLE, SDK_SERVER } from '../hub/conformance-hub.ts';

const STUB = fs.readFileSync(path.join(ROOT, 'ui/vendor/agent-hub-sdk.js'), 'utf8');
const HUB_URL = 'http://localhost:3540';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-mount-'));
const uiDir = path.join(tmp, 'ui');
fs.mkdirSync(path.join(uiDir, 'vendor'), { recursive: true });
fs.writeFileSync(path.join(uiDir, 'vendor/agent-hub-sdk.js'), STUB);
fs.writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html><p>app</p>');

/** A server SDK written the spec's way: Express sendFile, agent naming. */
const agentSdk = path.join(tmp, 'agent-server.cjs');
fs.writeFileSync(
  agentSdk,
  `const path = require('node:path');
module.exports.mount = (app) => {
  app.get('/vendor/agent-hub-sdk.js', (_req, res) => res.sendFile(path.join(__dirname, 'agent-client.js')));
  app.get('/hub-config', (_req, res) => res.json({ enabled: !!process.env.AGENT_HUB, url: process.env.HUB_URL || null }));
};`,
);
fs.writeFileSync(path.join(tmp, 'agent-client.js'), '/* agent client */ window.AgentHub = {};');
const throwingSdk = path.join(tmp, 'throwing.cjs');
fs.writeFileSync(throwingSdk, `module.exports.mount = (app) => { app.get('/vendor/agent-hub-sdk.js', (_q, r) => r.type('js').send('/* partial */')); throw new Error('boom'); };`);

interface Served {
  base: string;
  logs: string[];
  close(): Promise<void>;
}

const HUB_ENV = ['AGENT_HUB', 'CLAUDE_HUB', 'HUB_URL', 'HUB_SDK_SERVER'];

/** The SDKs read process.env (as under a hub), so the hub env is set on this process while a server runs. */
async function serve(env: Record<string, string>): Promise<Served> {
  for (const k of HUB_ENV) delete process.env[k];
  Object.assign(process.env, env);
  const config = parseConfig(['--dir', path.join(FIXTURES, 'transcripts/config')], env);
  const logs: string[] = [];
  const app = polka();
  mountHub(app, config, (m) => logs.push(m));
  app.use(sirv(uiDir, { dev: false, etag: true }));
  const server = http.createServer((req, res) => void app.handler(req as never, res, undefined as never));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    logs,
    close: () =>
      new Promise((r) => {
        for (const k of HUB_ENV) delete process.env[k];
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

const get = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), cache: res.headers.get('cache-control'), text: await res.text() };
};

const test = suite('mountHub');

test('outside a hub: the stub is served and /hub-config does not exist', async () => {
  const s = await serve({});
  try {
    assert.is((await get(`${s.base}/hub-config`)).status, 404);
    const sdk = await get(`${s.base}/vendor/agent-hub-sdk.js`);
    assert.is(sdk.status, 200);
    assert.is(sdk.text, STUB);
    assert.is((await get(`${s.base}/vendor/claude-hub-sdk.js`)).status, 404);
    assert.equal(s.logs, []);
  } finally {
    await s.close();
  }
});

test('under the hub: the server SDK routes win over the stub, at both names', async () => {
  const s = await serve({ CLAUDE_HUB: '1', HUB_URL, HUB_SDK_SERVER: SDK_SERVER });
  try {
    for (const name of ['agent-hub-sdk.js', 'claude-hub-sdk.js']) {
      const sdk = await get(`${s.base}/vendor/${name}`);
      assert.is(sdk.status, 200, name);
      assert.is(sdk.text, CLIENT_BUNDLE, name);
      assert.match(sdk.type ?? '', /^text\/javascript/);
      assert.is(sdk.cache, 'no-cache');
    }
    const cfg = await get(`${s.base}/hub-config`);
    assert.equal(JSON.parse(cfg.text), { enabled: true, url: HUB_URL });
    assert.match(cfg.type ?? '', /^application\/json/);
    // HEAD gets the headers and no body.
    const head = await fetch(`${s.base}/vendor/claude-hub-sdk.js`, { method: 'HEAD' });
    assert.is(head.status, 200);
    assert.is(await head.text(), '');
    // Everything else still reaches the static files.
    assert.is((await get(`${s.base}/index.html`)).text, '<!doctype html><p>app</p>');
  } finally {
    await s.close();
  }
});

test('a spec-named SDK (agent naming, sendFile) is served at the claude name too', async () => {
  const s = await serve({ AGENT_HUB: '1', HUB_URL, HUB_SDK_SERVER: agentSdk });
  try {
    const want = fs.readFileSync(path.join(tmp, 'agent-client.js'), 'utf8');
    assert.is((await get(`${s.base}/vendor/agent-hub-sdk.js`)).text, want);
    const claude = await get(`${s.base}/vendor/claude-hub-sdk.js`);
    assert.is(claude.text, want);
    assert.match(claude.type ?? '', /^text\/javascript/);
    assert.equal(JSON.parse((await get(`${s.base}/hub-config`)).text), { enabled: true, url: HUB_URL });
  } finally {
    await s.close();
  }
});

test('a throwing SDK is logged; what it registered stays and /hub-config comes from us', async () => {
  const s = await serve({ AGENT_HUB: '1', HUB_URL, HUB_SDK_SERVER: throwingSdk });
  try {
    assert.is(s.logs.length, 1);
    assert.match(s.logs[0]!, /hub SDK .*throwing\.cjs not mounted: boom/);
    assert.is((await get(`${s.base}/vendor/agent-hub-sdk.js`)).text, '/* partial */');
    assert.is((await get(`${s.base}/vendor/claude-hub-sdk.js`)).text, '/* partial */');
    assert.equal(JSON.parse((await get(`${s.base}/hub-config`)).text), { enabled: true, url: HUB_URL });
  } finally {
    await s.close();
  }
});

test('a missing SDK file is logged; the stub is served and /hub-config comes from us', async () => {
  const s = await serve({ AGENT_HUB: '1', HUB_URL, HUB_SDK_SERVER: path.join(tmp, 'nope.cjs') });
  try {
    assert.is(s.logs.length, 1);
    assert.match(s.logs[0]!, /nope\.cjs not mounted: Cannot find module/);
    assert.is((await get(`${s.base}/vendor/agent-hub-sdk.js`)).text, STUB);
    assert.equal(JSON.parse((await get(`${s.base}/hub-config`)).text), { enabled: true, url: HUB_URL });
  } finally {
    await s.close();
  }
});

test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
test.run();
