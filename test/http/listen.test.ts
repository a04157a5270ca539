// Binding rules against real sockets: both loopback families on one port, the random-port fallback
// with its message, PORT=0, and the warning for a non-loopback bind.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, listen } from '../../src/http/listen.ts';
import { skipTest } from '../helpers/skip.ts';

const handler: http.RequestListener = (_req, res) => res.end('ok');

function occupy(port: number, host: string): Promise<http.Server> {
  return new Promise((resolve, reject) => {
    const s = http.createServer(handler);
    s.once('error', reject);
    s.listen(port, host, () => resolve(s));
  });
}
const close = (s: http.Server) => new Promise<void>((r) => s.close(() => r()));
const portOf = (s: http.Server) => (s.address() as AddressInfo).port;

function get(host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    http.get({ host, port, path: '/', headers: { host: 'localhost' } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

const hasIpv6 = await occupy(0, '::1').then(async (s) => (await close(s), true), () => false);
const NO_IPV6 = 'this machine has no ::1 to bind';

const l = suite('listen');

l('PORT=0: any free port, on 127.0.0.1 and ::1 (when the machine has it), no message', async () => {
  const logs: string[] = [];
  const r = await listen(handler, { host: '127.0.0.1', port: 0, log: (m) => logs.push(m) });
  try {
    assert.ok(r.port > 0);
    assert.equal(logs, []);
    assert.is(await get('127.0.0.1', r.port), 'ok');
    assert.is(r.servers.length, hasIpv6 ? 2 : 1);
    if (hasIpv6) assert.is(await get('::1', r.port), 'ok');
  } finally {
    await r.close();
  }
});

l('a port in use: the message, then a random port on both families', async () => {
  const busy = await occupy(0, '127.0.0.1');
  const port = portOf(busy);
  const logs: string[] = [];
  const r = await listen(handler, { host: '127.0.0.1', port, log: (m) => logs.push(m) });
  try {
    assert.equal(logs, [`Port ${port} in use, trying random port...`]);
    assert.is.not(r.port, port);
    assert.is(await get('127.0.0.1', r.port), 'ok');
    if (hasIpv6) assert.is(await get('::1', r.port), 'ok');
  } finally {
    await r.close();
    await close(busy);
  }
});

l('the chosen port free on 127.0.0.1 but taken on ::1 also falls back', async () => {
  if (!hasIpv6) return skipTest(NO_IPV6);
  const busy = await occupy(0, '::1');
  const port = portOf(busy);
  const logs: string[] = [];
  const r = await listen(handler, { host: '127.0.0.1', port, log: (m) => logs.push(m) });
  try {
    assert.equal(logs, [`Port ${port} in use, trying random port...`]);
    assert.is.not(r.port, port);
  } finally {
    await r.close();
    await close(busy);
  }
});

l('binding ::1 also binds 127.0.0.1', async () => {
  if (!hasIpv6) return skipTest(NO_IPV6);
  const r = await listen(handler, { host: '::1', port: 0, log: () => {} });
  try {
    assert.is(await get('127.0.0.1', r.port), 'ok');
    assert.is(await get('::1', r.port), 'ok');
  } finally {
    await r.close();
  }
});

l('a non-loopback bind warns that it is reachable with no authentication', async () => {
  const logs: string[] = [];
  const r = await listen(handler, { host: '0.0.0.0', port: 0, log: (m) => logs.push(m) });
  await r.close();
  assert.is(r.servers.length, 1);
  assert.is(logs.length, 1);
  assert.match(logs[0]!, 'reachable from the network with no authentication');
  assert.not.match(logs[0]!, /running at/i, 'must not look like the ready line');
});

l('close() is idempotent and frees the port', async () => {
  const r = await listen(handler, { host: '127.0.0.1', port: 0, log: () => {} });
  await Promise.all([r.close(), r.close()]);
  const again = await occupy(r.port, '127.0.0.1');
  await close(again);
});

l('keep-alive: idle sockets outlive a pooling proxy (65 s, headers timeout above it); a socket idle past 5 s is reused', async () => {
  const r = await listen(handler, { host: '127.0.0.1', port: 0, log: () => {} });
  // What the hub's proxy does: one pooled keep-alive socket, reused for the next request.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const request = () =>
    new Promise<{ body: string; reused: boolean; socket: unknown }>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port: r.port, path: '/', agent, headers: { host: 'localhost' } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ body, reused: req.reusedSocket, socket: res.socket }));
      });
      req.on('error', reject);
    });
  try {
    for (const s of r.servers) {
      assert.is(s.keepAliveTimeout, KEEP_ALIVE_TIMEOUT_MS);
      assert.ok(s.headersTimeout > s.keepAliveTimeout);
    }
    assert.ok(KEEP_ALIVE_TIMEOUT_MS >= 65_000 && HEADERS_TIMEOUT_MS > KEEP_ALIVE_TIMEOUT_MS);
    const first = await request();
    assert.is(first.body, 'ok');
    assert.not.ok(first.reused);
    // Past Node's default 5 s keepAliveTimeout, after which the server used to close the idle socket.
    await new Promise((res) => setTimeout(res, 6000));
    const second = await request();
    assert.is(second.body, 'ok');
    assert.ok(second.reused, 'the idle pooled socket is reused');
    assert.is(second.socket, first.socket);
  } finally {
    agent.destroy();
    await r.close();
  }
});

l.run();
