// The conformance hub's supervisor and proxy with small real child processes and real servers on
// loopback: the restart limit (5 in 60 s), SIGKILL 3 s after an ignored SIGTERM, a health probe that
// moves an app off a slow port, and the proxy's connect retries (three failures, then the IPC ask,
// then the replaced app answers the same request).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { waitFor } from '../helpers/wait.ts';
import { startProxy } from './proxy.ts';
import { KILL_GRACE_MS, killChild, supervise, type AppProcess } from './supervisor.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-sup-'));

/**
 * A stand-in app: answers hub:ping over IPC, serves HTTP (each answer `delay` ms late), prints its
 * port; `exitAfter` ms after start it exits with code 3; `ignoreTerm` ignores SIGTERM.
 */
const APP = path.join(tmp, 'app.cjs');
fs.writeFileSync(
  APP,
  `const http = require('node:http');
const [delay, exitAfter, ignoreTerm] = process.argv.slice(2).map(Number);
process.on('message', (m) => m && m.type === 'hub:ping' && process.send({ type: 'hub:pong', id: m.id }));
if (ignoreTerm) process.on('SIGTERM', () => {});
const s = http.createServer((q, r) => setTimeout(() => r.end('ok'), delay));
s.listen(0, '127.0.0.1', () => {
  process.send({ type: 'ready', port: s.address().port });
  if (exitAfter) setTimeout(() => process.exit(3), exitAfter);
});`,
);

function startApp(delay = 0, exitAfter = 0, ignoreTerm = 0): Promise<AppProcess> {
  const child = spawn(process.execPath, [APP, String(delay), String(exitAfter), String(ignoreTerm)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return new Promise((resolve) => {
    child.once('message', (m) => resolve({ child, port: (m as { port: number }).port, stdout: [], stderr: () => '', exited }));
  });
}

const test = suite('conformance hub supervisor and proxy');

test('a crashing app is restarted up to 5 times in 60 s, then left down', async () => {
  const logs: string[] = [];
  const crashing = () => startApp(0, 50);
  const sup = supervise(crashing, await crashing(), (l) => logs.push(l));
  try {
    await waitFor(() => logs.some((l) => /not restarting/.test(l)), 'the restart limit', 20_000);
    assert.is(sup.starts(), 6);
    assert.is(logs.filter((l) => /; restarting$/.test(l)).length, 5);
    assert.is(sup.current(), null);
  } finally {
    await sup.stop();
  }
});

test('stop: SIGTERM, and SIGKILL 3 s later for an app that ignores it', async () => {
  const app = await startApp(0, 0, 1);
  const t0 = Date.now();
  await killChild(app);
  const took = Date.now() - t0;
  assert.is(app.child.signalCode, 'SIGKILL');
  assert.ok(took >= KILL_GRACE_MS - 50 && took < KILL_GRACE_MS + 2000, `took ${took} ms`);
});

test('health probes: a slow port with a fast IPC pong, three times, moves the app to a new process', async () => {
  const logs: string[] = [];
  const first = await startApp(400);
  const sup = supervise(() => startApp(0), first, (l) => logs.push(l));
  try {
    // A probe whose pong is late under load is no strike, so probe until the third strike (bounded).
    let probes = 0;
    while (sup.starts() === 1 && probes < 12) {
      const r = await sup.probe();
      probes++;
      assert.ok(r.httpMs >= 300, JSON.stringify(r));
    }
    assert.is(sup.starts(), 2);
    assert.ok(probes >= 3, `replaced after ${probes} probes`);
    assert.is.not(sup.current(), first);
    assert.is(first.child.exitCode !== null || first.child.signalCode !== null, true);
    // The new process answers fast: no strike.
    const fresh = await sup.probe();
    assert.ok(fresh.httpMs < 300, JSON.stringify(fresh));
    assert.ok(logs.some((l) => /new port/.test(l)));
  } finally {
    await sup.stop();
  }
});

test('proxy: failed connects retried 250 ms apart; after three the supervisor is asked, and the replaced app answers', async () => {
  // A port nothing listens on: bind one and close it.
  const dead = await new Promise<number>((resolve) => {
    const s = http.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  const live = http.createServer((_q, r) => r.end('from the new process'));
  await new Promise<void>((r) => live.listen(0, '127.0.0.1', r));
  let port = dead;
  let asked = 0;
  const proxy = await startProxy(0, {
    port: () => port,
    async unreachable() {
      asked++;
      port = (live.address() as AddressInfo).port;
      return false;
    },
    async replace() {},
  });
  try {
    const t0 = Date.now();
    const res = await fetch(`${proxy.url}/x`);
    assert.is(await res.text(), 'from the new process');
    assert.is(asked, 1);
    assert.is(proxy.retries(), 3);
    assert.ok(Date.now() - t0 >= 2 * 250, 'retried 250 ms apart');
  } finally {
    await proxy.close();
    await new Promise<void>((r) => live.close(() => r()));
  }
});

test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
test.run();
